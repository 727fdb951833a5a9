// The house contract: what one entry of the list (a resource family, a peer, the kernel)
// declares in its index.ts, and all the registry (registry.ts) reads to build the simulator. A
// family behind its door is made with `defineFamily`: the ports it NEEDS (interfaces declared in
// its own folder, by the key of the entry that offers them), the model built from its scope, what
// it OFFERS others (the model unless `offers` says otherwise), its operations, its /_sim routes
// (its control.ts), its pages, its events and clock jobs with their schemas, its fixture part,
// its snapshot part and its upgrade routes. `Family` is the older shape, built from the whole
// runtime; it stays while the last families move (docs/contributing.md, "Adding or migrating a
// family").
import type { TProperties } from '@sinclair/typebox';
import type { Operation, SimRequest } from '../core/operation.ts';
import type { UpgradeAnswer } from '../core/live-socket.ts';
import type { IdFormat } from '../core/ids.ts';
import type { EventDecls } from '../core/events.ts';
import type { JobDecls, ListedNames, ModelScope, NeedSpec } from '../core/scope.ts';
import type { StatePart } from '../core/table-state.ts';
import type { Fixture, FixtureChecks } from '../fixture/schema.ts';

export type { FixtureFail } from '../fixture/schema.ts';

export type { ListedNames } from '../core/scope.ts';

/** What a model built from the whole runtime offers it: load seed data, save and restore state. */
export interface StatefulModel {
  loadFixture?(f: Fixture): void;
  clear?(): void;
  snapshot(): unknown;
  restore(state: unknown): void;
}

/** Operations, or a factory of them when their schemas enumerate names of the whole list. */
export type Operations = readonly Operation[] | ((names: ListedNames) => readonly Operation[]);

/** An entry's part of the fixture format (docs/fixtures.md): its schema, cross-checks and loading. */
export interface FixturePart<M = unknown> extends FixtureChecks {
  /** Top-level sections: name -> schema (`Type.Optional` when a fixture may leave it out). Their type joins `Fixture` by declaration merging. */
  sections?: TProperties;
  /** Fields each entry of `accounts` may carry (seed data kept per account). Their type joins `AccountFixture` by declaration merging. */
  accountFields?: TProperties;
  /** Loads the seed data into a cleared model (reset and start-up, in list order). */
  load?(model: M, fixture: Fixture): void;
}

/**
 * A WebSocket endpoint an entry serves (the Agent SDK's control and media sockets). server.ts
 * stays an adapter: on an upgrade request to `path` (a path template, GET) the pipeline brings
 * the clock up to date and asks `upgrade` with the entry's scope, which refuses with an HTTP
 * answer or accepts with the session that owns the socket (core/live-socket.ts); no library
 * type reaches the family.
 */
export interface UpgradeRoute<S = any> {
  /** A path template as operations write them (`/v1/agent/media/{callId}`). */
  path: string;
  summary: string;
  upgrade(scope: S, request: SimRequest, params: Record<string, string>, query: URLSearchParams): UpgradeAnswer;
}

/** The parts every entry of the list may contribute; all optional. */
export interface Contribution<Refs extends string = never> {
  /** Public operations, in the order they are routed and documented. */
  operations?: Operations;
  /** Control-plane operations under /_sim (tag "Control plane"), from its control.ts; documented in docs/control-plane.md. */
  control?: Operations;
  /** HTML pages a person opens, served after its operations (their tag, e.g. "Issuing pages"). */
  pages?: Operations;
  /** Every OpenAPI tag its operations use, with the tag's description. */
  tags?: Readonly<Record<string, string>>;
  /** Id formats of its rows (the models use them through their schema.ts constant). */
  idFormats?: Readonly<Record<string, IdFormat>>;
  /** Reference kinds it answers (`refs.register`), or checks before their family exists. */
  refKinds?: readonly Refs[];
  /** Events it emits, each with its payload's schema (its events.ts); `subscribable` ones join the webhook event enum. */
  events?: EventDecls;
  /** Capability words its control routes add to /_sim/health. */
  capabilities?: readonly string[];
  /** Owner names it hands deliveries to the carrier under (`carrier.onOutcome`). */
  carrierOwners?: readonly string[];
  /** Its part of the fixture format. */
  fixture?: FixturePart<any>;
  /** Upgrade (WebSocket) endpoints it serves. */
  upgrades?: readonly UpgradeRoute[];
}

/** A family behind its door: built from its scope, wired by its declared needs. */
export interface HouseFamily<
  Key extends string = string,
  Model = unknown,
  N extends NeedSpec = NeedSpec,
  E extends EventDecls = EventDecls,
  J extends JobDecls = JobDecls,
  Refs extends string = never,
  Offer = Model,
> extends Contribution<Refs> {
  /** Its name in the list, in snapshots (unless `snapshotKey`) and in other families' needs. */
  key: Key;
  /** Its part's key in a snapshot; defaults to `key`. */
  snapshotKey?: string;
  /** The ports it needs, by the key of the entry that offers each: `{ accounts: port<AccountCheck>() }` (may be `{}`). */
  needs: N;
  events?: E;
  /** Its clock job kinds, each with its payload's schema. */
  jobs?: J;
  /** Builds the model from its scope; the entries it needs are built first. */
  create(scope: ModelScope<N, E, J>): Model;
  /** What other entries' needs on its key receive; default the model itself. */
  offers?(model: Model): Offer;
  /** Its part of a snapshot; none: it keeps no state (not in snapshots). */
  state?: StatePart<Model>;
  fixture?: FixturePart<Model>;
}

/** Declares a family behind its door (types inferred: its needs, events, jobs and model). */
export function defineFamily<
  const Key extends string,
  Model,
  const N extends NeedSpec = {},
  const E extends EventDecls = {},
  const J extends JobDecls = {},
  Refs extends string = never,
  Offer = Model,
>(family: HouseFamily<Key, Model, N, E, J, Refs, Offer>): HouseFamily<Key, Model, N, E, J, Refs, Offer> {
  return family;
}

/**
 * The whole runtime, as older families' `create` receives it. Empty here so that the contract
 * imports nothing above it; runtime.ts fills it in by declaration merging.
 */
export interface WholeRuntime {}

/** A family not yet behind its door: built from the whole runtime, in list order. */
export interface Family<Key extends string = string, Model extends StatefulModel = StatefulModel, Refs extends string = never> extends Contribution<Refs> {
  /** The model's field on the runtime: `rt.<key>`. */
  key: Key;
  /** Its state's key in a snapshot; defaults to `key`. */
  snapshotKey?: string;
  /** Builds the model. Models listed before it already exist. */
  create(rt: WholeRuntime): Model;
}

/** Either shape, as the registry reads the list. */
export type Entry = HouseFamily<string, any, NeedSpec, EventDecls, JobDecls, string, any> | Family<string, StatefulModel, string>;

/** Whether an entry is behind its door (built from its scope, wired by its needs). */
export function isHouseFamily(entry: Entry): entry is HouseFamily<string, any, NeedSpec, EventDecls, JobDecls, string, any> {
  return 'needs' in entry;
}
