// Live control of a call (public document `playIntoCall`): an announcement played into a call
// connected to a transferred party. The phone on the line hears a text when the target includes
// it (`both` or `caller`); the transferred party is the `callee` side. A playback lasts as long
// as its speech (or a play block's audio) and blocks the next one until it is over.
import { Type, type Static } from '@sinclair/typebox';
import { iso } from '../../core/clock.ts';
import { ApiError, defineError } from '../../core/errors.ts';
import { Nullable, StringEnum } from '../../core/schema.ts';
import { PLAY_TARGETS, type CallRow, type PlaybackRow } from './schema.ts';
import { PLAY_SECONDS, speechSeconds } from './interpreter.ts';
import { withRules } from '../../core/schema-rules.ts';

export const liveErrors = {
  CALL_NOT_CONNECTED: defineError({
    code: 'CALL_NOT_CONNECTED', status: 409, origin: 'reference',
    description: 'The call is not connected to a transferred party (still ringing, no dial/transfer leg connected, or already ended); reference playIntoCall 409.',
  }),
  PLAY_IN_PROGRESS: defineError({
    code: 'PLAY_IN_PROGRESS', status: 409, origin: 'reference',
    description: 'An earlier announcement is still playing into this call; reference playIntoCall 409.',
  }),
  MEDIA_UNAVAILABLE: defineError({
    code: 'MEDIA_UNAVAILABLE', status: 422, origin: 'reference',
    description: 'The audio URL cannot be fetched (the egress policy refuses it); reference playIntoCall 422.',
  }),
};

export const PlayIntoCallBody = withRules(
  Type.Object(
    {
      text: Type.Optional(Type.String({ minLength: 1, maxLength: 1000, description: 'Sentence to read. Exclusive with url.' })),
      url: Type.Optional(Type.String({ minLength: 1, maxLength: 2048, description: 'Audio file (mp3/wav) to play. Exclusive with text. The simulator fetches nothing: it lasts 5 s.' })),
      language: Type.Optional(StringEnum(['ko', 'en', 'ja'], { description: 'Language of text; default ko.' })),
      voice: Type.Optional(Type.String({ maxLength: 200, description: 'Voice as VoiceML <Say voice>; omitted: the free voice.' })),
      target: Type.Optional(StringEnum(PLAY_TARGETS, { description: 'both (default), caller (the phone on the line) or callee (the transferred party).' })),
    },
    { $id: 'PlayIntoCallRequest', additionalProperties: false },
  ),
  [{ description: 'Exactly one of text and url.', code: 'VALIDATION', schema: { oneOf: [{ required: ['text'], properties: { text: {} } }, { required: ['url'], properties: { url: {} } }] } }],
);
export type PlayIntoCallInput = Static<typeof PlayIntoCallBody>;

export const PlayIntoCallResponse = Type.Object(
  { callId: Type.String(), playbackId: Nullable(Type.String()), status: StringEnum(['playing']) },
  { $id: 'PlayIntoCallResponse', additionalProperties: false },
);

/** What a playback reads: the seeded random (its id), the clock, and why the egress policy refuses an audio URL. */
export interface PlayParts {
  readonly random: { hex(length: number): string };
  readonly clock: { now(): number };
  refusal(url: string): string | undefined;
}

/** A UUID-shaped id from the seeded random (the reference shows playback ids as UUIDs). */
function playbackId(rt: PlayParts): string {
  const h = rt.random.hex(32);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${'89ab'[parseInt(h[16]!, 16) & 3]}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * playIntoCall. Checks in the reference's order: body (400), the call (404 by the caller),
 * connected (409 CALL_NOT_CONNECTED), a playback still playing (409 PLAY_IN_PROGRESS), the
 * audio URL (422 MEDIA_UNAVAILABLE). A refusal changes nothing and draws no id.
 */
export function playIntoCall(rt: PlayParts, row: CallRow, input: PlayIntoCallInput): { row: CallRow; playback: PlaybackRow } {
  const given = (['text', 'url'] as const).filter((k) => input[k] !== undefined);
  if (given.length !== 1) {
    const message = given.length === 0 ? 'give text or url' : 'text and url are exclusive';
    throw ApiError.validation(message, [{ path: given.length === 0 ? 'text' : 'url', message }]);
  }
  const connected = row.status === 'in-progress' && (row.transfers ?? []).some((l) => l.status === 'connected');
  if (!connected) {
    throw liveErrors.CALL_NOT_CONNECTED(`call ${row.id} is not connected to a transferred party (status ${row.status})`, { callId: row.id, status: row.status });
  }
  const now = rt.clock.now();
  const last = (row.playbacks ?? []).at(-1);
  if (last && Date.parse(last.until) > now) throw liveErrors.PLAY_IN_PROGRESS(`an announcement plays into call ${row.id} until ${last.until}`, { callId: row.id });
  const refused = input.url === undefined ? undefined : rt.refusal(input.url);
  if (refused !== undefined) {
    throw liveErrors.MEDIA_UNAVAILABLE(`the audio at ${input.url} cannot be fetched: ${refused}`, { errors: [{ path: 'url', message: 'refused by the egress policy' }] });
  }
  const seconds = input.text !== undefined ? speechSeconds(input.text) : PLAY_SECONDS;
  const target = input.target ?? 'both';
  const playback: PlaybackRow = {
    id: playbackId(rt),
    at: iso(now),
    until: iso(now + seconds * 1000),
    target,
    text: input.text ?? null,
    url: input.url ?? null,
    language: input.language ?? 'ko',
    voice: input.voice ?? null,
  };
  const next: CallRow = { ...row, playbacks: [...(row.playbacks ?? []), playback] };
  // The phone on the line hears a text meant for it, as it hears a say block (replies match it too).
  if (input.text !== undefined && target !== 'callee') {
    next.heard = [...row.heard, input.text];
    next.sinceInput = [...row.sinceInput, input.text];
  }
  return { row: next, playback };
}
