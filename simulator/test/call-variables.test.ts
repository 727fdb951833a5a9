// A call's start variables are refused over 8 KB of JSON, counted in UTF-8 bytes: the quick
// bound that skips writing small variables out must not let a large one through, nor refuse
// one that fits (3-byte Hangul and escaped quotes count as what they take). And `callflow.ended`'s
// variables written out directly (announce.ts plainJson) are JSON.stringify's text exactly,
// or left to it (property, fast-check with the fixed seed of setup.ts).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { startVariables } from '../resources/calls/variables.ts';
import { plainJson, variablesWithinLimit } from '../resources/calls/announce.ts';

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

describe('callflow.ended variables as JSON', () => {
  it('writes printable ASCII records as JSON.stringify does, and leaves any other to it', () => {
    const text = fc.oneof(fc.string({ maxLength: 12 }), fc.string({ unit: 'binary', maxLength: 6 }), fc.constantFrom('', '"', '\\', '\n', '\u007f', '\ud800', '한', '__proto__', '1', '07012340001'));
    fc.assert(
      fc.property(fc.array(fc.tuple(text, fc.oneof(text, fc.integer())), { maxLength: 6 }), (entries) => {
        const vars: Record<string, unknown> = {};
        for (const [k, v] of entries) Object.defineProperty(vars, k, { value: v, enumerable: true, writable: true, configurable: true });
        const plain = plainJson(vars);
        if (plain !== undefined) expect(plain).toBe(JSON.stringify(vars));
        expect(variablesWithinLimit(vars as Record<string, string>).json).toBe(JSON.stringify(vars));
      }),
    );
    expect(plainJson({ caller: '07012340001', callee: '01020000000', name: 'c0' })).toBe('{"caller":"07012340001","callee":"01020000000","name":"c0"}');
    expect(plainJson({ q: 'say "hi"' })).toBeUndefined();
    expect(plainJson({})).toBe('{}');
  });
});
