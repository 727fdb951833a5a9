// The form fields of what calls announce: `callflow.ended` with the spec's exact field table,
// and the status callbacks (reference createCall StatusCallbackEvent; numbers guide).
import type { CallRow, StatusCallbackEvent } from './schema.ts';

/** Spec Limits: collected variables, 8 KB. */
export const VARIABLES_LIMIT_BYTES = 8192;

/**
 * Variables as JSON within the limit: keys are kept in the order they were collected (caller
 * and callee first); a key that would push the text past the limit is cut, later smaller
 * ones may still fit. `truncated` says whether any key was cut.
 */
export function variablesWithinLimit(vars: Readonly<Record<string, string>>): { json: string; truncated: boolean } {
  const full = plainJson(vars) ?? JSON.stringify(vars);
  // A UTF-16 code unit is at most 3 UTF-8 bytes: short texts need no byte count.
  if (full.length * 3 <= VARIABLES_LIMIT_BYTES || Buffer.byteLength(full) <= VARIABLES_LIMIT_BYTES) return { json: full, truncated: false };
  let size = 2; // {}
  const kept: Record<string, string> = {};
  for (const [k, v] of Object.entries(vars)) {
    const entry = Buffer.byteLength(JSON.stringify(k)) + 1 + Buffer.byteLength(JSON.stringify(v)) + (size > 2 ? 1 : 0);
    if (size + entry > VARIABLES_LIMIT_BYTES) continue;
    kept[k] = v;
    size += entry;
  }
  return { json: JSON.stringify(kept), truncated: true };
}

/**
 * JSON.stringify of a record of texts whose names and values need no escape (printable ASCII
 * but `"` and `\`), written out directly; undefined for anything else. Every call of a flow
 * announces its variables at its end, and the engine's general stringify took about four times
 * as long on the batch's variables (2.6 against 0.7 % of a profile of the batch's week;
 * docs/decisions.md "Scale", "The batch's CPU per call, seventh round").
 */
export function plainJson(vars: Readonly<Record<string, unknown>>): string | undefined {
  let out = '{';
  for (const name in vars) {
    if (!Object.prototype.hasOwnProperty.call(vars, name)) continue;
    const value = vars[name];
    if (typeof value !== 'string' || !plainText(name) || !plainText(value)) return undefined;
    out += out.length === 1 ? `"${name}":"${value}"` : `,"${name}":"${value}"`;
  }
  return out + '}';
}

function plainText(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return false;
  }
  return true;
}

/** The fields every call announcement opens with, in this order (the form body keeps it). */
export function callIdentity(row: CallRow): Record<string, string> {
  return { CallId: row.id, AccountId: row.accountId, From: row.from, To: row.to, Direction: row.direction };
}

// Payloads add their fields to the identity one by one: a spread followed by more fields takes
// V8's slow path (about 8 µs a payload, a second over a batch's 100,000s of calls; docs/decisions.md "Call batches").
export function flowEndedPayload(row: CallRow, timestamp: string): Record<string, string> {
  const { json, truncated } = variablesWithinLimit(row.walk?.vars ?? {});
  const payload = callIdentity(row);
  payload.Event = 'callflow.ended';
  payload.Timestamp = timestamp;
  payload.FlowId = row.callFlowId ?? '';
  payload.Status = row.flowStatus ?? 'abandoned';
  payload.Variables = json;
  if (truncated) payload.VariablesTruncated = 'true';
  return payload;
}

/** A status callback: the event, the call's status, and on `completed` how it ended. */
export function statusPayload(row: CallRow, event: StatusCallbackEvent, timestamp: string): Record<string, string> {
  const payload = callIdentity(row);
  payload.CallStatus = row.status;
  payload.StatusCallbackEvent = event;
  payload.Timestamp = timestamp;
  if (event === 'completed') {
    payload.Duration = String(row.duration ?? 0);
    if (row.hangupCause !== null) payload.HangupCause = row.hangupCause;
    if (row.hangupCauseQ850 !== null) payload.HangupCauseQ850 = String(row.hangupCauseQ850);
    if (row.sipResponseCode !== null) payload.SipResponseCode = String(row.sipResponseCode);
    if (row.hangupSource !== null) payload.HangupSource = row.hangupSource;
  }
  if (row.answeredBy !== null && (event === 'answered' || event === 'completed')) payload.AnsweredBy = row.answeredBy;
  return payload;
}
