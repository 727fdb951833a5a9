// A call as the API shows it (createCall, getCall, listCalls, the control plane's call view), and
// the StatusCallbackEvent words a call asks for: checked when createCall takes them, read
// leniently from a number's settings (checked when they were set).
import { ApiError } from '../../core/errors.ts';
import { transferFields } from './transfers.ts';
import { DEFAULT_STATUS_CALLBACK_EVENTS, STATUS_CALLBACK_EVENTS, type CallRow, type StatusCallbackEvent } from './schema.ts';

export function callWire(r: CallRow) {
  return {
    callId: r.id,
    status: r.status,
    to: r.to,
    from: r.from,
    direction: r.direction,
    duration: r.duration,
    accountId: r.accountId,
    answeredBy: r.answeredBy,
    recordingUrl: r.recordingUrl,
    hangupCause: r.hangupCause,
    hangupCauseQ850: r.hangupCauseQ850,
    sipResponseCode: r.sipResponseCode,
    hangupSource: r.hangupSource,
    ...transferFields(r.transfers),
    dateCreated: r.dateCreated,
    dateUpdated: r.dateUpdated,
  };
}

/** createCall's StatusCallbackEvent (space-separated words); an unknown word is 400. */
export function callbackEvents(raw: string | undefined): StatusCallbackEvent[] {
  if (raw === undefined) return [...DEFAULT_STATUS_CALLBACK_EVENTS];
  const words = raw.split(/\s+/).filter((w) => w !== '');
  const unknown = words.find((w) => !(STATUS_CALLBACK_EVENTS as readonly string[]).includes(w));
  if (unknown !== undefined) {
    throw ApiError.validation(`StatusCallbackEvent has an unknown event "${unknown}"; use ${STATUS_CALLBACK_EVENTS.join(' ')}`, [{ path: 'StatusCallbackEvent', message: `unknown event ${unknown}` }]);
  }
  return words.length === 0 ? [...DEFAULT_STATUS_CALLBACK_EVENTS] : [...new Set(words as StatusCallbackEvent[])];
}

/** A number's statusCallbackEvents were checked when set; unknown words are dropped here. */
export function callbackEventsLenient(raw: string): StatusCallbackEvent[] {
  const words = raw.split(/\s+/).filter((w): w is StatusCallbackEvent => (STATUS_CALLBACK_EVENTS as readonly string[]).includes(w));
  return words.length === 0 ? [...DEFAULT_STATUS_CALLBACK_EVENTS] : [...new Set(words)];
}
