// Validators kept between runs as ajv's standalone code: the kept code answers like the validator
// it was made from (verdicts and errors, formats included), a key never seen compiles, and a
// damaged entry is compiled again rather than trusted.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { keptValidator } from '../contract/kept-validators.ts';
import { newAjv } from '../contract/validator.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'kept-validators-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SCHEMA = {
  type: 'object',
  required: ['id', 'at'],
  additionalProperties: false,
  properties: { id: { type: 'string', pattern: '^CA[0-9]+$' }, at: { type: 'string', format: 'date-time' }, n: { type: 'integer', minimum: 1 } },
};
const VALUES = [{ id: 'CA1', at: '2026-01-01T00:00:00Z' }, { id: 'X', at: 'yesterday', n: 0, extra: true }, { at: '2026-01-01T00:00:00Z' }, 'text'];

function compiled() {
  const ajv = newAjv(true);
  return { ajv, validate: ajv.compile(SCHEMA) };
}

describe('validators kept between runs', () => {
  it('the kept code answers as the compiled validator does, without compiling', () => {
    const first = keptValidator('schema-a', compiled, dir);
    let compiles = 0;
    const again = keptValidator('schema-a', () => (compiles++, compiled()), dir);
    expect(compiles).toBe(0);
    expect(again).not.toBe(first);
    for (const v of VALUES) {
      expect(again(v)).toBe(first(v));
      expect(again.errors ?? null).toEqual(first.errors ?? null);
    }
    expect(first(VALUES[1])).toBe(false);
    expect(first.errors!.map((e) => e.keyword).sort()).toEqual(['additionalProperties', 'format', 'minimum', 'pattern']);
  });

  it('another key compiles; a damaged entry is compiled again and replaced', () => {
    let compiles = 0;
    keptValidator('schema-b', () => (compiles++, compiled()), dir);
    expect(compiles).toBe(1);
    for (const f of readdirSync(dir)) writeFileSync(path.join(dir, f), 'module.exports = (');
    const validate = keptValidator('schema-b', () => (compiles++, compiled()), dir);
    expect(compiles).toBe(2);
    expect(validate(VALUES[0])).toBe(true);
    keptValidator('schema-b', () => (compiles++, compiled()), dir);
    expect(compiles).toBe(2);
  });
});
