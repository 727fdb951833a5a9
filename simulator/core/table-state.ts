// Snapshot plumbing. A family hands the runtime its `StatePart` (how to snapshot, restore and
// clear its model, and the schema a snapshot's part must match): the runtime validates the part,
// then restores, and rolls every model back if anything fails. `tablesPart` is the common case, a
// model whose state is only tables: a snapshot is each table's rows under its name (in the order
// given), a restore builds every table then swaps them in place, so holders keep one object.
// `ownPart` hands the rest to a model's own methods after the runtime validated the part.
import type { TSchema } from '@sinclair/typebox';
import { Table, type Row } from './store.ts';
import type { ListedNames } from './scope.ts';

type Tables = Record<string, Table<any>>;

/** The snapshot of named tables: each name's rows. */
export type TablesState<T extends Tables> = { [K in keyof T]: T[K] extends Table<infer R> ? R[] : never };

/**
 * Why a state is put back: `replace`, a snapshot from anywhere (PUT /_sim/state, a state dir);
 * `rollback`, the state of a moment ago in the same turn (an operation undoing itself, all or
 * nothing), so live work that state did not change (an Agent SDK call's sockets) stays as it is.
 */
export type RestoreKind = 'replace' | 'rollback';

/** One entry's part of a snapshot, run by the runtime. */
export interface StatePart<M> {
  /**
   * What the part must match; the runtime validates before `restore` and names the failing field.
   * A schema that enumerates names of the whole list (the carrier's owners) is built from them.
   */
  readonly schema: TSchema | ((names: ListedNames) => TSchema);
  snapshot(model: M): unknown;
  /** Called with a part that matched `schema`; `how` says why (default replace; a rollback leaves live work alone). */
  restore(model: M, state: any, how?: RestoreKind): void;
  /** Back to empty, before the fixture loads (reset). */
  clear(model: M): void;
  /**
   * Live work the part's state cannot hold (one description each: an Agent SDK call whose
   * sockets are open). While there is any, the control plane refuses a snapshot (GET /_sim/state):
   * restoring it could not bring that work back.
   */
  live?(model: M): string[];
  /**
   * What the model holds now, kept so that a restore that fails can put it back (the runtime's
   * undo); without it the runtime keeps a copy of the part's snapshot. A model whose restore
   * swaps in new objects holds the old ones for nothing (a million packed calls: no export).
   */
  hold?(model: M): () => void;
  /** `restore` keeps nothing of the state it is given (it copies what it keeps), so the runtime does not copy it first. */
  readonly copiesInput?: boolean;
  /**
   * `snapshot` returns plain data that shares nothing with live state, as a JSON round trip
   * gives it, so the runtime does not copy it again (a million packed calls: 200 MB of base64).
   */
  readonly snapshotsCopy?: boolean;
}

function snapshotTables(tables: Tables): Record<string, Row[]> {
  const out: Record<string, Row[]> = {};
  for (const [k, t] of Object.entries(tables)) out[k] = [...t.all()];
  return out;
}

function adoptTables(tables: Tables, state: Record<string, Row[]> | undefined): void {
  const fresh = Object.keys(tables).map((k) => [k, new Table(state?.[k])] as const);
  for (const [k, t] of fresh) tables[k]!.adopt(t);
}

/**
 * The part of a model whose state is only tables. `reindex` rebuilds what the model derives from
 * its rows (an index by number, say) after a restore or a clear.
 */
export function tablesPart<M, T extends Tables>(schema: TSchema, tablesOf: (model: M) => T, reindex?: (model: M) => void): StatePart<M> {
  return {
    schema,
    snapshot: (m) => snapshotTables(tablesOf(m)) as TablesState<T>,
    restore: (m, state: TablesState<T>) => {
      adoptTables(tablesOf(m), state as Record<string, Row[]>);
      reindex?.(m);
    },
    // A restore swaps new tables' contents in (adoptTables), so the contents of now can be kept
    // as they are for an undo, instead of a copy of their snapshot (about a third of a restore).
    hold: (m) => {
      const putBack = Object.values(tablesOf(m)).map((t) => t.keep());
      return () => {
        for (const put of putBack) put();
        reindex?.(m);
      };
    },
    clear: (m) => {
      adoptTables(tablesOf(m), undefined);
      reindex?.(m);
    },
  };
}

/** A model that snapshots itself: `restore` receives a part the runtime validated against the schema. */
export interface SelfSnapshotting<S> {
  snapshot(): S;
  restore(state: S): void;
  clear(): void;
}

/** The part of a model whose state is not only tables: the runtime validates, the model's own methods do the rest. */
export function ownPart<S, M extends SelfSnapshotting<S>>(schema: StatePart<M>['schema'], extra: Pick<StatePart<M>, 'hold' | 'copiesInput' | 'snapshotsCopy'> = {}): StatePart<M> {
  return { schema, snapshot: (m) => m.snapshot(), restore: (m, state: S) => m.restore(state), clear: (m) => m.clear(), ...extra };
}
