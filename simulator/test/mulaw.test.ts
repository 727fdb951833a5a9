// G.711 μ-law codec: reference code points from the recommendation's tables, round trips within
// the law's quantisation step (property, fixed seed), and the silence code.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { MULAW_SILENCE, decode, decodeSample, encode, encodeSample } from '../peers/speech/mulaw.ts';

describe('μ-law codec', () => {
  it('maps the recommendation reference points', () => {
    // Zero is 0xFF (positive zero); full scale saturates at 0x80 / 0x00; -1 is the negative zero 0x7F.
    expect(encodeSample(0)).toBe(0xff);
    expect(encodeSample(-1)).toBe(0x7f);
    expect(encodeSample(32767)).toBe(0x80);
    expect(encodeSample(-32768)).toBe(0x00);
    expect(decodeSample(0xff)).toBe(0);
    expect(decodeSample(0x7f)).toBe(0);
    expect(decodeSample(0x80)).toBe(32124);
    expect(decodeSample(0x00)).toBe(-32124);
    // Segment 0 reconstructs in steps of 8 from 0; segment 1 starts at 132.
    expect(decodeSample(0xfe)).toBe(8);
    expect(decodeSample(0xef)).toBe(132);
    expect(MULAW_SILENCE).toBe(encodeSample(0));
  });

  it('decoding then encoding gives back every code except the negative zero', () => {
    for (let code = 0; code < 256; code++) {
      const back = encodeSample(decodeSample(code));
      expect(back).toBe(code === 0x7f ? 0xff : code);
    }
  });

  it('a sample survives the round trip within half its segment step (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: -32124, max: 32124 }), (s) => {
        const back = decodeSample(encodeSample(s));
        // The step of segment e is 2^(e+3); the error is at most one step.
        const step = 2 ** (Math.floor(Math.log2((Math.abs(s) + 132) / 132)) + 3);
        expect(Math.abs(back - s)).toBeLessThanOrEqual(step);
        expect(Math.sign(back) === Math.sign(s) || back === 0 || Math.abs(s) < 8).toBe(true);
      }),
    );
  });

  it('encodes and decodes buffers sample by sample', () => {
    const samples = Int16Array.from([0, 1000, -1000, 32767, -32768]);
    const codes = encode(samples);
    expect([...codes]).toEqual([...samples].map(encodeSample));
    expect([...decode(codes)]).toEqual([...codes].map(decodeSample));
  });
});
