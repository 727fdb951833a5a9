// A call's start variables are refused over 8 KB of JSON, counted in UTF-8 bytes: the quick
// bound that skips writing small variables out must not let a large one through, nor refuse
// one that fits (3-byte Hangul and escaped quotes count as what they take).
import { describe, expect, it } from 'vitest';
import { startVariables } from '../resources/calls/variables.ts';

describe('start variables size', () => {
  it('accepts what fits in 8 KB of JSON and refuses what does not, in bytes', () => {
    expect(startVariables({ name: 'c1', n: 7 })).toEqual({ name: 'c1', n: '7' });
    expect(() => startVariables({ big: 'x'.repeat(8170) })).not.toThrow(); // 8,181 bytes with braces, quotes and key
    expect(() => startVariables({ big: 'x'.repeat(8190) })).toThrow(/over 8192 bytes/);
    expect(() => startVariables({ big: '한'.repeat(2700) })).not.toThrow(); // 8,100 bytes of Hangul
    expect(() => startVariables({ big: '한'.repeat(2740) })).toThrow(/over 8192 bytes/); // 2,740 characters, 8,220 bytes
    expect(() => startVariables({ q: '"'.repeat(4095) })).toThrow(/over 8192 bytes/); // each quote escaped: 2 bytes
    expect(() => startVariables({ q: '"'.repeat(4080) })).not.toThrow();
  });
});
