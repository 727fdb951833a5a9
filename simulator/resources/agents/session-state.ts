// The stored shape of managed-agent call sessions (part of the agents family's snapshot) and of
// the steps their clock jobs carry: plain JSON, validated when restored.
import { Type, type Static } from '@sinclair/typebox';
import { Nullable, StringEnum } from '../../core/schema.ts';

const Json = Type.Unknown();

const Fired = Type.Object({ kind: Type.String() }, { additionalProperties: true });

export const BrainActionSchema = Type.Object({ type: StringEnum(['say', 'tool', 'optOut', 'transfer', 'hangup']), fired: Fired }, { additionalProperties: true });

export const SessionStepSchema = Type.Union([
  Type.Object({ kind: Type.Literal('phone') }, { additionalProperties: false }),
  Type.Object({ kind: Type.Literal('agent'), heard: Type.String(), spoken: Type.String() }, { additionalProperties: false }),
  Type.Object({ kind: Type.Literal('actions'), actions: Type.Array(BrainActionSchema) }, { additionalProperties: false }),
  Type.Object({ kind: Type.Literal('tool') }, { additionalProperties: false }),
  Type.Object({ kind: Type.Literal('bridged') }, { additionalProperties: false }), // a warm transfer's whisper is over
]);

const ToolOutcome = Type.Union([
  Type.Object({ ok: Type.Literal(true), text: Type.String() }, { additionalProperties: false }),
  Type.Object({ ok: Type.Literal(false), reason: Type.String(), detail: Type.String() }, { additionalProperties: false }),
]);

export const SessionRowSchema = Type.Object(
  {
    id: Type.String(), // maps a call id to its agent session
    call: Type.Object(
      {
        callId: Type.String(),
        accountId: Type.String(),
        agentId: Type.String(),
        answeredAt: Type.Number(),
        variables: Type.Record(Type.String(), Type.String()),
        instruction: Nullable(Type.String()),
        dictionaryId: Nullable(Type.String()),
      },
      { additionalProperties: false },
    ),
    brain: Type.Object(
      {
        turns: Type.Integer(),
        pending: Nullable(Type.Object({ rule: Type.Integer(), groups: Type.Array(Nullable(Type.String())), utterance: Type.String() }, { additionalProperties: false })),
        transferring: Type.Boolean(),
        done: Type.Boolean(),
      },
      { additionalProperties: false },
    ),
    seq: Type.Integer(), // the step that may run next; older scheduled steps are ignored
    agentSaid: Type.Array(Type.String()), // the agent's lines since the phone's last turn
    // A warm transfer under way: what the party hears when it answers (optional: older snapshots lack it).
    warm: Type.Optional(Nullable(Type.Object({ to: Type.String(), whisper: Type.String() }, { additionalProperties: false }))),
    tool: Nullable(
      Type.Object(
        {
          name: Type.String(),
          arguments: Type.Record(Type.String(), Json),
          connectionId: Nullable(Type.String()),
          failureMode: StringEnum(['continue', 'fail_session']),
          startedAt: Type.Number(),
          outcome: Nullable(ToolOutcome), // landed answer, kept until its step is due
          due: Type.Boolean(), // its step ran before the answer landed (realtime clock)
          spoken: Nullable(Type.String()), // what the phone said that led to the call
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

export type SessionRow = Static<typeof SessionRowSchema>;
export type SessionStep = Static<typeof SessionStepSchema>;

/**
 * The live sessions, by call id, in the order they started. A Map rather than a Table: sessions
 * end in roughly the order they started and a Table's delete reindexes every later row (10,000
 * calls made that quadratic).
 */
export class SessionTable {
  private rows = new Map<string, SessionRow>();

  constructor(rows: readonly SessionRow[] = []) {
    for (const r of rows) this.insert(r);
  }

  get size(): number {
    return this.rows.size;
  }

  get(id: string): SessionRow | undefined {
    return this.rows.get(id);
  }

  insert(row: SessionRow): SessionRow {
    if (this.rows.has(row.id)) throw new Error(`duplicate id ${row.id}`);
    this.rows.set(row.id, row);
    return row;
  }

  replace(row: SessionRow): SessionRow {
    if (!this.rows.has(row.id)) throw new Error(`no row ${row.id}`);
    this.rows.set(row.id, row);
    return row;
  }

  delete(id: string): boolean {
    return this.rows.delete(id);
  }

  all(): SessionRow[] {
    return [...this.rows.values()];
  }

  adopt(other: SessionTable): void {
    this.rows = other.rows;
  }
}
