// THE list of resource families and peers: the order of the snapshot's keys, of loading the
// fixture and of the documented operations. Everything the simulator registers per entry is
// read from it by the registry (registry.ts); the order models are built in comes from the
// needs each family declares. Adding a family: its folder with an index.ts descriptor, and one
// line in FAMILIES. The types below give the runtime its typed fields and check, at compile
// time, that every declared need is met by what the entry of that key offers.
import type { EgressGuard } from '../peers/egress.ts';
import type { ReceiverPolicy } from '../peers/webhooks/receiver-policy.ts';
import type { FakeMcpServers } from '../peers/mcp/fake-servers.ts';
import type { McpRunner } from '../peers/mcp/runner.ts';
import type { NeedSpec, PortsOf } from '../core/scope.ts';
import type { LiveClock } from '../core/live-clock.ts';
import type { DomainEvents } from '../core/events.ts';
import { accounts } from './accounts/index.ts';
import { numbers } from './numbers/index.ts';
import { blockLists } from './blocklists/index.ts';
import { emailDomains } from './email-domains/index.ts';
// One line per peer, each its own folder (peers/<name>/index.ts).
import { geoip } from '../peers/geoip/index.ts';
import { imageHost } from '../peers/image-host/index.ts';
import { messenger } from '../peers/messenger/index.ts';
import { carrier } from '../peers/carrier/index.ts';
import { webhookEngine } from '../peers/webhooks/index.ts';
import { kyc } from '../peers/kyc/index.ts';
import { dns } from '../peers/dns/index.ts';
import { usage } from './usage/index.ts';
import { messages } from './messages/index.ts';
import { verifications } from './verifications/index.ts';
import { kakaoChannels } from './kakao-channels/index.ts';
import { webhooks } from './webhooks/index.ts';
import { sipEndpoints } from './sip-endpoints/index.ts';
import { sipAuth } from './sip-auth/index.ts';
import { callFlows } from './call-flows/index.ts';
import { calls } from './calls/index.ts';
import { assignmentLinks } from './assignment-links/index.ts';
import { mcp } from '../peers/mcp/index.ts';
import { mcpConnections } from './mcp-connections/index.ts';
import { mcpApps } from './mcp-apps/index.ts';
import { recordings } from './recordings/index.ts';
import { callBatches } from './call-batches/index.ts';
import { voiceClones } from './voice-clones/index.ts';
import { dictionaries } from './dictionaries/index.ts';
import { agents } from './agents/index.ts';
import { agentSdk } from './agent-sdk/index.ts';

export const FAMILIES = [
  accounts,
  numbers,
  blockLists,
  emailDomains,
  geoip,
  dns,
  imageHost,
  messenger,
  carrier, // before messages and verifications: they register for its outcomes
  usage, // before the families that register their usage entries with it
  messages,
  verifications,
  kakaoChannels,
  webhooks,
  webhookEngine,
  sipEndpoints,
  sipAuth,
  callFlows, // after numbers: phoneNumbers reads their routing
  calls, // after call flows (its flow port), messages, block lists, usage and the webhook engine (status callbacks)
  kyc,
  assignmentLinks, // after accounts, numbers and kyc, which its ports use
  mcp, // the MCP peers' routes, just before the connections that test against them
  mcpConnections,
  mcpApps, // after usage: get_usage reads it
  recordings, // after calls (its hook and callflow.ended), usage and the webhook engine
  callBatches, // after calls, call flows and messages, which its ports use
  voiceClones,
  dictionaries, // after numbers (a deleted dictionary's numbers fall back to the default)
  agents, // after numbers, MCP connections and voice clones, which its ports read
  agentSdk, // after accounts, numbers and calls (call handlers), which its ports use
] as const;

type Entry = (typeof FAMILIES)[number];

/** The models, typed: `rt.numbers` is a NumbersModel (Runtime extends this). */
export type FamilyModels = { readonly [F in Entry as F['key']]: ReturnType<F['create']> };

/** Kinds of cross-family reference (core/refs.ts), from the families' `refKinds`. */
export type RefKind = Entry extends { refKinds?: readonly (infer R)[] } ? R : never;

/** What each key offers to the needs of others: an entry's `offers` (default its model), and the runtime's event feed and live I/O helpers. */
type Offered = { [F in Entry as F['key']]: F extends { needs: NeedSpec; offers?(model: never): infer O } ? O : ReturnType<F['create']> } & {
  eventFeed: DomainEvents;
  egress: EgressGuard;
  receiverPolicy: ReceiverPolicy;
  mcpServers: FakeMcpServers;
  mcpRunner: McpRunner;
  liveClock: LiveClock;
};

type NeedsOf<F> = F extends { needs: infer N extends NeedSpec } ? PortsOf<N> : {};

/** The needs of one entry that its provider does not meet (no such key, or an offer without what the port declares). */
type Unmet<F> = { [K in keyof NeedsOf<F>]: K extends keyof Offered ? (Offered[K] extends NeedsOf<F>[K] ? never : K) : K }[keyof NeedsOf<F>];

/** Entries with unmet needs, each with the keys it cannot get: empty when the list is wired. */
type Miswired = { [F in Entry as [Unmet<F>] extends [never] ? never : F['key']]: `needs ${Unmet<F> & string}, which its provider does not offer` };

/** Fails to compile when a need is unmet, naming the family and the port: "'{}' is missing ... { blockLists: "needs accounts, ..." }". */
export const WIRED: { [K in keyof Miswired]: Miswired[K] } = {};
