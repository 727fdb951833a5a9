// G.711 μ-law (ITU-T G.711 §3, the North American/Japanese/Korean companding law): 16-bit linear
// PCM <-> 8-bit codes. The media streams of the Agent SDK and of VoiceML carry 8 kHz mono μ-law,
// 160 bytes per 20 ms frame; recordings decode it back to 16-bit PCM for WAV files. Pure, table
// driven, no allocation per sample beyond the output buffer.

/** The code of digital silence (a zero sample): what an idle line carries. */
export const MULAW_SILENCE = 0xff;

const BIAS = 0x84;
const CLIP = 32635;

/** The μ-law code of one 16-bit linear sample (rounded and clipped to the 16-bit range first). */
export function encodeSample(sample: number): number {
  let s = Math.max(-32768, Math.min(32767, Math.round(sample)));
  const sign = s < 0 ? 0x80 : 0;
  if (s < 0) s = -s;
  if (s > CLIP) s = CLIP;
  s += BIAS;
  let exponent = 7;
  for (let mask = 0x4000; (s & mask) === 0 && exponent > 0; exponent--, mask >>= 1);
  const mantissa = (s >> (exponent + 3)) & 0x0f;
  return ~(sign | (exponent << 4) | mantissa) & 0xff;
}

/** Decoding table: code -> 16-bit linear sample (G.711 reconstruction values). */
const DECODE = new Int16Array(256);
for (let code = 0; code < 256; code++) {
  const u = ~code & 0xff;
  const exponent = (u >> 4) & 0x07;
  const magnitude = ((((u & 0x0f) << 3) + BIAS) << exponent) - BIAS;
  DECODE[code] = u & 0x80 ? -magnitude : magnitude;
}

/** The 16-bit linear sample a μ-law code stands for. */
export function decodeSample(code: number): number {
  return DECODE[code & 0xff]!;
}

/** Encodes 16-bit samples to μ-law bytes, one byte per sample. */
export function encode(samples: Int16Array | readonly number[]): Buffer {
  const out = Buffer.allocUnsafe(samples.length);
  for (let i = 0; i < samples.length; i++) out[i] = encodeSample(samples[i]!);
  return out;
}

/** Decodes μ-law bytes to 16-bit samples. */
export function decode(codes: Uint8Array): Int16Array {
  const out = new Int16Array(codes.length);
  for (let i = 0; i < codes.length; i++) out[i] = DECODE[codes[i]!]!;
  return out;
}
