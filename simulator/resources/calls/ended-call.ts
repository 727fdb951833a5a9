// What an ended call keeps: the same fields, with the parts every call repeats shared between
// rows instead of one copy each: call batches keep 100,000s of ended calls in memory
// (docs/decisions.md "Call batches"). Rows are immutable and nothing changes an array in place, so a shared frozen value
// reads exactly like a copy; a snapshot writes it out the same way.
import { DEFAULT_STATUS_CALLBACK_EVENTS, type CallRow } from './schema.ts';

const EMPTY = Object.freeze([]) as unknown as never[];
const DEFAULT_EVENTS = Object.freeze([...DEFAULT_STATUS_CALLBACK_EVENTS]) as unknown as CallRow['statusCallbackEvents'];

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/**
 * The ended row being built (a new object, not yet stored: changed in place, no second copy)
 * with its texts-since-last-input dropped (only a walk in progress reads them) and repeated
 * parts shared.
 */
export function compactEnded(fresh: CallRow): CallRow {
  const row = fresh as { -readonly [K in keyof CallRow]: CallRow[K] };
  row.sinceInput = EMPTY;
  if (row.heard.length === 0) row.heard = EMPTY;
  if (row.entered.length === 0) row.entered = EMPTY;
  if (row.prompts.length === 0) row.prompts = EMPTY;
  if (sameList(row.statusCallbackEvents, DEFAULT_EVENTS)) row.statusCallbackEvents = DEFAULT_EVENTS;
  return row;
}
