// THE list of resource families and peers, in construction and snapshot order (a model may use
// those listed before it; the order of the snapshot's keys is this order). Everything the
// simulator registers per family is read from here: the runtime's models and snapshot keys,
// the operation table, the OpenAPI tags, the id formats, the reference kinds, the webhook
// events, the capabilities, the carrier's owners and the fixture sections.
// Adding a family: its folder with an index.ts descriptor, and one line in FAMILIES.
import type { Operation } from '../core/operation.ts';
import type { IdFormat } from '../core/ids.ts';
import type { TObject, TProperties } from '@sinclair/typebox';
import { fixtureSchema } from '../fixture/schema.ts';
import { kernel } from '../kernel.ts';
import type { Contribution, ListedNames, Operations } from './family.ts';
import { accounts } from './accounts/index.ts';
import { numbers } from './numbers/index.ts';
import { blockLists } from './blocklists/index.ts';
import { emailDomains } from './email-domains/index.ts';
import { geoip, dns, imageHost, messenger, carrier, webhookEngine, kyc } from '../peers/index.ts';
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
import { mcpConnections } from './mcp-connections/index.ts';
import { mcpApps } from './mcp-apps/index.ts';
import { recordings } from './recordings/index.ts';
import { callBatches } from './call-batches/index.ts';

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
  mcpConnections,
  mcpApps, // after usage: get_usage reads it
  recordings, // after calls (its hook and callflow.ended), usage and the webhook engine
  callBatches, // after calls, call flows and messages, which its ports use
] as const;

type Entry = (typeof FAMILIES)[number];

/** The models, typed: `rt.numbers` is a NumbersModel (Runtime extends this). */
export type FamilyModels = { readonly [F in Entry as F['key']]: ReturnType<F['create']> };

/** Kinds of cross-family reference (core/refs.ts), from the families' `refKinds`. */
export type RefKind = Entry extends { refKinds?: readonly (infer R)[] } ? R : never;

/** Everything generated from the list (built on first use: see kernel.ts). */
export interface Registry {
  /** Public operations in list order, then the control plane (the fixed contract first), then the documents. */
  operations: readonly Operation[];
  /** Every OpenAPI tag with its description. */
  tags: Readonly<Record<string, string>>;
  /** Every id format by kind; no two kinds share a prefix. */
  idFormats: Readonly<Record<string, IdFormat>>;
  /** What /_sim/health lists: the kernel's words, then each entry's in list order. */
  capabilities: readonly string[];
  /** Subscribable webhook events the families emit (or that the public document names for families to come), in list order. */
  events: readonly string[];
  /** Who hands deliveries to the carrier, in list order. */
  carrierOwners: readonly string[];
  /** The top-level fixture sections, each read by one entry: the kernel's, then in list order. */
  fixtureSections: readonly string[];
  /** The fixture's schema, from those sections (fixture/load.ts validates with it). */
  fixtureSchema: TObject;
}

let built: Registry | undefined;

export function registry(): Registry {
  return (built ??= build());
}

function build(): Registry {
  const k = kernel();
  const all: readonly Contribution<string>[] = [k, ...FAMILIES];
  // Names first: schemas that enumerate them are built by factories that receive them.
  const names: ListedNames = {
    events: unique('webhook event', all.flatMap((c) => c.events ?? [])),
    carrierOwners: unique('carrier owner', all.flatMap((c) => c.carrierOwners ?? [])),
  };
  const ops = (o: Operations | undefined) => (typeof o === 'function' ? o(names) : (o ?? []));
  const families: readonly Contribution<string>[] = FAMILIES;
  const examples = merge('examples of operation', all.map((c) => c.examples ?? {}));
  const operations = [
    ...families.flatMap((f) => ops(f.operations)),
    ...ops(k.control),
    ...families.flatMap((f) => ops(f.control)),
    ...ops(k.operations),
  ].map((op) => (examples[op.operationId] ? { ...op, examples: [...(op.examples ?? []), ...examples[op.operationId]!] } : op));
  const unknown = Object.keys(examples).filter((id) => !operations.some((op) => op.operationId === id));
  if (unknown.length > 0) throw new Error(`examples name no operation: ${unknown.join(', ')}`);
  const fixtureSections = merge('fixture section', all.map((c) => c.fixture ?? {})) as TProperties;
  const tags = merge('tag', all.map((c) => c.tags ?? {}));
  for (const op of operations) {
    if (!(op.tag in tags)) throw new Error(`operation ${op.operationId}: tag "${op.tag}" has no description in any family descriptor`);
  }
  const idFormats = merge('id kind', all.map((c) => c.idFormats ?? {}));
  const prefixes = Object.values(idFormats).map((f) => f.prefix);
  if (new Set(prefixes).size !== prefixes.length) throw new Error(`two id kinds share a prefix: ${prefixes.join(', ')}`);
  const r: Registry = {
    operations,
    tags,
    idFormats,
    capabilities: unique('capability', all.flatMap((c) => c.capabilities ?? [])),
    ...names,
    fixtureSections: Object.keys(fixtureSections),
    fixtureSchema: fixtureSchema(fixtureSections),
  };
  return r;
}

function merge<T>(what: string, parts: readonly Readonly<Record<string, T>>[]): Record<string, T> {
  const out: Record<string, T> = {};
  for (const part of parts) {
    for (const [k, v] of Object.entries(part)) {
      if (k in out) throw new Error(`${what} "${k}" is declared by two family descriptors`);
      out[k] = v;
    }
  }
  return out;
}

function unique<T extends string>(what: string, names: readonly T[]): T[] {
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup !== undefined) throw new Error(`${what} "${dup}" is declared by two family descriptors`);
  return [...names];
}
