// The house contract: what one entry of the list (a resource family, a peer, the kernel)
// declares in its index.ts, and all the registry (registry.ts) reads to build the simulator. A
// family behind its door is made with `defineFamily`: the ports it NEEDS (interfaces declared in
// its own folder, by the key of the entry that offers them), the model built from its scope, what
// it OFFERS others (the model unless `offers` says otherwise), its operations, its /_sim routes
// (its control.ts), its pages, its events and clock jobs with their schemas, its fixture part,
// its snapshot part, its upgrade routes and its sections of the inspector (docs/contributing.md,
// "Adding or migrating a family").
import type { TProperties } from '@sinclair/typebox';
import type { Operation, OperationExample, SimRequest } from '../core/operation.ts';
import type { UpgradeAnswer } from '../core/live-socket.ts';
import type { IdFormat } from '../core/ids.ts';
import type { EventDecls } from '../core/events.ts';
import type { JobDecls, ListedNames, ModelScope, NeedSpec } from '../core/scope.ts';
import type { StatePart } from '../core/table-state.ts';
import type { Fixture, FixtureChecks } from '../fixture/schema.ts';

export type { FixtureFail } from '../fixture/schema.ts';

export type { ListedNames } from '../core/scope.ts';

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
  /** Whether `load` puts anything in the model for this fixture; a model built on first use (`wire`) is built at loading only then (default: yes). */
  holds?(fixture: Fixture): boolean;
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
  /**
   * Request examples of its operations by operationId (its `examples.ts`), shown in the OpenAPI
   * document. Sent in document order against the default fixture, each succeeds, so an example
   * may name what an earlier one created (ids are deterministic).
   */
  examples?: Readonly<Record<string, readonly OperationExample[]>>;
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
  /**
   * Scripts the inspector's page runs before its own (ES5, inline): each adds a section the
   * inspector's views show (`window.inspectorSections.<name>`), so the inspector names no family.
   */
  inspectorSections?: readonly string[];
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
  /**
   * Set: the model is built on its first use, not with the runtime (docs/decisions.md "Models
   * built on first use"), so a family nobody uses costs nothing at start. `wire` runs instead of
   * `create` when the runtime is built, in construction order, and makes every registration with
   * others (call handlers, ref kinds, dialers, audio sources) through `model()`, which builds the
   * model on its first call. A reference to the model (its field, its scope, a need on it), a
   * snapshot, a restore or a fixture that `holds` data for it builds it too. `ifBuilt()`: the
   * model if it is built, without building it (a watcher with nothing to do before).
   */
  wire?(scope: ModelScope<N, E, J>, model: () => Model, ifBuilt: () => Model | undefined): void;
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

/** An entry of the list, as the registry reads it. */
export type Entry = HouseFamily<string, any, NeedSpec, EventDecls, JobDecls, string, any>;
