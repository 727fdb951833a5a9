// What a caller on hold hears during a warm transfer an agent asked for (protocol §6 `holdMedia`:
// `ringback`, `moh` or `silence`, built-ins the request names, never a URL): μ-law audio made here
// from the hold's first frame, so the same hold always gives the same bytes (docs/decisions.md
// "Agent SDK", warm transfers).
//   ringback: the Korean ring-back tone, 440 Hz + 480 Hz, 1 s on, 2 s off;
//   moh:      a built-in tune, four notes of 400 ms looping (C5 E5 G5 E5), each faded in and out;
//   silence:  nothing (the line stays quiet).
import { encode } from '../../peers/speech/mulaw.ts';
import type { HOLD_MEDIA } from './control-messages.ts';

export type HoldMedia = (typeof HOLD_MEDIA)[number];

const RATE = 8000;
const SAMPLES_PER_FRAME = 160;
const RINGBACK = { low: 440, high: 480, onMs: 1000, periodMs: 3000, amplitude: 4000 } as const;
const TUNE = { notes: [523.25, 659.25, 783.99, 659.25], noteMs: 400, fadeMs: 20, amplitude: 6000 } as const;

/** One sample of the ring-back tone, `n` samples from the hold's start. */
function ringbackSample(n: number): number {
  const ms = (n * 1000) / RATE;
  if (ms % RINGBACK.periodMs >= RINGBACK.onMs) return 0;
  const t = n / RATE;
  return RINGBACK.amplitude * (Math.sin(2 * Math.PI * RINGBACK.low * t) + Math.sin(2 * Math.PI * RINGBACK.high * t));
}

/** One sample of the tune, `n` samples from the hold's start. */
function tuneSample(n: number): number {
  const noteSamples = (TUNE.noteMs * RATE) / 1000;
  const fade = (TUNE.fadeMs * RATE) / 1000;
  const k = Math.floor(n / noteSamples);
  const within = n - k * noteSamples;
  const gain = Math.min(1, within / fade, (noteSamples - within) / fade);
  const freq = TUNE.notes[k % TUNE.notes.length]!;
  return TUNE.amplitude * gain * Math.sin((2 * Math.PI * freq * within) / RATE);
}

/** `frames` frames (20 ms each) of the hold media as μ-law bytes; empty for silence. */
export function holdAudio(media: HoldMedia, frames: number): Buffer {
  if (media === 'silence' || frames <= 0) return Buffer.alloc(0);
  const sample = media === 'ringback' ? ringbackSample : tuneSample;
  const pcm = new Int16Array(frames * SAMPLES_PER_FRAME);
  for (let n = 0; n < pcm.length; n++) pcm[n] = Math.round(sample(n));
  return encode(pcm);
}
