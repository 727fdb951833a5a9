// Recording audio: real WAV files (RIFF, PCM 16-bit, mono, 8 kHz: the reference SDK's "server-side
// mix" format) generated on demand from a recording's stored length and seed, so no audio bytes
// are ever kept in the state. The sound is a deterministic series of tones and short pauses, one
// tone per half second, which a player shows with the right duration. A whole-call file holds at
// most MAX_WHOLE_SECONDS (the model cuts the pieces), so no download grows without bound.
import { SeededRandom, textSeed } from '../../core/random.ts';
import { WAV_HEADER_BYTES, wavHeader } from '../../peers/speech/wav.ts';

export const SAMPLE_RATE = 8000;
const BYTES_PER_SAMPLE = 2;
export { WAV_HEADER_BYTES } from '../../peers/speech/wav.ts';
/** The longest whole-call recording: an hour (57.6 MB); a flow that records in a loop keeps its first hour. */
export const MAX_WHOLE_SECONDS = 3600;

/** A 32-bit seed from the parts (core textSeed), for per-recording generators that do not touch rt.random. */
export function seedOf(...parts: (string | number)[]): number {
  return textSeed(parts.join('\u0000'));
}

/** One recorded piece: `seconds` of audio from its own seed. */
export interface AudioPiece {
  seconds: number;
  seed: number;
}

/** The WAV file of the pieces played one after another. */
export function wavFile(pieces: readonly AudioPiece[]): Buffer {
  const samples = pieces.reduce((n, p) => n + p.seconds * SAMPLE_RATE, 0);
  const dataBytes = samples * BYTES_PER_SAMPLE;
  const buf = Buffer.alloc(WAV_HEADER_BYTES + dataBytes);
  wavHeader(dataBytes, SAMPLE_RATE).copy(buf, 0);
  let at = WAV_HEADER_BYTES;
  for (const p of pieces) {
    const random = new SeededRandom(p.seed);
    for (let h = 0; h < p.seconds * 2; h++) {
      const silent = random.int(0, 4) === 0;
      const tone = halfSecondTone(random.int(200, 800));
      if (!silent) tone.copy(buf, at); // silence is the zeros Buffer.alloc left
      at += tone.length;
    }
  }
  return buf;
}

/** Half a second of a tone at a quarter of full scale, faded in and out over 10 ms (no clicks), as little-endian samples; one per frequency, made once. */
const tones = new Map<number, Buffer>();
function halfSecondTone(freq: number): Buffer {
  let tone = tones.get(freq);
  if (tone) return tone;
  const half = SAMPLE_RATE / 2;
  tone = Buffer.alloc(half * BYTES_PER_SAMPLE);
  for (let i = 0; i < half; i++) {
    const edge = Math.min(i, half - 1 - i, 80) / 80;
    tone.writeInt16LE(Math.round(8192 * edge * Math.sin((2 * Math.PI * freq * i) / SAMPLE_RATE)), i * BYTES_PER_SAMPLE);
  }
  tones.set(freq, tone);
  return tone;
}
