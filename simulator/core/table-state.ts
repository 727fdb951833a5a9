// The clear/snapshot/restore of a model whose state is only tables: a snapshot is each table's
// rows under its name (in the order given), and a restore validates against the state schema,
// builds every table, then swaps them in, so a bad snapshot leaves the model untouched.
import type { TSchema } from '@sinclair/typebox';
import { validate } from './schema.ts';
import { Table, type Row } from './store.ts';

type Tables = Record<string, Table<any>>;

/** The snapshot of named tables: each name's rows. */
export type TablesState<T extends Tables> = { [K in keyof T]: T[K] extends Table<infer R> ? R[] : never };

export class TableState<T extends Tables> {
  /** `name` is the model's snapshot key (error messages and paths say "snapshot <name>"). */
  constructor(
    private readonly schema: TSchema,
    private readonly name: string,
    private readonly tables: T,
  ) {}

  clear(): void {
    for (const t of Object.values(this.tables)) t.adopt(new Table());
  }

  snapshot(): TablesState<T> {
    const out: Record<string, Row[]> = {};
    for (const [k, t] of Object.entries(this.tables)) out[k] = [...t.all()];
    return out as TablesState<T>;
  }

  restore(state: unknown): void {
    validate(this.schema, state, `snapshot ${this.name}`, this.name);
    const s = state as Record<string, Row[]>;
    const fresh = Object.keys(this.tables).map((k) => [k, new Table(s[k])] as const);
    for (const [k, t] of fresh) this.tables[k]!.adopt(t);
  }
}
