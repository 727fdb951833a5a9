// Properties of email domains (fast-check, fixed seed from setup.ts):
// 1. any generated DNS zone (with scripted failures) maps to exactly the statuses the spec's
//    rules say, computed by a small reference written here from the spec, not from the model;
// 2. no generated sequence of requests gives a 5xx (other than the spec's 503 while a failure
//    is scripted), and every refusal leaves the state unchanged.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createSimulator, type Simulator } from '../index.ts';
import { dispatch, DEFAULT_MAX_BODY_BYTES } from '../app.ts';
import type { SimResponse } from '../core/operation.ts';
import { schemaErrors } from '../core/schema.ts';
import { EmailDomain } from '../resources/email-domains/schema.ts';
import { ACME, BISTRO } from './helpers.ts';
import { runtimeOf } from '../internal.ts';

const HOUR_MS = 3_600_000;
const DOMAIN = 'sub.example.com';
const PARENT = 'example.com';
const FEEDBACK = 'feedback-smtp.ap-northeast-2.amazonses.com';
const INBOUND = 'inbound-smtp.ap-northeast-2.amazonaws.com';

function send(sim: Simulator, method: string, url: string, body?: unknown, key: string | null = ACME.key): { status: number; json: any } {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (key !== null && !url.startsWith('/_sim')) headers.authorization = `Bearer ${key}`;
  const res = dispatch(runtimeOf(sim), { maxBodyBytes: DEFAULT_MAX_BODY_BYTES }, { method, url, headers, body: body === undefined ? undefined : JSON.stringify(body) }) as SimResponse;
  return { status: res.status, json: res.body ? JSON.parse(res.body) : undefined };
}

// --- 1. zone -> statuses ---

type DkimPlant = 'absent' | 'correct' | 'spelled' | 'wrong';
interface DmarcTxt {
  version: 'DMARC1' | 'dmarc1' | 'DMARC2' | 'other';
  p?: string;
  aspf?: string;
  quoted: boolean;
}
interface Mx {
  host: 'service' | 'elsewhere' | 'otherRegion';
  priority: number;
}
type BounceTxt = 'spf' | 'spfElsewhere' | 'spfQuoted' | 'other';
type Lookup = 'dkim' | 'bounce' | 'dmarcOwn' | 'dmarcParent' | 'apex';
interface Case {
  startVerified: boolean;
  mailFromPlantedBefore: boolean;
  receivingOn: boolean;
  hours: number; // the check under test is the hours-th hourly check (or a request half an hour before it)
  trigger: 'request' | 'periodic';
  dkim: DkimPlant[];
  bounceMx: Mx[];
  bounceTxt: BounceTxt[];
  dmarcOwn: DmarcTxt[];
  dmarcParent: DmarcTxt[];
  apexMx: Mx[];
  regionReceives: boolean;
  timeouts: Lookup[];
  outage: boolean;
}

const dmarcTxt = fc.record({
  version: fc.constantFrom('DMARC1', 'DMARC1', 'dmarc1', 'DMARC2', 'other'),
  p: fc.option(fc.constantFrom('none', 'quarantine', 'reject', 'REJECT', 'bogus'), { nil: undefined, freq: 4 }),
  aspf: fc.option(fc.constantFrom('s', 'r', 'S'), { nil: undefined }),
  quoted: fc.boolean(),
}) as fc.Arbitrary<DmarcTxt>;
// Few distinct priorities, so that ties (not_lowest_priority) come up often.
const mx = fc.record({ host: fc.constantFrom('service', 'elsewhere', 'otherRegion'), priority: fc.constantFrom(0, 5, 10, 10, 20) }) as fc.Arbitrary<Mx>;
const mostly = (value: boolean) => fc.constantFrom(value, value, value, !value);
const caseArb: fc.Arbitrary<Case> = fc.record({
  startVerified: mostly(true),
  mailFromPlantedBefore: fc.boolean(),
  receivingOn: mostly(true),
  // 72 is where MAIL FROM detection gives up; the boundary is generated on purpose.
  hours: fc.oneof(fc.constantFrom(1, 2, 71, 72, 72, 73), fc.integer({ min: 1, max: 100 })),
  trigger: fc.constantFrom('request', 'periodic'),
  dkim: fc.array(fc.constantFrom<DkimPlant>('absent', 'correct', 'spelled', 'wrong', 'correct', 'correct'), { minLength: 3, maxLength: 3 }),
  bounceMx: fc.array(mx, { maxLength: 2 }),
  bounceTxt: fc.array(fc.constantFrom<BounceTxt>('spf', 'spf', 'spfElsewhere', 'spfQuoted', 'other'), { maxLength: 2 }),
  dmarcOwn: fc.array(dmarcTxt, { maxLength: 2 }),
  dmarcParent: fc.array(dmarcTxt, { maxLength: 2 }),
  apexMx: fc.array(mx, { maxLength: 3 }),
  regionReceives: mostly(true),
  timeouts: fc.oneof(fc.constant<Lookup[]>([]), fc.subarray<Lookup>(['dkim', 'bounce', 'dmarcOwn', 'dmarcParent', 'apex'], { maxLength: 2 })),
  outage: fc.constantFrom(false, false, false, false, false, true),
});

function renderDmarc(t: DmarcTxt): string {
  const body = t.version === 'other' ? 'google-site-verification=abc123' : [`v=${t.version}`, t.p !== undefined && `p=${t.p}`, t.aspf !== undefined && `aspf=${t.aspf}`, 'rua=mailto:d@example.com'].filter(Boolean).join('; ');
  return t.quoted ? `"${body}"` : body;
}

// The reference: the spec's rules, read directly off the generated case. A DNS record set holds
// identical records once (RFC 2181 5), so duplicates are collapsed before counting.
const distinct = <T>(items: T[], key: (t: T) => string) => [...new Map(items.map((i) => [key(i), i])).values()];
const isDmarcRecord = (t: DmarcTxt) => !t.quoted && t.version.toUpperCase() === 'DMARC1';
function policyOf(t: DmarcTxt): string {
  const p = t.p?.toLowerCase();
  if (p !== 'none' && p !== 'quarantine' && p !== 'reject') return 'not_found'; // no (valid) p tag
  if (t.aspf?.toLowerCase() === 's') return 'spf_strict';
  return p === 'none' ? 'monitor' : 'enforced';
}
type Read<T> = { ok: true; value: T } | { ok: false };
function dmarcRead(c: Case): Read<{ status: string; seen: boolean }> {
  for (const [records, lookup] of [[c.dmarcOwn, 'dmarcOwn'], [c.dmarcParent, 'dmarcParent']] as const) {
    if (c.timeouts.includes(lookup)) return { ok: false };
    const found = distinct(records, renderDmarc).filter(isDmarcRecord);
    if (found.length > 0) return { ok: true, value: { seen: true, status: found.length === 1 ? policyOf(found[0]!) : 'not_found' } };
  }
  return { ok: true, value: { seen: false, status: 'not_found' } };
}
function receivingRead(c: Case): Read<string> {
  if (c.timeouts.includes('apex')) return { ok: false };
  if (!c.regionReceives) return { ok: true, value: 'unsupported_region' };
  const ours = c.apexMx.filter((m) => m.host === 'service').map((m) => m.priority);
  if (ours.length === 0) return { ok: true, value: 'not_found' };
  const lowestOurs = Math.min(...ours);
  const beaten = c.apexMx.some((m) => m.host !== 'service' && m.priority <= lowestOurs);
  return { ok: true, value: beaten ? 'not_lowest_priority' : 'verified' };
}

interface Expected {
  http?: 503;
  unchanged?: boolean;
  wire?: Record<string, unknown>;
}

/**
 * Whether the check must leave everything as it was: a pending domain is checked on request only,
 * and a failed DKIM lookup (or an outage) decides nothing (a request then answers 503). Known
 * before the check, so the state is taken as text only where it is compared.
 */
function leavesUnchanged(c: Case, prev: any): boolean {
  return (prev.status === 'pending' && c.trigger === 'periodic') || c.outage || c.timeouts.includes('dkim');
}

/** What the check must leave, from the state before it (`prev`, as GET showed it). */
function reference(c: Case, prev: any, now: number, registeredAt: number): Expected {
  // A request here can only be a failed lookup: a pending domain is left alone by periodic checks only.
  if (leavesUnchanged(c, prev)) return c.trigger === 'request' ? { http: 503, unchanged: true } : { unchanged: true };
  const at = new Date(now).toISOString();
  const dkimFound = c.dkim.every((d) => d === 'correct' || d === 'spelled');
  const w: Record<string, unknown> = { ...prev, lastCheckedAt: at };
  if (dkimFound) Object.assign(w, { status: 'verified', verifiedAt: prev.verifiedAt ?? at, pendingExpiresAt: null });
  else if (prev.status === 'pending') w.pendingExpiresAt = new Date(now + 72 * HOUR_MS).toISOString();
  else w.status = 'failed';

  // MAIL FROM: starts at the first verification; a request restarts pending or failed detection.
  let mailFrom = prev.mailFromStatus as string | null;
  let since = registeredAt; // in these runs detection (re)starts only at registration time or now
  if ((mailFrom === null && w.status === 'verified') || (c.trigger === 'request' && (mailFrom === 'pending' || mailFrom === 'failed'))) {
    mailFrom = 'pending';
    since = now;
  }
  const bounceOk = !c.timeouts.includes('bounce');
  const bounce = distinct(c.bounceMx, (m) => `${m.host}/${m.priority}`);
  const spf = distinct(c.bounceTxt, (t) => t).filter((t) => t === 'spf' || t === 'spfElsewhere'); // quoted is no SPF record
  const bounceFound = bounce.length === 1 && bounce[0]!.host === 'service' && spf.length === 1 && spf[0] === 'spf';
  if (bounceOk && (mailFrom === 'pending' || mailFrom === 'verified')) {
    if (bounceFound) mailFrom = 'verified';
    else if (mailFrom === 'verified') mailFrom = 'pending';
    else if (now - since >= 72 * HOUR_MS) mailFrom = 'failed';
  }
  w.mailFromStatus = mailFrom;

  const dmarc = dmarcRead(c);
  let dmarcSuggested = prev.dnsRecords.some((r: any) => r.purpose === 'dmarc');
  if (dmarc.ok) {
    w.dmarcStatus = dmarc.value.status;
    dmarcSuggested = !dmarc.value.seen;
  }
  const receiving = receivingRead(c);
  if (prev.receivingEnabled && receiving.ok) Object.assign(w, { receivingStatus: receiving.value, receivingCheckedAt: at });

  const visible = ['status', 'verifiedAt', 'pendingExpiresAt', 'mailFromStatus', 'dmarcStatus', 'receivingStatus'];
  const prevSuggested = prev.dnsRecords.some((r: any) => r.purpose === 'dmarc');
  w.updatedAt = visible.some((k) => w[k] !== prev[k]) || dmarcSuggested !== prevSuggested ? at : prev.updatedAt;
  w.purposes = purposes(prev.receivingEnabled, dmarcSuggested);
  delete w.dnsRecords;
  return { wire: w };
}

function purposes(receiving: boolean, dmarc: boolean): string[] {
  return ['dkim', 'dkim', 'dkim', 'mail_from_mx', 'mail_from_spf', ...(dmarc ? ['dmarc'] : []), ...(receiving ? ['inbound'] : [])];
}

function plantCase(sim: Simulator, c: Case, d: any): void {
  const set = (name: string, records: unknown[]) => expect(send(sim, 'PUT', `/_sim/dns/records/${name}`, { records }).status).toBe(200);
  const dkim = d.dnsRecords.filter((r: any) => r.purpose === 'dkim');
  c.dkim.forEach((plant, i) => {
    const r = dkim[i];
    const value = { absent: null, correct: r.value, spelled: `${r.value.toUpperCase()}.`, wrong: 'selector.dkim.example.net' }[plant];
    set(r.name, value === null ? [] : [{ type: 'CNAME', value }]);
  });
  const host = (m: Mx, ours: string) => ({ service: ours, elsewhere: 'mx.example.net', otherRegion: ours.replace('ap-northeast-2', 'us-east-1') })[m.host];
  const txt = { spf: 'v=spf1 include:amazonses.com ~all', spfElsewhere: 'v=spf1 include:_spf.example.net -all', spfQuoted: '"v=spf1 include:amazonses.com ~all"', other: 'site-verification=abc' };
  set(`bounce.${DOMAIN}`, [
    ...c.bounceMx.map((m) => ({ type: 'MX', value: host(m, FEEDBACK), priority: m.priority })),
    ...c.bounceTxt.map((t) => ({ type: 'TXT', value: txt[t] })),
  ]);
  set(`_dmarc.${DOMAIN}`, c.dmarcOwn.map((t) => ({ type: 'TXT', value: renderDmarc(t) })));
  set(`_dmarc.${PARENT}`, c.dmarcParent.map((t) => ({ type: 'TXT', value: renderDmarc(t) })));
  set(DOMAIN, c.apexMx.map((m) => ({ type: 'MX', value: host(m, INBOUND), priority: m.priority })));
  const lookupName: Record<Lookup, string> = { dkim: dkim[1].name, bounce: `bounce.${DOMAIN}`, dmarcOwn: `_dmarc.${DOMAIN}`, dmarcParent: `_dmarc.${PARENT}`, apex: DOMAIN };
  for (const t of c.timeouts) send(sim, 'POST', '/_sim/dns/failures', { kind: 'timeout', name: lookupName[t] });
  if (c.outage) send(sim, 'POST', '/_sim/dns/failures', { kind: 'outage', domain: DOMAIN });
}

describe('zone -> statuses', () => {
  it('every generated zone gives exactly the statuses the rules say', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const sim = createSimulator();
        const base = `/v1/accounts/${ACME.accountId}/email-domains`;
        const registeredAt = Date.parse(sim.clock.now());
        const d = send(sim, 'POST', base, { domain: DOMAIN }).json;
        if (c.startVerified) {
          send(sim, 'POST', '/_sim/dns/plant', { emailDomainId: d.id, purposes: c.mailFromPlantedBefore ? ['dkim', 'mail_from_mx', 'mail_from_spf'] : ['dkim'] });
          expect(send(sim, 'POST', `${base}/${d.id}/verification`).json.status).toBe('verified');
          if (c.receivingOn) expect(send(sim, 'PATCH', `${base}/${d.id}`, { receivingEnabled: true }).status).toBe(200);
        }
        send(sim, 'PATCH', '/_sim/email-provider', { receivingRegions: c.regionReceives ? ['ap-northeast-2'] : ['eu-west-1'] });
        // The hours-1 checks before the one under test see the starting zone.
        send(sim, 'POST', '/_sim/clock/advance', { seconds: (c.hours - 1) * 3600 + 1800 });
        const prev = send(sim, 'GET', `${base}/${d.id}`).json;
        const before = leavesUnchanged(c, prev) ? JSON.stringify(sim.snapshot().models.emailDomains) : undefined;
        plantCase(sim, c, d);

        let answer: { status: number; json: any } | undefined;
        if (c.trigger === 'request') answer = send(sim, 'POST', `${base}/${d.id}/verification`);
        else send(sim, 'POST', '/_sim/clock/advance', { seconds: 1800 });
        const now = Date.parse(sim.clock.now());
        const after = send(sim, 'GET', `${base}/${d.id}`).json;
        expect(schemaErrors(EmailDomain, after)).toEqual([]);

        const expected = reference(c, prev, now, registeredAt);
        if (expected.http) {
          expect(answer!.status).toBe(503);
          expect(answer!.json.code).toBe('email_provider_unavailable');
        } else if (answer) {
          expect(answer.status).toBe(200);
          expect(answer.json).toEqual(after);
        }
        if (expected.unchanged) {
          expect(after).toEqual(prev);
          expect(JSON.stringify(sim.snapshot().models.emailDomains)).toBe(before);
          return;
        }
        const { dnsRecords, ...fields } = after;
        expect({ ...fields, purposes: dnsRecords.map((r: any) => r.purpose) }).toEqual(expected.wire);
      }),
      { numRuns: 400 },
    );
  });
});

// --- 2. no 5xx, refusals change nothing ---

const domainText = fc.oneof(
  fc.constantFrom('example.com', 'Example.COM.', 'mail.example.com', 'bücher.de', 'example.org', 'xn--bcher-kva.de'),
  fc.constantFrom('', ' ', 'a..b', 'x_y.com', 'user@example.com', '1.2.3', '-x.com', 'https://example.com', 'com', `${'a'.repeat(64)}.com`),
  fc.domain(),
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'grapheme', maxLength: 12 }).map((s) => `${s}.com`),
);
const account = fc.constantFrom(ACME, BISTRO);
const idRef = fc.oneof(fc.nat({ max: 5 }), fc.constantFrom('ed_000000000000000000000000', 'nope', '..', '%00'));
const dnsNameText = fc.oneof(fc.constantFrom('example.com', 'bounce.example.com', '_dmarc.example.com', 'mail.example.com', '_dmarc.com'), fc.domain(), fc.string({ maxLength: 20 }));
const recordArb = fc.record(
  {
    type: fc.constantFrom('CNAME', 'MX', 'TXT', 'A'),
    value: fc.oneof(fc.domain(), fc.string({ maxLength: 40 }), fc.constantFrom(FEEDBACK, INBOUND, 'v=DMARC1; p=reject', '"v=DMARC1; p=none"')),
    priority: fc.oneof(fc.integer({ min: -1, max: 70000 }), fc.constant(null)),
  },
  { requiredKeys: ['type', 'value'] },
);
const command = fc.oneof(
  fc.record({ op: fc.constant('register' as const), who: account, domain: domainText }),
  fc.record({ op: fc.constantFrom('verify' as const, 'get' as const, 'delete' as const), who: account, id: idRef }),
  fc.record({ op: fc.constant('patch' as const), who: account, id: idRef, body: fc.oneof(fc.record({ receivingEnabled: fc.boolean() }), fc.jsonValue({ maxDepth: 1 })) }),
  fc.record({ op: fc.constant('list' as const), who: account, query: fc.constantFrom('', '?pageSize=1', '?page=2', '?limit=0', '?pageSize=abc') }),
  fc.record({ op: fc.constant('advance' as const), seconds: fc.integer({ min: 0, max: 100 * 3600 }) }),
  fc.record({ op: fc.constant('dnsSet' as const), name: dnsNameText, records: fc.array(recordArb, { maxLength: 3 }) }),
  fc.record({ op: fc.constant('dnsRemove' as const), name: dnsNameText }),
  fc.record({ op: fc.constant('plant' as const), id: idRef, purposes: fc.option(fc.subarray(['dkim', 'mail_from_mx', 'mail_from_spf', 'dmarc', 'inbound', 'bogus'])) }),
  fc.record({ op: fc.constant('fail' as const), body: fc.record({ kind: fc.constantFrom('outage', 'timeout', 'flood'), domain: fc.option(dnsNameText, { nil: undefined }), name: fc.option(dnsNameText, { nil: undefined }) }, { requiredKeys: ['kind'] }) }),
  fc.record({ op: fc.constant('lift' as const) }),
  fc.record({ op: fc.constant('settings' as const), body: fc.record({ region: fc.constantFrom('us-east-1', 'ap-northeast-2', 'mars-1', ''), receivingRegions: fc.subarray(['us-east-1', 'ap-northeast-2', 'eu-west-1', 'x']) }, { requiredKeys: [] }) }),
);

describe('generated request sequences', () => {
  it('never give a 5xx (except 503 while a failure is scripted); refusals change nothing', () => {
    fc.assert(
      fc.property(fc.array(command, { minLength: 1, maxLength: 25 }), (commands) => {
        const sim = createSimulator();
        const ids: string[] = [];
        const pick = (ref: number | string) => (typeof ref === 'number' ? (ids[ref % Math.max(ids.length, 1)] ?? 'ed_none') : ref);
        const base = (who: typeof ACME) => `/v1/accounts/${who.accountId}/email-domains`;
        // The whole state as text before each command: after a refusal it is the same text (that
        // is what is checked), so it is taken again only after a command that was not refused.
        let state: string | undefined;
        for (const c of commands) {
          const before = (state ??= JSON.stringify(sim.snapshot()));
          let r: { status: number; json: any };
          switch (c.op) {
            case 'register':
              r = send(sim, 'POST', base(c.who), { domain: c.domain }, c.who.key);
              if (r.status === 201) ids.push(r.json.id);
              break;
            case 'verify':
              r = send(sim, 'POST', `${base(c.who)}/${encodeURIComponent(pick(c.id))}/verification`, undefined, c.who.key);
              break;
            case 'get':
              r = send(sim, 'GET', `${base(c.who)}/${encodeURIComponent(pick(c.id))}`, undefined, c.who.key);
              break;
            case 'delete':
              r = send(sim, 'DELETE', `${base(c.who)}/${encodeURIComponent(pick(c.id))}`, undefined, c.who.key);
              break;
            case 'patch':
              r = send(sim, 'PATCH', `${base(c.who)}/${encodeURIComponent(pick(c.id))}`, c.body, c.who.key);
              break;
            case 'list':
              r = send(sim, 'GET', `${base(c.who)}${c.query}`, undefined, c.who.key);
              break;
            case 'advance':
              r = send(sim, 'POST', '/_sim/clock/advance', { seconds: c.seconds });
              break;
            case 'dnsSet':
              r = send(sim, 'PUT', `/_sim/dns/records/${encodeURIComponent(c.name)}`, { records: c.records });
              break;
            case 'dnsRemove':
              r = send(sim, 'DELETE', `/_sim/dns/records/${encodeURIComponent(c.name)}`);
              break;
            case 'plant':
              r = send(sim, 'POST', '/_sim/dns/plant', { emailDomainId: pick(c.id), ...(c.purposes ? { purposes: c.purposes } : {}) });
              break;
            case 'fail':
              r = send(sim, 'POST', '/_sim/dns/failures', c.body);
              break;
            case 'lift':
              r = send(sim, 'DELETE', '/_sim/dns/failures');
              break;
            case 'settings':
              r = send(sim, 'PATCH', '/_sim/email-provider', c.body);
              break;
          }
          const scripted = runtimeOf(sim).dns.listFailures().length > 0;
          const allowed503 = r.status === 503 && r.json?.code === 'email_provider_unavailable' && scripted;
          expect(r.status < 500 || allowed503, `${JSON.stringify(c)} -> ${r.status} ${JSON.stringify(r.json)}`).toBe(true);
          if (r.status >= 400) {
            expect(typeof r.json.code).toBe('string');
            expect(JSON.stringify(sim.snapshot()), `${JSON.stringify(c)} changed state on ${r.status}`).toBe(before);
          } else state = undefined;
        }
        // Whatever happened: one registration per domain, and every stored domain reads back valid.
        const rows = runtimeOf(sim).emailDomains.snapshot().domains;
        expect(new Set(rows.map((d) => d.domain)).size).toBe(rows.length);
        for (const who of [ACME, BISTRO]) {
          for (const d of send(sim, 'GET', `${base(who)}?pageSize=100`, undefined, who.key).json.data) expect(schemaErrors(EmailDomain, d)).toEqual([]);
        }
      }),
    );
  });
});
