// A batch's tasks in columns (docs/decisions.md "Scale", "A batch's tasks"): one
// typed array per field instead of an object per recipient, ids and callIds packed, numbers as
// numbers, statuses and codes as small codes, each recipient's Variables as its values under a
// shared list of names. A task reads back (`row`) exactly as it went in, so pages and snapshots
// are what they were; the dialer reads and changes single fields without making a row.
import { CodeColumn, DigitsColumn, IdColumn } from '../../core/text-columns.ts';
import { grown } from '../../core/typed-arrays.ts';
import { setMember } from '../../core/own-member.ts';
import { PackedRows } from '../../core/packed-rows.ts';
import { CALL_IDS, type CallRow } from '../calls/schema.ts';
import { CALL_BATCH_IDS, TASK_STATUSES, type TaskRow, type TaskStatus } from './schema.ts';

type MessageKind = NonNullable<TaskRow['messageKind']>;
type MessageStatus = NonNullable<TaskRow['messageStatus']>;
type DeliveryStatus = NonNullable<TaskRow['messageDeliveryStatus']>;

const STATUS_CODE = new Map<TaskStatus, number>(TASK_STATUSES.map((s, i) => [s, i]));
const DIALING = STATUS_CODE.get('dialing')!;

export class TaskStore {
  length = 0;
  private readonly ids = new IdColumn(CALL_BATCH_IDS.callBatchTask);
  private readonly oddSeq = new Map<number, number>(); // a seq other than the position (a hand-written snapshot)
  private readonly phones = new DigitsColumn();
  private shape = new Int32Array(16); // the names of its Variables (an index into `shapes`)
  private firstValue = new Int32Array(16); // where its values start in `values`
  private readonly shapes: string[][] = [];
  private readonly shapeIds = new Map<string, number>();
  private readonly values: string[] = [];
  private statuses = new Uint8Array(16); // index in TASK_STATUSES
  private attempts = new Int32Array(16);
  private rounds = new Int32Array(16); // dialRound
  private next = new Float64Array(16); // nextAttemptAt, NaN for null
  private readonly callIds = new IdColumn(CALL_IDS.call);
  private readonly dispositions = new CodeColumn();
  private readonly answeredBys = new CodeColumn();
  // The flow's variables at the end: packed (core/packed-rows.ts), as the ended call is; -1 for null.
  private readonly packedResults = new PackedRows();
  private results = new Int32Array(16);
  private readonly lastErrors = new CodeColumn();
  private readonly messageKinds = new CodeColumn<MessageKind>();
  private readonly messageStatuses = new CodeColumn<MessageStatus>();
  private readonly deliveries = new CodeColumn<DeliveryStatus>();
  private readonly messageErrors = new CodeColumn();
  private readonly messageIds = new Map<number, string>(); // texts are few: kept by position
  private readonly messageDue = new Map<number, number>();

  /** Appends a task; returns its position. */
  push(t: TaskRow): number {
    const pos = this.length++;
    if (pos === this.statuses.length) this.grow(pos + 1);
    this.ids.set(pos, t.id);
    if (t.seq !== pos) this.oddSeq.set(pos, t.seq);
    this.phones.set(pos, t.to);
    this.setVars(pos, t.vars);
    this.update(pos, t);
    return pos;
  }

  /** Writes the fields `patch` has (not id, seq, to, vars: those never change). */
  update(pos: number, patch: Partial<TaskRow>): void {
    if (patch.status !== undefined) this.statuses[pos] = STATUS_CODE.get(patch.status)!;
    if (patch.attempt !== undefined) this.attempts[pos] = patch.attempt;
    if (patch.dialRound !== undefined) this.rounds[pos] = patch.dialRound;
    if (patch.nextAttemptAt !== undefined) this.next[pos] = patch.nextAttemptAt ?? NaN;
    if (patch.callId !== undefined) this.callIds.set(pos, patch.callId);
    if (patch.disposition !== undefined) this.dispositions.set(pos, patch.disposition);
    if (patch.answeredBy !== undefined) this.answeredBys.set(pos, patch.answeredBy);
    if (patch.result !== undefined) this.results[pos] = patch.result === null ? -1 : this.packResult(patch.result);
    if (patch.lastError !== undefined) this.lastErrors.set(pos, patch.lastError);
    if (patch.messageKind !== undefined) this.messageKinds.set(pos, patch.messageKind);
    if (patch.messageStatus !== undefined) this.messageStatuses.set(pos, patch.messageStatus);
    if (patch.messageDeliveryStatus !== undefined) this.deliveries.set(pos, patch.messageDeliveryStatus);
    if (patch.messageError !== undefined) this.messageErrors.set(pos, patch.messageError);
    if (patch.messageId !== undefined) keep(this.messageIds, pos, patch.messageId);
    if (patch.messageDueAt !== undefined) keep(this.messageDue, pos, patch.messageDueAt);
  }

  /** A call placed for the task: what `update` would write for the dialer's patch, written field by field (no patch object per dial). */
  dialed(pos: number, dialRound: number, callId: string): void {
    this.statuses[pos] = DIALING;
    this.attempts[pos]!++;
    this.rounds[pos] = dialRound;
    this.next[pos] = NaN;
    this.callIds.set(pos, callId);
    this.lastErrors.set(pos, null);
  }

  /**
   * The task's call ended: its outcome and next status (`nextAttemptAt` undefined leaves it), what
   * `update` would write for the dialer's patch, field by field. The call's id is not written
   * again: `dialed` wrote it, and the dialer finds the task by that id (about 1 % of the million
   * batch's CPU was this second write of the same id).
   */
  ended(pos: number, status: TaskStatus, nextAttemptAt: number | undefined, call: CallRow): void {
    this.statuses[pos] = STATUS_CODE.get(status)!;
    if (nextAttemptAt !== undefined) this.next[pos] = nextAttemptAt;
    this.dispositions.set(pos, call.status);
    this.answeredBys.set(pos, call.answeredBy);
    this.results[pos] = call.walk ? this.packResult(call.walk.vars) : -1;
  }

  /** The task as a row (a new object). */
  row(pos: number): TaskRow {
    return {
      id: this.ids.get(pos)!,
      seq: this.oddSeq.get(pos) ?? pos,
      to: this.to(pos),
      vars: this.vars(pos),
      status: this.status(pos),
      attempt: this.attempts[pos]!,
      dialRound: this.rounds[pos]!,
      nextAttemptAt: this.nextAttemptAt(pos),
      callId: this.callIds.get(pos),
      disposition: this.dispositions.get(pos),
      answeredBy: this.answeredBys.get(pos),
      result: this.result(pos),
      lastError: this.lastErrors.get(pos),
      messageKind: this.messageKinds.get(pos),
      messageStatus: this.messageStatuses.get(pos),
      messageDeliveryStatus: this.deliveries.get(pos),
      messageError: this.messageErrors.get(pos),
      messageId: this.messageId(pos),
      messageDueAt: this.messageDueAt(pos),
    };
  }

  /** The flow's variables at the end (a new object), or null. */
  result(pos: number): Record<string, string> | null {
    const rec = this.results[pos]!;
    return rec < 0 ? null : this.packedResults.unpack<Record<string, string>>(rec);
  }

  private packResult(result: Record<string, string>): number {
    const rec = this.packedResults.pack(result);
    if (rec === undefined) throw new Error('a flow result is variables as texts');
    return rec;
  }

  id(pos: number): string {
    return this.ids.get(pos)!;
  }

  to(pos: number): string {
    return this.phones.get(pos);
  }

  /** Its Variables (a new object, names in the order given). */
  vars(pos: number): Record<string, string> {
    const names = this.shapes[this.shape[pos]!]!;
    const first = this.firstValue[pos]!;
    const out: Record<string, string> = {};
    for (let k = 0; k < names.length; k++) setMember(out, names[k]!, this.values[first + k]!);
    return out;
  }

  hasVars(pos: number): boolean {
    return this.shapes[this.shape[pos]!]!.length > 0;
  }

  status(pos: number): TaskStatus {
    return TASK_STATUSES[this.statuses[pos]!]!;
  }

  attempt(pos: number): number {
    return this.attempts[pos]!;
  }

  dialRound(pos: number): number {
    return this.rounds[pos]!;
  }

  nextAttemptAt(pos: number): number | null {
    const v = this.next[pos]!;
    return v !== v ? null : v;
  }

  disposition(pos: number): TaskRow['disposition'] {
    return this.dispositions.get(pos) as TaskRow['disposition'];
  }

  answeredBy(pos: number): TaskRow['answeredBy'] {
    return this.answeredBys.get(pos) as TaskRow['answeredBy'];
  }

  callId(pos: number): string | null {
    return this.callIds.get(pos);
  }

  messageKind(pos: number): MessageKind | null {
    return this.messageKinds.get(pos);
  }

  messageStatus(pos: number): MessageStatus | null {
    return this.messageStatuses.get(pos);
  }

  messageDeliveryStatus(pos: number): DeliveryStatus | null {
    return this.deliveries.get(pos);
  }

  messageId(pos: number): string | null {
    return this.messageIds.get(pos) ?? null;
  }

  messageDueAt(pos: number): number | null {
    return this.messageDue.get(pos) ?? null;
  }

  private setVars(pos: number, vars: Record<string, string>): void {
    const names = Object.keys(vars);
    // Recipients of one batch mostly share their names: the last shape is checked first.
    const last = this.shapes.length > 0 ? this.shape[pos - 1] ?? 0 : -1;
    let shape = last >= 0 && sameNames(this.shapes[last]!, names) ? last : undefined;
    if (shape === undefined) {
      const key = JSON.stringify(names);
      shape = this.shapeIds.get(key);
      if (shape === undefined) this.shapeIds.set(key, (shape = this.shapes.push(names) - 1));
    }
    this.shape[pos] = shape;
    this.firstValue[pos] = this.values.length;
    for (const name of names) this.values.push(vars[name]!);
  }

  private grow(size: number): void {
    this.shape = grown(this.shape, size);
    this.firstValue = grown(this.firstValue, size);
    this.statuses = grown(this.statuses, size);
    this.attempts = grown(this.attempts, size);
    this.rounds = grown(this.rounds, size);
    this.next = grown(this.next, size);
    this.results = grown(this.results, size);
  }
}

function sameNames(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A sparse field: kept while not null. */
function keep<T>(map: Map<number, T>, pos: number, value: T | null): void {
  if (value === null) map.delete(pos);
  else map.set(pos, value);
}
