// `run --shard i/n` deals the units to n disjoint shards deterministically; `merge` joins their
// JSON reports into the verdict and coverage of one run.
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../cli.ts';
import { computeCoverage } from '../report/coverage.ts';
import type { RunReport } from '../result.ts';
import { inShard } from '../run.ts';
import { catalogue } from './helpers.ts';

function io() {
  let out = '';
  let err = '';
  return { io: { out: { write: (s: string) => (out += s) }, err: { write: (s: string) => (err += s) }, env: {} }, out: () => out, err: () => err };
}

const SELECTION = ['scenarios/auth/*.yaml', 'scenarios/conventions/*.yaml', 'scenarios/blocked-callers/*.yaml'];
const read = (f: string) => JSON.parse(readFileSync(f, 'utf8')) as RunReport;
const covered = (r: RunReport) => computeCoverage(r.units, catalogue).clauses.filter((c) => c.state === 'covered').map((c) => c.clause.id).sort();

describe('shards', () => {
  it('deal every unit to exactly one shard', () => {
    const units = Array.from({ length: 11 }, (_, i) => i);
    const shards = [1, 2, 3].map((index) => inShard(units, { index, count: 3 }));
    expect(shards.flat().sort((a, b) => a - b)).toEqual(units);
    expect(shards.map((s) => s.length)).toEqual([4, 4, 3]);
  });

  it('merged, give the same units, verdict and coverage as one run', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'shards-'));
    expect(await main(['run', ...SELECTION, '--report', `json:${dir}/whole.json`], io().io)).toBe(0);
    for (const i of [1, 2, 3]) expect(await main(['run', ...SELECTION, '--shard', `${i}/3`, '--report', `json:${dir}/s${i}.json`], io().io)).toBe(0);
    const shardUnits = [1, 2, 3].map((i) => read(`${dir}/s${i}.json`).units.map((u) => u.id));
    expect(new Set(shardUnits.flat()).size).toBe(shardUnits.flat().length);
    const m = io();
    expect(await main(['merge', `${dir}/s3.json`, `${dir}/s1.json`, `${dir}/s2.json`, '--report', `json:${dir}/merged.json,md:${dir}/merged.md`], m.io)).toBe(0);
    expect(m.out()).toMatch(/conformant for everything that ran/);
    const whole = read(`${dir}/whole.json`);
    const merged = read(`${dir}/merged.json`);
    expect(merged.units.map((u) => u.id)).toEqual(whole.units.map((u) => u.id));
    expect(merged.units.map((u) => u.status)).toEqual(whole.units.map((u) => u.status));
    expect(merged.summary.units).toEqual(whole.summary.units);
    expect(merged.summary.exitCode).toBe(whole.summary.exitCode);
    expect(covered(merged)).toEqual(covered(whole));
  });

  it('refuse a merge with a shard missing or given twice, and a bad --shard', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'shards-'));
    await main(['run', 'scenarios/auth/*.yaml', '--shard', '1/2', '--report', `json:${dir}/s1.json`], io().io);
    const a = io();
    expect(await main(['merge', `${dir}/s1.json`], a.io)).toBe(2);
    expect(a.err()).toMatch(/shard\(s\) 2\/2 missing/);
    const b = io();
    expect(await main(['merge', `${dir}/s1.json`, `${dir}/s1.json`], b.io)).toBe(2);
    expect(b.err()).toMatch(/given twice/);
    const c = io();
    expect(await main(['run', '--shard', '3/2'], c.io)).toBe(2);
    expect(c.err()).toMatch(/--shard is I\/N/);
  });
});
