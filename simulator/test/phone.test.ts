import { describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { normalizePhone, PHONE_PATTERN, tryNormalizePhone } from '../core/phone.ts';
import { ApiError } from '../core/errors.ts';

describe('phone normalisation (spec Conventions 4)', () => {
  const accepted: [string, string][] = [
    ['01012345678', '01012345678'],
    ['010-1234-5678', '01012345678'],
    ['010 1234 5678', '01012345678'],
    ['(010) 1234.5678', '01012345678'],
    ['+82 10-1234-5678', '01012345678'],
    ['+821012345678', '01012345678'],
    ['+82 010 1234 5678', '01012345678'],
    ['0082-10-1234-5678', '01012345678'],
    ['02-123-4567', '021234567'],
    ['02-1234-5678', '0212345678'],
    ['+82 2 1234 5678', '0212345678'],
    ['031-123-4567', '0311234567'],
    ['070-1234-0001', '07012340001'],
    ['0505-123-4567', '05051234567'],
    ['1644-1234', '16441234'],
    ['1899 0000', '18990000'],
    ['1588-1234', '15881234'],
    ['+82 1588 1234', '15881234'],
    ['011-123-4567', '0111234567'],
  ];
  for (const [input, out] of accepted) {
    it(`"${input}" -> ${out}`, () => expect(normalizePhone(input)).toBe(out));
  }

  const refused: [string, string][] = [
    ['+1 415 555 0100', 'UNSUPPORTED_COUNTRY'],
    ['+81 90 1234 5678', 'UNSUPPORTED_COUNTRY'],
    ['001-1-415-555-0100', 'UNSUPPORTED_COUNTRY'],
    ['1012345678', 'INVALID_PHONE_NUMBER'],
    ['010-1234-567', 'INVALID_PHONE_NUMBER'],
    ['010-1234-56789', 'INVALID_PHONE_NUMBER'],
    ['abc', 'INVALID_PHONE_NUMBER'],
    ['010x12345678', 'INVALID_PHONE_NUMBER'],
    ['', 'INVALID_PHONE_NUMBER'],
    ['   ', 'INVALID_PHONE_NUMBER'],
    ['+82', 'INVALID_PHONE_NUMBER'],
    ['099-123-4567', 'INVALID_PHONE_NUMBER'],
    ['018-123-4567', 'INVALID_PHONE_NUMBER'],
    ['015-1234-5678', 'INVALID_PHONE_NUMBER'],
    ['080-123-4567', 'INVALID_PHONE_NUMBER'],
    ['8210-1234-5678', 'INVALID_PHONE_NUMBER'],
    ['1488-1234', 'INVALID_PHONE_NUMBER'],
    ['12345', 'INVALID_PHONE_NUMBER'],
  ];
  for (const [input, code] of refused) {
    it(`"${input}" is refused with ${code}`, () => {
      const r = tryNormalizePhone(input);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.code).toBe(code);
      try {
        normalizePhone(input);
        expect.unreachable();
      } catch (e) {
        expect(e).toBeInstanceOf(ApiError);
        expect((e as ApiError).status).toBe(400);
        expect((e as ApiError).code).toBe(code);
      }
    });
  }

  it('refuses non-strings', () => {
    expect(tryNormalizePhone(1012345678).ok).toBe(false);
    expect(tryNormalizePhone(null).ok).toBe(false);
  });

  it('refuses a missing number before any text was accepted (nothing remembered yet)', async () => {
    vi.resetModules();
    const fresh = await import('../core/phone.ts');
    expect(fresh.tryNormalizePhone(undefined).ok).toBe(false);
  });

  it('answers a text asked again (its last accepted text is remembered) as the first time, and nothing else with it', () => {
    for (const [input, out] of [['070-1234-0001', '07012340001'], ['+82 2 123 4567', '021234567']]) {
      expect(tryNormalizePhone(input)).toEqual({ ok: true, number: out });
      expect(tryNormalizePhone(input)).toEqual({ ok: true, number: out });
      expect(tryNormalizePhone(`${input}x`).ok).toBe(false);
      expect(tryNormalizePhone(undefined).ok).toBe(false);
      expect(tryNormalizePhone(new String(input)).ok).toBe(false);
      expect(tryNormalizePhone(input)).toEqual({ ok: true, number: out });
    }
  });

  it('PHONE_PATTERN (the OpenAPI pattern) accepts exactly the numbers normalisation accepts', () => {
    const pattern = new RegExp(PHONE_PATTERN, 'u');
    const same = (s: string) => {
      expect(pattern.test(s), JSON.stringify(s)).toBe(tryNormalizePhone(s).ok);
    };
    fc.assert(fc.property(fc.stringMatching(new RegExp(PHONE_PATTERN)), same));
    const typed = fc.string({ unit: fc.constantFrom('0', '1', '2', '5', '7', '8', '9', '+', ' ', '-', '(', ')', '.', 'x'), maxLength: 16 });
    const plausible = fc.tuple(fc.constantFrom('', '+82', '+82 0', '0082', '+1', ' ', '('), fc.constantFrom('010', '011', '02', '031', '070', '050', '15', '19', '0'), fc.string({ unit: fc.constantFrom('0', '3', '9', '-', ' '), maxLength: 11 })).map((p) => p.join(''));
    fc.assert(fc.property(fc.oneof(typed, plausible), same), { numRuns: 2000 });
  });
});
