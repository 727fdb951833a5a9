// What a target shows that a scenario could leave behind and a later run would notice: the
// given accounts' settings (plan, add-ons, IP exceptions, messaging controls, signing key,
// issuing page, artifact settings, numbers) and live resources (webhooks, call flows, SIP
// endpoints, ACLs and credentials, MCP connections, email domains, active blocks, pending
// assignment links, connected channels, running batches, agents, voice clones, dictionaries),
// and the target-wide settings of the control plane (geo-IP marks, DNS failures, the email
// provider, the messenger, the identity provider, egress, the MCP runner and its fake servers,
// image scripts, carrier scripts not yet spent). Read through the API and the control plane
// only, as a vendor's target would be.
import type { Credentials, Target } from '../target.ts';

type Json = Record<string, any>;

/** Lists of resources a scenario creates and can remove or end again. */
const LISTS = ['listNumbers', 'listBlockedCallers', 'listBlockedRecipients', 'listEmailDomains', 'listKakaoChannels', 'listWebhooks', 'listSipEndpoints', 'listSipIpAcls', 'listSipCredentials', 'listCallFlows', 'listAssignmentLinks', 'listMcpConnections', 'listCallBatches', 'listAgents', 'listVoiceClones', 'listDictionaries'];
const PATHS: Record<string, string> = {
  listNumbers: 'numbers',
  listBlockedCallers: 'blocked-callers',
  listBlockedRecipients: 'blocked-recipients',
  listEmailDomains: 'email-domains',
  listKakaoChannels: 'kakao/channels',
  listWebhooks: 'webhooks',
  listSipEndpoints: 'sip-endpoints',
  listSipIpAcls: 'sip-ip-acls',
  listSipCredentials: 'sip-credentials',
  listCallFlows: 'call-flows',
  listAssignmentLinks: 'assignment-links',
  listMcpConnections: 'mcp-connections',
  listCallBatches: 'call-batches',
  listAgents: 'agents',
  listVoiceClones: 'voice-clones',
  listDictionaries: 'dictionaries',
};
/** States after which a resource no longer acts (its entry stays as history). */
const ENDED = new Set(['deleted', 'released', 'revoked', 'expired', 'canceled', 'cancelled', 'completed', 'consumed', 'retired', 'disabled', 'failed', 'inactive']);

function live(item: Json): boolean {
  if (item.active === false || item.deletedAt) return false;
  return !(typeof item.status === 'string' && ENDED.has(item.status));
}

const idOf = (item: Json) => String(item.id ?? item.sid ?? item.callFlowId ?? item.batchId ?? item.linkId ?? item.channelId ?? item.agentId ?? item.dictionaryId ?? item.serverId ?? item.number ?? JSON.stringify(item));

export async function footprint(target: Target): Promise<Json> {
  const control = async (path: string) => {
    const res = await target.send({ method: 'GET', path: `/_sim${path}`, headers: target.controlToken ? { authorization: `Bearer ${target.controlToken}` } : {} });
    return res.status === 200 ? res.json : `status ${res.status}`;
  };
  const api = async (who: Credentials, list: string) => {
    const res = await target.send({ method: 'GET', path: `/v1/accounts/${who.accountId}/${PATHS[list]}?pageSize=100`, headers: { authorization: `Bearer ${who.key}` } });
    const data = (res.json as { data?: Json[] } | undefined)?.data;
    return Array.isArray(data) ? data.filter(live).map(idOf).sort() : `status ${res.status}`;
  };
  const out: Json = {};
  for (const [name, who] of target.accounts) {
    const view = (await control(`/accounts/${who.accountId}`)) as Json;
    const { createdAt: _created, numbers, ...settings } = typeof view === 'object' ? view : { view };
    out[name] = {
      settings,
      numbers: Array.isArray(numbers) ? [...numbers].sort() : numbers,
      signingKey: await control(`/accounts/${who.accountId}/signing-key`),
      issuingPage: await control(`/accounts/${who.accountId}/issuing-page`),
      artifactSettings: await control(`/accounts/${who.accountId}/artifact-settings`),
    };
    for (const list of LISTS) out[name][list] = await api(who, list);
  }
  const scripts = (await control('/carrier/scripts')) as { data?: Json[] };
  out.global = {
    geoip: await control('/geoip'),
    dnsFailures: await control('/dns/failures'),
    emailProvider: await control('/email-provider'),
    messenger: await control('/messenger').then((m) => (typeof m === 'object' ? { failure: (m as Json).failure, channels: (m as Json).channels } : m)),
    kyc: await control('/kyc').then((k) => (typeof k === 'object' ? { failure: (k as Json).failure, nextResult: (k as Json).nextResult } : k)),
    egress: await control('/egress'),
    mcpRunner: await control('/mcp/runner'),
    images: await control('/images'),
    mcpServers: await control('/mcp/servers').then((m) => (typeof m === 'object' ? ((m as Json).data as Json[]).map(idOf) : m)),
    // Even a script on one of the kit's fresh numbers would meet a later run that draws the same number.
    carrierScripts: (scripts.data ?? []).filter((s) => s.remaining !== 0).map(({ picked: _p, attempts: _a, remaining: _r, ...rest }) => rest),
  };
  return out;
}

/** The dotted paths where two footprints differ, with both values (short). */
export function footprintDiff(before: Json, after: Json, at = ''): string[] {
  if (JSON.stringify(before) === JSON.stringify(after)) return [];
  const isObj = (v: unknown) => v && typeof v === 'object' && !Array.isArray(v);
  if (isObj(before) && isObj(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    return keys.flatMap((k) => footprintDiff(before[k], after[k], at ? `${at}.${k}` : k));
  }
  return [`${at}: ${JSON.stringify(before)?.slice(0, 160)} -> ${JSON.stringify(after)?.slice(0, 160)}`];
}
