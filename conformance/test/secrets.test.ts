// The secret set hides every secret the run knows, wherever it shows, and finds one in a response.
import { describe, expect, it } from 'vitest';
import { SecretSet } from '../secrets.ts';

function secretsOf(...values: string[]): SecretSet {
  const s = new SecretSet();
  for (const v of values) s.add(v);
  return s;
}

describe('SecretSet', () => {
  it('replaces each occurrence, keeps the text around it, and ignores values too short to be told from ordinary text', () => {
    const s = secretsOf('sk_test_abc123', 'short');
    expect(s.redact('key sk_test_abc123, again sk_test_abc123.')).toBe('key ***, again ***.');
    expect(s.redact('short words stay')).toBe('short words stay');
    expect(s.redact('')).toBe('');
    expect(new SecretSet().redact('sk_test_abc123')).toBe('sk_test_abc123');
  });

  it('hides a secret that contains another whole, and overlapping secrets without showing a part of either', () => {
    const s = secretsOf('abcdef', 'abcdefghij', 'xxabcdef', 'efghijkl');
    expect(s.redact('[abcdefghij]')).toBe('[***]');
    expect(s.redact('[xxabcdefghij]')).toBe('[***]'); // xxabcdef overlaps abcdefghij
    expect(s.redact('[abcdefghijkl]')).toBe('[***]'); // abcdefghij overlaps efghijkl
    expect(s.redact('abcdefxxabcdef')).toBe('******'); // two in a row stay two
  });

  it('tells whether a text contains a secret, and which', () => {
    const s = secretsOf('hunter22', 'sk_test_abc123');
    expect(s.foundIn('{"password":"hunter22"}')).toBe('hunter22');
    expect(s.foundIn('nothing here')).toBeUndefined();
  });

  it('redacts strings and keys inside a value without touching numbers, and finds one key among hundreds that share its prefix', () => {
    const s = secretsOf('482913');
    expect(s.redactValue({ code: '482913', ms: 1.4829131, '482913': 'key' })).toEqual({ code: '***', ms: 1.4829131, '***': 'key' });
    // A run learns a key per account it makes, all starting with the same characters.
    const many = new SecretSet();
    for (let i = 0; i < 500; i++) many.add(`sk_test_${i.toString(16).padStart(32, '0')}`);
    const key = `sk_test_${(321).toString(16).padStart(32, '0')}`;
    expect(many.redact(`Bearer ${key} and sk_test_ not a key`)).toBe('Bearer *** and sk_test_ not a key');
  });
});
