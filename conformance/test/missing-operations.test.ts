// An operation the target does not serve is reported once as such, with the fix, instead of
// as an auth failure on every step that uses it; and the auth scenarios do not all hang on one
// operation, so marking it unsupported keeps the auth clauses covered.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Contract } from '../contract/contract.ts';
import { computeCoverage } from '../report/coverage.ts';
import { allAssertions } from '../result.ts';
import { runConformance } from '../run.ts';
import { loadScenarios, scenarioFiles } from '../scenario/load.ts';
import { remoteTarget } from '../target.ts';
import { catalogue, SEED, TMP } from './helpers.ts';
import { json, stubServer, type StubServer } from './stub-server.ts';

const MAIN = { accountId: 'AC1', key: 'sk_stub_main_0000' };

/** Serves every list empty with the key, 401 without it, and no caller block list at all. */
async function vendor(): Promise<StubServer> {
  return stubServer((req, res) => {
    if (req.url!.includes('/blocked-callers')) {
      res.writeHead(404, { 'content-type': 'text/html' });
      return res.end('<html><body>Not Found</body></html>');
    }
    if (req.headers.authorization !== `Bearer ${MAIN.key}`) return json(res, 401, { error: 'unauthorized' });
    if (req.method === 'GET' && !/\/(usage|[A-Za-z]{2}[0-9a-f]{6,})($|\?)/.test(req.url!)) return json(res, 200, { data: [], meta: { page: 0, pageSize: 20, total: 0 } });
    return json(res, 404, { error: 'not found' });
  });
}

async function runAuth(url: string, overrides = {}) {
  const contract = Contract.load(undefined, overrides);
  const scenarios = loadScenarios(scenarioFiles(['scenarios/auth/missing-or-invalid-key.yaml']), { contract, clauses: catalogue });
  const target = remoteTarget({ baseUrl: url, accounts: new Map([['main', MAIN]]), timeoutMs: 2000 });
  try {
    return await runConformance({ target, contract, clauses: catalogue, scenarios, seed: SEED, replayDir: path.join(TMP, 'missing') });
  } finally {
    await target.close();
  }
}

describe('an operation the target does not serve', () => {
  let stub: StubServer;
  beforeAll(async () => {
    stub = await vendor();
  });
  afterAll(() => stub.close());

  it('is reported once as missing, with the fix, and never as an auth failure', async () => {
    const report = await runAuth(stub.url);
    const failed = [...allAssertions(report.units)].filter((x) => x.assertion.outcome === 'fail');
    // Every failure is a missing operation, each reported once (the block list's create and get are missing too).
    expect(new Set(failed.map((x) => x.assertion.id))).toEqual(new Set(['operation-missing']));
    const ops = failed.map((x) => /operation (\w+)/.exec(x.assertion.message!)![1]);
    expect(ops).toEqual([...new Set(ops)]);
    expect(ops).toContain('listBlockedCallers');
    expect(failed.map((x) => x.assertion.message).join('\n')).not.toMatch(/expected 401/);
    const message = failed.find((x) => x.assertion.message!.includes('listBlockedCallers'))!.assertion.message!;
    expect(message).toMatch(/operation listBlockedCallers \(GET \/v1\/accounts\/\{accountId\}\/blocked-callers\) is not at this target/);
    expect(message).toMatch(/map it in the target file .* or mark it unsupported/);
    expect(failed[0]!.assertion.clauses).toEqual([]);
    const unit = report.units[0]!;
    const later = unit.steps.filter((s) => s.skipReason?.includes('listBlockedCallers is not at this target'));
    expect(later.length).toBeGreaterThan(0);
    // The other operations still earn the auth clauses.
    const covered = computeCoverage(report.units, catalogue).clauses.filter((c) => c.state === 'covered').map((c) => c.clause.id);
    expect(covered).toEqual(expect.arrayContaining(['auth.bearer-required', 'auth.invalid-key', 'errors.401']));
  });

  it('marked unsupported in the target file, it leaves the auth clauses covered and the scenario passing', async () => {
    const report = await runAuth(stub.url, { listBlockedCallers: { unsupported: true }, getBlockedCaller: { unsupported: true }, createBlockedCaller: { unsupported: true } });
    expect(report.units[0]!.status).toBe('passed');
    expect(report.summary.exitCode).toBe(0);
    const covered = computeCoverage(report.units, catalogue).clauses.filter((c) => c.state === 'covered').map((c) => c.clause.id);
    expect(covered).toEqual(expect.arrayContaining(['auth.bearer-required', 'auth.invalid-key', 'errors.401']));
  });
});
