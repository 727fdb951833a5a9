// What a customer's agent may send on a media socket (Agent SDK media protocol, client side):
// `media` {payload}, `mark` {name}, `clear`, `dtmf` {digit}. Parsing never throws: a message
// that is not JSON, not an object, of an unknown event or with a bad field becomes a `refused`
// with the reason the journal shows (docs/agent-sdk.md "Bad input").

/** The largest μ-law payload one `media` message may carry, decoded (10 s of audio). */
export const MAX_MEDIA_PAYLOAD_BYTES = 80_000;
/** The longest mark name accepted. */
export const MAX_MARK_NAME = 256;

export type ClientMediaMessage =
  | { event: 'media'; audio: Buffer }
  | { event: 'mark'; name: string }
  | { event: 'clear' }
  | { event: 'dtmf'; digit: string }
  | { event: 'refused'; reason: string };

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const DIGIT = /^[0-9*#]$/;

function refused(reason: string): ClientMediaMessage {
  return { event: 'refused', reason };
}

function record(v: unknown): Record<string, unknown> | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

function media(body: Record<string, unknown> | undefined): ClientMediaMessage {
  const payload = body?.payload;
  if (typeof payload !== 'string') return refused('media.payload must be a base64 string');
  if (payload.length % 4 !== 0) return refused('media.payload is not valid base64');
  if ((payload.length / 4) * 3 > MAX_MEDIA_PAYLOAD_BYTES + 2) return refused(`media.payload holds more than ${MAX_MEDIA_PAYLOAD_BYTES} bytes of audio`);
  // Node's decoder skips characters outside the alphabet: a short result means the text was not base64.
  const audio = Buffer.from(payload, 'base64');
  const padding = payload.endsWith('==') ? 2 : payload.endsWith('=') ? 1 : 0;
  if (audio.length !== (payload.length / 4) * 3 - padding || (padding > 0 && !BASE64.test(payload.slice(-4)))) return refused('media.payload is not valid base64');
  return { event: 'media', audio };
}

/** The message in `text`, or why it is refused. */
export function parseClientMediaMessage(text: string): ClientMediaMessage {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return refused('not JSON');
  }
  const msg = record(parsed);
  if (!msg) return refused('not a JSON object');
  switch (msg.event) {
    case 'media':
      return media(record(msg.media));
    case 'mark': {
      const name = record(msg.mark)?.name;
      if (typeof name !== 'string' || name === '') return refused('mark.name must be a non-empty string');
      if (name.length > MAX_MARK_NAME) return refused(`mark.name is longer than ${MAX_MARK_NAME} characters`);
      return { event: 'mark', name };
    }
    case 'clear':
      return { event: 'clear' };
    case 'dtmf': {
      const digit = record(msg.dtmf)?.digit;
      if (typeof digit !== 'string' || !DIGIT.test(digit)) return refused('dtmf.digit must be one of 0-9, * and #');
      return { event: 'dtmf', digit };
    }
    default:
      return refused(typeof msg.event === 'string' ? `unknown event "${msg.event.slice(0, 64)}"` : 'no event');
  }
}
