// The whole-call recording of a call on the wire: both sides on the call's media clock, mixed into
// one 8 kHz mono 16-bit track, as the other recordings of two sides are (the Agent SDK's). What
// the client sent starts at the frame its first packet arrived in; what the server played (the
// phone's utterances) at their frames. The file runs from the first frame either side carried
// sound to the last (the server's silence does not count), at most MAX_SECONDS; a call where
// neither side made a sound has no audio of its own (the recordings family's default applies).
import { decode } from '../../peers/speech/mulaw.ts';
import { pcmWav } from '../../peers/speech/wav.ts';
import { MAX_SECONDS, type HeardAudio } from './media.ts';
import type { PlayedPart } from './playout.ts';
import { FRAME_SAMPLES } from './rtp-stream.ts';

const MAX_SAMPLES = MAX_SECONDS * 8000;

export function callRecording(heard: HeardAudio | undefined, played: readonly PlayedPart[]): Buffer | undefined {
  const parts = [...(heard ? [{ at: heard.firstFrame * FRAME_SAMPLES, audio: heard.audio }] : []), ...played.map((p) => ({ at: p.startFrame * FRAME_SAMPLES, audio: p.audio }))].filter((p) => p.audio.length > 0);
  if (parts.length === 0) return undefined;
  const from = Math.min(...parts.map((p) => p.at));
  const to = Math.min(from + MAX_SAMPLES, Math.max(...parts.map((p) => p.at + p.audio.length)));
  const mix = new Int32Array(to - from);
  for (const p of parts) {
    const offset = p.at - from;
    const pcm = decode(p.audio.subarray(0, Math.max(0, mix.length - offset)));
    for (let i = 0; i < pcm.length; i++) mix[offset + i]! += pcm[i]!;
  }
  const out = new Int16Array(mix.length);
  for (let i = 0; i < mix.length; i++) out[i] = Math.max(-32768, Math.min(32767, mix[i]!));
  return pcmWav(out);
}
