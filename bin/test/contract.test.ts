// conformance/contract.json is built on the simulator's side (bin/contract.ts) and committed:
// it must be the simulator's /openapi.json as it is now, and the command says so.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONTRACT_PATH, contractIsCurrent, contractText, main } from '../contract.ts';

function io() {
  let out = '';
  let err = '';
  return { io: { out: { write: (s: string) => (out += s) }, err: { write: (s: string) => (err += s) } }, out: () => out, err: () => err };
}

describe('npm run contract', () => {
  it('the committed contract is current: regenerate with `npm run contract -- --write` after changing operations', async () => {
    expect(await contractIsCurrent()).toBe(true);
    const a = io();
    expect(await main(['--check'], a.io)).toBe(0);
    expect(a.out()).toMatch(/contract\.json is current\n$/);
  });

  it('notices a stale or missing file, and --write makes it current', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'contract-'));
    const stale = path.join(dir, 'contract.json');
    const text = await contractText();
    expect(readFileSync(CONTRACT_PATH, 'utf8')).toBe(text);
    writeFileSync(stale, text.replace('"openapi": "3.1.0"', '"openapi": "3.1.1"'));
    const a = io();
    expect(await main([], a.io, stale)).toBe(1);
    expect(a.out()).toMatch(/is stale: run `npm run contract -- --write`/);
    expect(await contractIsCurrent(path.join(dir, 'missing.json'))).toBe(false);
    expect(await main(['--write'], io().io, stale)).toBe(0);
    expect(readFileSync(stale, 'utf8')).toBe(text);
    const b = io();
    expect(await main(['--bogus'], b.io, stale)).toBe(2);
    expect(b.err()).toMatch(/^usage: npm run contract/);
  });
});
