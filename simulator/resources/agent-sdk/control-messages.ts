// What a customer's agent may send on its control socket (Agent SDK protocol §2.3): `agent.hello`,
// `call.accept`, `call.session_failed`, `call.transfer`, `call.telemetry`, `call.metrics`. Parsing
// never throws: malformed JSON, an unknown event or a bad field becomes `refused` with the reason
// the journal shows. A transfer request is validated field by field (§6): every refusal names
// the field, and is answered with `call.transfer.failed` (docs/agent-sdk.md "Transfers").

export const DESTINATION_TYPES = ['pstn', 'sip'] as const;
export const TRANSFER_MODES = ['blind', 'warm'] as const;
export const AFTER_TRANSFER = ['terminate', 'return'] as const;
export const HOLD_MEDIA = ['ringback', 'moh', 'silence'] as const;
/** Ring time bounds of a transfer target, seconds (default 30, the runtime's). */
export const TRANSFER_TIMEOUT = { min: 5, max: 120, default: 30 } as const;
const MAX_TEXT = 1000;
const MAX_CONTEXT_BYTES = 4096;

export interface Hello {
  name: string;
  version: string;
  runtime: string;
  os: string;
  capabilities: string[];
}

export interface TransferRequest {
  to: string;
  destinationType: (typeof DESTINATION_TYPES)[number];
  mode: (typeof TRANSFER_MODES)[number];
  afterTransfer: (typeof AFTER_TRANSFER)[number];
  holdMedia: (typeof HOLD_MEDIA)[number];
  whisper: string | null;
  /** JSON text of the context object (forwarded as TransferContext), or null. */
  context: string | null;
  callerId: string | null;
  /** Only `original` means anything; other values are ignored as the platform ignores them. */
  callerIdMode: 'original' | null;
  timeout: number;
  failureMessage: string | null;
  failureVoice: string | null;
  requestId: string | null;
}

export type ControlMessage =
  | { event: 'agent.hello'; hello: Hello }
  | { event: 'call.accept'; callId: string }
  | { event: 'call.session_failed'; callId: string; reason: string; message: string }
  | { event: 'call.transfer'; callId: string; transfer: TransferRequest }
  | { event: 'call.transfer.invalid'; callId: string; requestId: string | null; field: string; reason: string }
  | { event: 'call.telemetry' | 'call.metrics'; callId: string }
  | { event: 'refused'; reason: string };

function record(v: unknown): Record<string, unknown> | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

const text = (v: unknown, max = 200): string => (typeof v === 'string' ? v.slice(0, max) : '');

function hello(sdk: Record<string, unknown> | undefined): Hello {
  const caps = Array.isArray(sdk?.capabilities) ? sdk!.capabilities.filter((c): c is string => typeof c === 'string').slice(0, 20).map((c) => c.slice(0, 64)) : [];
  return { name: text(sdk?.name, 100), version: text(sdk?.version, 50), runtime: text(sdk?.runtime, 100), os: text(sdk?.os, 100), capabilities: caps };
}

type Check = { ok: true; value: TransferRequest } | { ok: false; field: string; reason: string };

function oneOf<T extends string>(t: Record<string, unknown>, field: string, allowed: readonly T[], fallback: T): T | { field: string; reason: string } {
  const v = t[field];
  if (v === undefined || v === null) return fallback;
  return allowed.includes(v as T) ? (v as T) : { field: `transfer.${field}`, reason: `must be one of ${allowed.join(', ')}` };
}

function optionalText(t: Record<string, unknown>, field: string): string | null | { field: string; reason: string } {
  const v = t[field];
  if (v === undefined || v === null || v === '') return null;
  if (typeof v !== 'string') return { field: `transfer.${field}`, reason: 'must be a string or null' };
  if (v.length > MAX_TEXT) return { field: `transfer.${field}`, reason: `must be at most ${MAX_TEXT} characters` };
  return v;
}

const PHONE = /^\+?[0-9][0-9\-\s().]{2,30}$/;
const SIP_URI = /^sips?:[^\s@]+@[^\s@]+$|^sips?:[^\s@]+$/i;

/** Validates a transfer request field by field (the first failure names its field). */
export function checkTransfer(t: Record<string, unknown>): Check {
  const fail = (field: string, reason: string): Check => ({ ok: false, field, reason });
  const bad = (v: unknown): v is { field: string; reason: string } => typeof v === 'object' && v !== null && 'reason' in v;
  const destinationType = oneOf(t, 'destinationType', DESTINATION_TYPES, 'pstn');
  if (bad(destinationType)) return { ok: false, ...destinationType };
  if (typeof t.to !== 'string' || t.to.trim() === '') return fail('transfer.to', 'is required: a phone number or, with destinationType sip, a sip: URI');
  const to = t.to.trim();
  if (destinationType === 'pstn' && !PHONE.test(to)) return fail('transfer.to', 'must be a phone number for destinationType pstn');
  if (destinationType === 'sip' && !SIP_URI.test(to)) return fail('transfer.to', 'must be a sip: or sips: URI for destinationType sip');
  const mode = oneOf(t, 'mode', TRANSFER_MODES, 'blind');
  if (bad(mode)) return { ok: false, ...mode };
  const afterTransfer = oneOf(t, 'afterTransfer', AFTER_TRANSFER, 'terminate');
  if (bad(afterTransfer)) return { ok: false, ...afterTransfer };
  const holdMedia = oneOf(t, 'holdMedia', HOLD_MEDIA, 'ringback');
  if (bad(holdMedia)) return { ok: false, ...holdMedia };
  const whisper = optionalText(t, 'whisper');
  if (bad(whisper)) return { ok: false, ...whisper };
  const failureMessage = optionalText(t, 'failureMessage');
  if (bad(failureMessage)) return { ok: false, ...failureMessage };
  const failureVoice = optionalText(t, 'failureVoice');
  if (bad(failureVoice)) return { ok: false, ...failureVoice };
  const callerId = optionalText(t, 'callerId');
  if (bad(callerId)) return { ok: false, ...callerId };
  if (callerId !== null && !PHONE.test(callerId)) return fail('transfer.callerId', 'must be a phone number');
  let context: string | null = null;
  if (t.context !== undefined && t.context !== null) {
    if (!record(t.context)) return fail('transfer.context', 'must be an object or null');
    context = JSON.stringify(t.context);
    if (Buffer.byteLength(context) > MAX_CONTEXT_BYTES) return fail('transfer.context', `must be at most ${MAX_CONTEXT_BYTES} bytes as JSON`);
  }
  let timeout: number = TRANSFER_TIMEOUT.default;
  if (t.timeout !== undefined && t.timeout !== null) {
    if (typeof t.timeout !== 'number' || !Number.isInteger(t.timeout) || t.timeout < TRANSFER_TIMEOUT.min || t.timeout > TRANSFER_TIMEOUT.max) {
      return fail('transfer.timeout', `must be an integer from ${TRANSFER_TIMEOUT.min} to ${TRANSFER_TIMEOUT.max} (seconds the target may ring)`);
    }
    timeout = t.timeout;
  }
  if (t.requestId !== undefined && t.requestId !== null && (typeof t.requestId !== 'string' || t.requestId.length > 128)) return fail('transfer.requestId', 'must be a string of at most 128 characters');
  return {
    ok: true,
    value: {
      to,
      destinationType,
      mode,
      afterTransfer,
      holdMedia,
      whisper,
      context,
      callerId,
      callerIdMode: t.callerIdMode === 'original' ? 'original' : null,
      timeout,
      failureMessage,
      failureVoice,
      requestId: typeof t.requestId === 'string' ? t.requestId : null,
    },
  };
}

/** The message in `text`, or why it is refused. */
export function parseControlMessage(raw: string): ControlMessage {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return { event: 'refused', reason: 'not JSON' };
  }
  const msg = record(parsed);
  if (!msg) return { event: 'refused', reason: 'not a JSON object' };
  if (msg.event === 'agent.hello') return { event: 'agent.hello', hello: hello(record(msg.sdk)) };
  if (typeof msg.event !== 'string') return { event: 'refused', reason: 'no event' };
  const known = ['call.accept', 'call.session_failed', 'call.transfer', 'call.telemetry', 'call.metrics'];
  if (!known.includes(msg.event)) return { event: 'refused', reason: `unknown event "${msg.event.slice(0, 64)}"` };
  if (typeof msg.callId !== 'string' || msg.callId === '') return { event: 'refused', reason: `${msg.event} needs a callId` };
  const callId = msg.callId.slice(0, 64);
  switch (msg.event) {
    case 'call.accept':
      return { event: 'call.accept', callId };
    case 'call.session_failed':
      return { event: 'call.session_failed', callId, reason: text(msg.reason, 100), message: text(msg.message, 500) };
    case 'call.transfer': {
      const t = record(msg.transfer);
      const requestId = typeof t?.requestId === 'string' ? t.requestId.slice(0, 128) : null;
      if (!t) return { event: 'call.transfer.invalid', callId, requestId, field: 'transfer', reason: 'must be an object' };
      const checked = checkTransfer(t);
      if (!checked.ok) return { event: 'call.transfer.invalid', callId, requestId, field: checked.field, reason: checked.reason };
      return { event: 'call.transfer', callId, transfer: checked.value };
    }
    default:
      return { event: msg.event as 'call.telemetry' | 'call.metrics', callId };
  }
}
