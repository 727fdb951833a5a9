// What a resource family (or a peer, or the kernel) contributes to the simulator. Each family
// exports one descriptor from resources/<name>/index.ts; resources/index.ts lists them, and the
// runtime, the operation table, the OpenAPI tags, the id formats, the reference kinds, the
// webhook events, the capabilities and the carrier's owners are all read from that list.
import type { Operation, OperationExample } from '../core/operation.ts';
import type { IdFormat } from '../core/ids.ts';
import type { TProperties } from '@sinclair/typebox';
import type { Fixture } from '../fixture/schema.ts';
import type { Runtime } from '../runtime.ts';

/** What every model offers the runtime: load seed data, save and restore state. */
export interface StatefulModel {
  loadFixture?(f: Fixture): void;
  clear?(): void;
  snapshot(): unknown;
  restore(state: unknown): void;
}

/**
 * Names the whole list declares, known only once the list is built. Schemas that enumerate them
 * (the webhook event enum, the carrier's owners) are built by factories that receive them.
 */
export interface ListedNames {
  /** Subscribable webhook events, in list order. */
  readonly events: readonly string[];
  /** Carrier owners, in list order. */
  readonly carrierOwners: readonly string[];
}

/** Operations, or a factory of them when their schemas enumerate names of the whole list. */
export type Operations = readonly Operation[] | ((names: ListedNames) => readonly Operation[]);

/** The parts every entry of the list may contribute; all optional. */
export interface Contribution<Refs extends string = never> {
  /** Public operations, in the order they are routed and documented. */
  operations?: Operations;
  /** Control-plane operations under /_sim (tag "Control plane"), documented in docs/control-plane.md. */
  control?: Operations;
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
  /** Reference kinds it answers (`rt.refs.register`), or checks before their family exists. */
  refKinds?: readonly Refs[];
  /** Webhook events it emits that accounts can subscribe to. */
  events?: readonly string[];
  /** Capability words its control routes add to /_sim/health. */
  capabilities?: readonly string[];
  /** Owner names it hands deliveries to the carrier under (`rt.carrier.onOutcome`). */
  carrierOwners?: readonly string[];
  /**
   * Top-level fixture sections it reads in `loadFixture`: name → schema (`Type.Optional` when a
   * fixture may leave it out). Its folder also adds them to the `Fixture` type by declaration
   * merging (`interface Fixture extends FixtureSection<typeof sections> {}`, fixture/schema.ts).
   */
  fixture?: TProperties;
}

/** A family with a model: the runtime builds it once, in list order, and snapshots it. */
export interface Family<Key extends string = string, Model extends StatefulModel = StatefulModel, Refs extends string = never>
  extends Contribution<Refs> {
  /** The model's field on the runtime: `rt.<key>`. */
  key: Key;
  /** Its state's key in a snapshot; defaults to `key`. */
  snapshotKey?: string;
  /** Builds the model. Models listed before it already exist. */
  create(rt: Runtime): Model;
}
