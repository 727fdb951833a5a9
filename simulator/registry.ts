// The composition root's reading of the list (resources/index.ts) and the kernel's part
// (kernel.ts): everything the simulator registers per entry, built once per process on first
// use (the operation table on its own first use: the first request or document). The operation
// table with each scoped operation's owner, the OpenAPI tags, the id formats,
// the capabilities, the declared events (the subscribable ones are the webhook enum), the carrier
// owners, the fixture's schema, checks and normalisers, the upgrade routes, and the order in
// which entries are built: derived from declared needs, refusing an unknown need or a cycle at
// start-up with the families named.
import type { TObject, TProperties } from '@sinclair/typebox';
import type { Operation, OperationExample } from './core/operation.ts';
import type { IdFormat } from './core/ids.ts';
import type { EventDecl } from './core/events.ts';
import { RESERVED_SCOPE_NAMES, type ListedNames } from './core/scope.ts';
import { fixtureSchema } from './fixture/schema.ts';
import type { Contribution, Entry, FixturePart, Operations, UpgradeRoute } from './resources/family.ts';
import { FAMILIES } from './resources/index.ts';
import { kernel } from './kernel.ts';

/**
 * Ports the runtime itself offers to needs by these keys: the whole event feed (every event that
 * is not internal, the webhook engine's intake) and live I/O helpers that keep no state (`liveClock`: the clock as live sockets need it).
 */
export const SERVICE_PORTS = ['eventFeed', 'egress', 'receiverPolicy', 'mcpServers', 'mcpRunner', 'liveClock'] as const;

export interface Registry {
  /** Public operations and pages in list order, then the control plane (the fixed contract first), then the documents. */
  operations: readonly Operation[];
  /** Every OpenAPI tag with its description. */
  tags: Readonly<Record<string, string>>;
  /** Every id format by kind; no two kinds share a prefix. */
  idFormats: Readonly<Record<string, IdFormat>>;
  /** What /_sim/health lists: the kernel's words, then each entry's in list order. */
  capabilities: readonly string[];
  /** Names schemas of the whole list enumerate (subscribable events, carrier owners). */
  listed: ListedNames;
  /** Subscribable webhook events the families emit (or that the public document names for families to come), in list order. */
  events: readonly string[];
  /** Who hands deliveries to the carrier, in list order. */
  carrierOwners: readonly string[];
  /** Every declared event by name, with its owner's key. */
  eventDecls: ReadonlyMap<string, EventDecl & { owner: string }>;
  /** The top-level fixture sections, each read by one entry: the kernel's, then in list order. */
  fixtureSections: readonly string[];
  /** The fixture's schema, from those sections and the per-account fields. */
  fixtureSchema: TObject;
  /** The kernel's and the entries' fixture parts, in that order (checks and normalisers). */
  fixtureParts: readonly FixturePart[];
  /** Upgrade (WebSocket) routes, each with its owner's key. */
  upgrades: readonly (UpgradeRoute & { owner: string })[];
  /** The scripts of the inspector's sections the entries contribute, in list order. */
  inspectorSections: readonly string[];
  /** The entries in list order: the snapshot's key order and the fixture's loading order. */
  entries: readonly Entry[];
  /** The order entries are built in: each after what it needs, otherwise in list order. */
  constructionOrder: readonly Entry[];
}

let built: Registry | undefined;

export function registry(): Registry {
  return (built ??= build(FAMILIES));
}

/** Builds the registry of any list (tests build broken ones to see the refusals). */
export function build(families: readonly Entry[]): Registry {
  const k = kernel();
  const all: readonly Contribution<string>[] = [k, ...families];
  const declared = all.flatMap((c) => Object.entries(c.events ?? {}));
  // Names first: schemas that enumerate them are built by factories that receive them.
  const listed: ListedNames = {
    events: unique('webhook event', declared.filter(([, d]) => d.subscribable).map(([n]) => n)),
    carrierOwners: unique('carrier owner', all.flatMap((c) => c.carrierOwners ?? [])),
  };
  const eventDecls = new Map<string, EventDecl & { owner: string }>();
  for (const f of families) {
    for (const [name, decl] of Object.entries(f.events ?? {})) {
      if (eventDecls.has(name)) throw new Error(`event "${name}" is declared by two families (${eventDecls.get(name)!.owner}, ${f.key})`);
      eventDecls.set(name, { ...decl, owner: f.key });
    }
  }
  const tags = merge('tag', all.map((c) => c.tags ?? {}));
  // Each entry's request examples (its examples.ts) join the operations they name.
  const examples = merge('examples of operation', all.map((c) => c.examples ?? {}));
  let operations: readonly Operation[] | undefined;
  const fixtureParts = all.map((c) => c.fixture ?? {});
  const sections = merge('fixture section', fixtureParts.map((p) => p.sections ?? {})) as TProperties;
  const accountFields = merge('account fixture field', fixtureParts.map((p) => p.accountFields ?? {})) as TProperties;
  const idFormats = merge('id kind', all.map((c) => c.idFormats ?? {}));
  const prefixes = Object.values(idFormats).map((f) => f.prefix);
  if (new Set(prefixes).size !== prefixes.length) throw new Error(`two id kinds share a prefix: ${prefixes.join(', ')}`);
  return {
    // Built on first use (the router at the first request, the OpenAPI document), not by
    // createSimulator(): the operation factories build their schemas then (decisions.md, start-up).
    get operations() {
      return (operations ??= operationsOf(k, families, listed, tags, examples));
    },
    tags,
    idFormats,
    capabilities: unique('capability', all.flatMap((c) => c.capabilities ?? [])),
    listed,
    ...listed,
    eventDecls,
    fixtureSections: Object.keys(sections),
    fixtureSchema: fixtureSchema(sections, accountFields),
    fixtureParts,
    upgrades: families.flatMap((f) => (f.upgrades ?? []).map((u) => ({ ...u, owner: f.key }))),
    inspectorSections: families.flatMap((f) => f.inspectorSections ?? []),
    entries: families,
    constructionOrder: constructionOrder(families),
  };
}

/**
 * The operation table: public operations and pages in list order, then the control plane (the
 * fixed contract first), then the documents; each scoped one with its owner and its examples.
 * Throws on an example naming no operation and on a tag no descriptor describes.
 */
function operationsOf(k: Contribution<string>, families: readonly Entry[], listed: ListedNames, tags: Readonly<Record<string, string>>, examples: Readonly<Record<string, readonly OperationExample[]>>): Operation[] {
  const ops = (o: Operations | undefined, owner?: string) => {
    const list = typeof o === 'function' ? o(listed) : (o ?? []);
    return owner === undefined ? list : list.map((op) => ({ ...op, owner }));
  };
  const operations = [
    ...families.flatMap((f) => [...ops(f.operations, f.key), ...ops(f.pages, f.key)]),
    ...ops(k.control),
    ...families.flatMap((f) => ops(f.control, f.key)),
    ...ops(k.operations),
  ].map((op) => (examples[op.operationId] ? { ...op, examples: [...(op.examples ?? []), ...examples[op.operationId]!] } : op));
  const ids = new Set(operations.map((op) => op.operationId)); // scanning the list for each example was about 0.3 ms of the first request
  const unknown = Object.keys(examples).filter((id) => !ids.has(id));
  if (unknown.length > 0) throw new Error(`examples name no operation: ${unknown.join(', ')}`);
  for (const op of operations) {
    if (!(op.tag in tags)) throw new Error(`operation ${op.operationId}: tag "${op.tag}" has no description in any family descriptor`);
  }
  return operations;
}

/**
 * The list in the order its entries can be built: each after the entries it needs, and otherwise
 * in list order. Throws, naming the families, on a need no entry offers or on a cycle of needs.
 */
export function constructionOrder(families: readonly Entry[]): Entry[] {
  const keys = new Set(families.map((f) => f.key));
  for (const f of families) {
    if ((RESERVED_SCOPE_NAMES as readonly string[]).includes(f.key)) throw new Error(`family key "${f.key}" is a name every scope uses for itself; choose another`);
  }
  if (keys.size !== families.length) throw new Error(`two entries of the list share a key: ${families.map((f) => f.key).join(', ')}`);
  const needsOf = new Map<string, string[]>();
  /** Each key no entry offers, with every family that needs it (a family removed from the list names those that still need it). */
  const unmet = new Map<string, string[]>();
  families.forEach((f) => {
    const needs = Object.keys(f.needs).filter((n) => !(SERVICE_PORTS as readonly string[]).includes(n));
    for (const n of needs.filter((k) => !keys.has(k))) unmet.set(n, [...(unmet.get(n) ?? []), f.key]);
    needsOf.set(f.key, needs);
  });
  if (unmet.size > 0) {
    const lines = [...unmet].map(([key, by]) => (by.length === 1 ? `family ${by[0]} needs ${key}` : `families ${by.join(', ')} need ${key}`));
    throw new Error(`${lines.join('; ')}, which no entry of the list offers`);
  }
  const order: Entry[] = [];
  const done = new Set<string>();
  while (order.length < families.length) {
    const next = families.find((f) => !done.has(f.key) && needsOf.get(f.key)!.every((n) => done.has(n)));
    if (!next) throw new Error(`the families' needs form a cycle: ${cycle(families.filter((f) => !done.has(f.key)), needsOf).join(' -> ')}`);
    order.push(next);
    done.add(next.key);
  }
  return order;
}

/** One cycle among entries none of which can be built: follow unmet needs until a key repeats. */
function cycle(stuck: readonly Entry[], needsOf: ReadonlyMap<string, string[]>): string[] {
  const waiting = new Set(stuck.map((f) => f.key));
  const path: string[] = [stuck[0]!.key];
  for (;;) {
    const next = needsOf.get(path[path.length - 1]!)!.find((n) => waiting.has(n))!;
    const seen = path.indexOf(next);
    if (seen >= 0) return [...path.slice(seen), next];
    path.push(next);
  }
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
