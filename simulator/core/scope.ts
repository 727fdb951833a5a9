// What a family's code sees: its scope. The registry builds one per family from the family's
// declarations: the kernel's parts (clock, seeded random and its seed, references, I/O barrier, the names the
// whole list declares), the ports it NEEDS (each one's type is an interface declared in the
// family's own folder, its value whatever the entry of that key offers), its events (emit its
// own, listen to any declared one) and its clock jobs (typed by their schemas). The model is
// built from this scope; the family's route handlers get the same scope plus the model under
// the family's key. Nothing in a scope reaches a model the family did not declare.
import type { Static, TSchema } from '@sinclair/typebox';
import type { Job, VirtualClock } from './clock.ts';
import type { SeededRandom } from './random.ts';
import type { References } from './refs.ts';
import type { IoBarrier } from './io.ts';
import type { DomainEvent, EventCatalogue, EventDecls, EventName } from './events.ts';

/** A port the family needs, by the key of the entry that offers it: `{ accounts: port<AccountCheck>() }`. */
export interface Port<T> {
  /** Never set: the port's type travels in the declaration only. */
  readonly type?: T;
}

/** Declares a needed port; the value is a marker, the type parameter is the interface the family uses. */
export function port<T>(): Port<T> {
  return {};
}

/** A family's needs: provider key -> port. The registry builds providers first and refuses a cycle. */
export type NeedSpec = Readonly<Record<string, Port<unknown>>>;

/** The ports a family's scope holds, typed as the family declared them. */
export type PortsOf<N extends NeedSpec> = { readonly [K in keyof N]: N[K] extends Port<infer T> ? T : never };

/** Clock job kinds a family schedules, each with its payload's schema (a snapshot's job is checked against it). */
export type JobDecls = Readonly<Record<string, TSchema>>;

/** Names only the whole list knows, handed to every scope (schemas that enumerate them are built from these). */
export interface ListedNames {
  /** Subscribable webhook events, in list order. */
  readonly events: readonly string[];
  /** Carrier owners, in list order. */
  readonly carrierOwners: readonly string[];
}

/** The kernel's parts every scope has. `random` and `seed` are read through the scope each time: a reset replaces them. */
export interface KernelParts {
  readonly clock: VirtualClock;
  readonly random: SeededRandom;
  /** The seed the simulator runs with now (what is derived from it alone, such as default signing keys). */
  readonly seed: number;
  readonly refs: References<string>;
  readonly io: IoBarrier;
  readonly listed: ListedNames;
}

/** Events as a family sees them: it emits its own declared events, and listens to any declared event. */
export interface ScopeEvents<E extends EventDecls> {
  /** Announces one of the family's own events; `at` defaults to now. */
  emit<K extends keyof E & string>(type: K, event: { accountId: string; resourceId: string; payload: Static<E[K]['payload']>; at?: number }): void;
  /** Hears every event of a declared type, after the listeners that came before (construction order). */
  on<K extends EventName>(type: K, listener: (event: DomainEvent<EventCatalogue[K]>) => void): () => void;
}

/** Clock jobs as a family sees them: only its declared kinds, with their payload types. */
export interface ScopeJobs<J extends JobDecls> {
  /** The handler of one kind (once, in the model's constructor); snapshots' jobs of the kind are checked against its schema. */
  on<K extends keyof J & string>(kind: K, handler: (payload: Static<J[K]>, job: Job) => void): void;
  /** Schedules at an absolute instant; returns the job id. */
  schedule<K extends keyof J & string>(kind: K, due: number, payload: Static<J[K]>): number;
  cancel(jobId: number): void;
}

/** The scope a family's model is built from. */
export type ModelScope<N extends NeedSpec = {}, E extends EventDecls = {}, J extends JobDecls = {}> = KernelParts &
  PortsOf<N> & {
    readonly events: ScopeEvents<E>;
    readonly jobs: ScopeJobs<J>;
  };

/** The scope a family's route handlers see: the model's scope plus the model under the family's key. */
export type HandlerScope<Key extends string, Model, N extends NeedSpec = {}, E extends EventDecls = {}, J extends JobDecls = {}> = ModelScope<N, E, J> & {
  readonly [K in Key]: Model;
};

/** Names a scope uses for itself: no entry of the list may take them as its key. */
export const RESERVED_SCOPE_NAMES = ['clock', 'random', 'seed', 'refs', 'io', 'listed', 'events', 'jobs'] as const;
