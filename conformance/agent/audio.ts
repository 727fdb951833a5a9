// Audio the kit's agent sends and reads on a media socket: 8 kHz μ-law, 160 bytes per 20 ms.
// The kit's own G.711 reading (decoding by the recommendation's formula; encoding picks the
// nearest code, a different path from any encoder it tests), so a target's audio is judged by
// code that is not the target's.

export const FRAME_BYTES = 160;
export const SILENCE = 0xff;

function decodeCode(code: number): number {
  const u = ~code & 0xff;
  const exponent = (u >> 4) & 0x07;
  const magnitude = ((((u & 0x0f) << 3) + 0x84) << exponent) - 0x84;
  return u & 0x80 ? -magnitude : magnitude;
}

const LEVELS = Array.from({ length: 256 }, (_, c) => decodeCode(c));

/** The μ-law code whose level is nearest the sample. */
export function nearestCode(sample: number): number {
  let best = SILENCE;
  let bestError = Infinity;
  for (let c = 0; c < 256; c++) {
    const e = Math.abs(LEVELS[c]! - sample);
    if (e < bestError) {
      bestError = e;
      best = c;
    }
  }
  return best;
}

/** Linear level of a code. */
export function level(code: number): number {
  return LEVELS[code & 0xff]!;
}

/** `ms` of a sine tone at `hz` (a third of full scale) as μ-law, starting at phase 0. */
export function tone(hz: number, ms: number): Buffer {
  const n = Math.round((ms * 8000) / 1000);
  const out = Buffer.alloc(n);
  const codes = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    const s = Math.round(10_922 * Math.sin((2 * Math.PI * hz * i) / 8000));
    let c = codes.get(s);
    if (c === undefined) codes.set(s, (c = nearestCode(s)));
    out[i] = c;
  }
  return out;
}

/** `ms` of μ-law silence. */
export function silence(ms: number): Buffer {
  return Buffer.alloc(Math.round((ms * 8000) / 1000), SILENCE);
}

/** Root mean square level of μ-law audio (0 for silence). */
export function rms(audio: Uint8Array): number {
  if (audio.length === 0) return 0;
  let sum = 0;
  for (const c of audio) sum += level(c) ** 2;
  return Math.sqrt(sum / audio.length);
}
