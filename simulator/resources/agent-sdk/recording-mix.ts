// The recording of an Agent SDK call: what the agent actually played (after clears, as the media
// engine played it) and what the phone said (its utterances, synthesised again from their text:
// the speech peer gives the same bytes for the same text), mixed into one 8 kHz mono track on the
// call's media clock, frame by frame. Nothing is taken from when bytes arrived.
import { decode } from '../../peers/speech/mulaw.ts';
import { pcmWav } from '../../peers/speech/wav.ts';

const FRAME_SAMPLES = 160;

export interface MixInput {
  /** Length of the recording in frames (the media position when the call ended). */
  frames: number;
  /** The agent's played runs: frame index and μ-law frames. */
  agent: readonly { at: number; frames: readonly Buffer[] }[];
  /** The phone's audio: starting frame and μ-law bytes (whole frames). */
  phone: readonly { at: number; audio: Buffer }[];
}

/** 16-bit samples of the mix (the two sides added, clipped). */
export function mixSamples(input: MixInput): Int16Array {
  const total = input.frames * FRAME_SAMPLES;
  const mix = new Int32Array(total);
  const add = (at: number, codes: Uint8Array) => {
    const from = at * FRAME_SAMPLES;
    if (from >= total) return;
    const pcm = decode(codes.subarray(0, Math.max(0, total - from)));
    for (let i = 0; i < pcm.length; i++) mix[from + i]! += pcm[i]!;
  };
  for (const run of input.agent) run.frames.forEach((f, k) => add(run.at + k, f));
  for (const p of input.phone) add(p.at, p.audio);
  const out = new Int16Array(total);
  for (let i = 0; i < total; i++) out[i] = Math.max(-32768, Math.min(32767, mix[i]!));
  return out;
}

/** The WAV file of the call. */
export function recordingWav(input: MixInput): Buffer {
  return pcmWav(mixSamples(input));
}
