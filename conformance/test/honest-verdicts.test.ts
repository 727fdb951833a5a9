// Every ✓ is earned: a unit whose assertions never ran (operations the target file marks
// unsupported, a target that never answers, expectations that were only sim-level
// observations) is skipped with the reason or failed, never passed, and coverage counts only
// clauses with a passing spec assertion that ran. Targets here are stubs nobody here wrote.
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Contract } from '../contract/contract.ts';
import { filterProperties } from '../properties/filters.ts';
import { fuzzProperty } from '../properties/fuzz.ts';
import { pagingProperties } from '../properties/paging.ts';
import { computeCoverage } from '../report/coverage.ts';
import { runConformance, type RunOptions } from '../run.ts';
import { loadScenario } from '../scenario/load.ts';
import { remoteTarget } from '../target.ts';
import { catalogue, SEED, TMP } from './helpers.ts';
import { closedPortUrl, json, stubServer, type StubServer } from './stub-server.ts';

const MAIN = { accountId: 'AC1', key: 'sk_stub_main_0000' };

async function runAgainst(url: string, opts: Partial<RunOptions> & { contract: Contract }) {
  const target = remoteTarget({ baseUrl: url, accounts: new Map([['main', MAIN]]), timeoutMs: 2000 });
  try {
    return await runConformance({ target, clauses: catalogue, scenarios: [], properties: [], seed: SEED, replayDir: path.join(TMP, 'honest'), ...opts });
  } finally {
    await target.close();
  }
}

describe('honest verdicts against a stub target', () => {
  let stub: StubServer;
  beforeAll(async () => {
    // Serves nothing: every path is a JSON 404.
    stub = await stubServer((_req, res) => json(res, 404, { error: 'no such route' }));
  });
  afterAll(() => stub.close());

  it('skips properties over operations the target file marks unsupported, and coverage does not count them', async () => {
    const contract = Contract.load(undefined, { listBlockedCallers: { unsupported: true }, createBlockedCaller: { unsupported: true } });
    const properties = [pagingProperties, filterProperties].map((ps) => ps.find((p) => p.id.endsWith('-listBlockedCallers'))!);
    const report = await runAgainst(stub.url, { contract, properties });
    expect(report.units.map((u) => [u.id, u.status])).toEqual([
      ['paging-listBlockedCallers', 'skipped'],
      ['filters-listBlockedCallers', 'skipped'],
    ]);
    for (const u of report.units) expect(u.skipReason).toMatch(/marks (listBlockedCallers|createBlockedCaller) unsupported/);
    const cov = computeCoverage(report.units, catalogue);
    expect(cov.clauses.filter((c) => c.state === 'covered').map((c) => c.clause.id)).toEqual([]);
    expect(report.summary.units.passed).toBe(0);
  });

  it('a unit whose own expectations were only sim-level observations is skipped with that reason', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'honest-'));
    const file = path.join(dir, 'sim-only.yaml');
    writeFileSync(
      file,
      'description: only a simulator choice\nclauses: [conventions.account-path-prefix]\nsteps:\n  - request: { method: GET, path: "/v1/accounts/{{ main.accountId }}/nothing-here" }\n    expectSim: { status: 400 }\n',
    );
    const contract = Contract.load();
    const scenario = loadScenario(file, { contract, clauses: catalogue, root: dir });
    const report = await runAgainst(stub.url, { contract, scenarios: [scenario], simLevel: 'observe' });
    expect(report.units[0]!.status).toBe('skipped');
    expect(report.units[0]!.skipReason).toMatch(/only sim-level observations/);
    expect(report.summary.exitCode).toBe(0);
  });
});

describe('a target that never answers', () => {
  it('fails the no-5xx fuzz with the transport error instead of passing it', async () => {
    const contract = Contract.load();
    const report = await runAgainst(await closedPortUrl(), { contract, properties: [fuzzProperty(contract)] });
    const unit = report.units[0]!;
    expect(unit.status).toBe('failed');
    expect(unit.steps.flatMap((s) => s.assertions).map((a) => a.message ?? '').join('\n')).toMatch(/no answer/);
    expect(report.summary.exitCode).toBe(1);
    expect(computeCoverage(report.units, catalogue).covered).toBe(0);
  });

  it('does not fuzz operations the target file marks unsupported', async () => {
    const ops = [...Contract.load().operations.values()].filter((op) => op.auth === 'account' || op.auth === 'key');
    const contract = Contract.load(undefined, Object.fromEntries(ops.map((op) => [op.operationId, { unsupported: true }])));
    const report = await runAgainst(await closedPortUrl(), { contract, properties: [fuzzProperty(contract)] });
    expect(report.units[0]!.status).toBe('skipped');
    expect(report.units[0]!.skipReason).toMatch(/unsupported/);
  });
});
