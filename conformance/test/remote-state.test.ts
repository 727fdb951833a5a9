// Resets against a served simulator, over HTTP: a scenario that resets the whole target runs only
// where resets are allowed; then the kit saves the state first (GET /_sim/state), makes again the
// given accounts the reset removed (with their keys), and puts the state back after
// (PUT /_sim/state), so accounts made through POST /_sim/accounts keep working for the rest of the
// run and afterwards. resetBetweenScenarios starts each scenario from the state the run found.
// A state read refused while a call is still live is asked again once it has ended.
import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { createSimulator } from '../../simulator/index.ts';
import { runConformance } from '../run.ts';
import { loadScenarios, scenarioFiles } from '../scenario/load.ts';
import { remoteTarget } from '../target.ts';
import { catalogue, contract } from './helpers.ts';

const load = (...globs: string[]) => loadScenarios(scenarioFiles(globs), { contract, clauses: catalogue });

async function served() {
  const sim = createSimulator({ onDefect: () => {} });
  const server = await sim.listen(0);
  const shop = await sim.control.createAccount({ plan: 'business', addons: ['external_assignment', 'sip_trunk', 'representative_number'], numbers: 1 });
  const bistro = await sim.control.createAccount({ plan: 'starter', numbers: 1 });
  const accounts = new Map([
    ['main', { accountId: shop.accountId, key: shop.apiKey }],
    ['alt', { accountId: bistro.accountId, key: bistro.apiKey }],
  ]);
  const status = async (key: string, accountId: string) => (await fetch(`${server.url}/v1/accounts/${accountId}/numbers`, { headers: { authorization: `Bearer ${key}` } })).status;
  return { sim, server, accounts, shop, bistro, status, close: async () => (await server.close(), await sim.close()) };
}

describe('resets against a served simulator', () => {
  it('are skipped unless allowed, with the reason', async () => {
    const s = await served();
    const target = remoteTarget({ baseUrl: s.server.url, accounts: s.accounts });
    try {
      const report = await runConformance({ target, contract, clauses: catalogue, scenarios: load('scenarios/recordings/download-wav.yaml'), seed: 3 });
      expect(report.units[0]!.status).toBe('skipped');
      expect(report.units[0]!.skipReason).toMatch(/target lacks capability "reset" \(.*allowReset: true in the target file or give --allow-reset/);
    } finally {
      await target.close();
      await s.close();
    }
  });

  it('keep the given accounts working during and after the scenario, and leave the state as it was', async () => {
    const s = await served();
    const target = remoteTarget({ baseUrl: s.server.url, accounts: s.accounts });
    try {
      const clockBefore = (await s.sim.control.request('GET', '/clock')) as { now: string };
      // download-wav resets, then its probes read with the second account's key.
      const report = await runConformance({ target, contract, clauses: catalogue, scenarios: load('scenarios/recordings/download-wav.yaml', 'scenarios/auth/other-account.yaml'), seed: 3, allowReset: true });
      expect(report.units.map((u) => [u.id, u.status])).toEqual([
        ['auth/other-account', 'passed'],
        ['recordings/download-wav', 'passed'],
      ]);
      const steps = report.units[1]!.steps.map((st) => st.name);
      expect(steps[steps.length - 1]).toBe('teardown: put back the state the scenario found');
      expect(await s.status(s.shop.apiKey, s.shop.accountId)).toBe(200);
      expect(await s.status(s.bistro.apiKey, s.bistro.accountId)).toBe(200);
      // The clock is where it was (the reset took it back to the fixture's, the restore forward again).
      expect(((await s.sim.control.request('GET', '/clock')) as { now: string }).now >= clockBefore.now).toBe(true);
    } finally {
      await target.close();
      await s.close();
    }
  });

  it('resetBetweenScenarios starts each scenario from the state the run found, and leaves that state at the end', async () => {
    const s = await served();
    const target = remoteTarget({ baseUrl: s.server.url, accounts: s.accounts, resetBetweenScenarios: true });
    try {
      const before = JSON.stringify(s.sim.snapshot());
      const report = await runConformance({ target, contract, clauses: catalogue, scenarios: load('scenarios/blocked-callers/create-and-read.yaml', 'scenarios/blocked-callers/list-filters.yaml'), seed: 5 });
      expect(report.units.map((u) => u.status)).toEqual(['passed', 'passed']);
      await target.close();
      expect(JSON.stringify(s.sim.snapshot())).toBe(before);
      expect(await s.status(s.shop.apiKey, s.shop.accountId)).toBe(200);
    } finally {
      await s.close();
    }
  });

  it('a state read refused with 409 STATE_HAS_LIVE_CALLS is asked again until the call has ended; any other refusal is an error at once', async () => {
    let refusals = 3;
    const asked: string[] = [];
    const server = http.createServer((req, res) => {
      asked.push(`${req.method} ${req.url}`);
      const live = req.url === '/live/_sim/state' && refusals-- > 0;
      const other = req.url === '/other/_sim/state';
      res.statusCode = live || other ? 409 : 200;
      res.setHeader('content-type', 'application/json');
      res.end(live ? '{"code":"STATE_HAS_LIVE_CALLS"}' : other ? '{"code":"CONFLICT"}' : '{"models":{}}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const live = remoteTarget({ baseUrl: `${url}/live`, accounts: new Map() });
    const other = remoteTarget({ baseUrl: `${url}/other`, accounts: new Map() });
    try {
      expect(await live.saveState!()).toEqual({ text: '{"models":{}}' });
      expect(asked.filter((a) => a === 'GET /live/_sim/state')).toHaveLength(4);
      await expect(other.saveState!()).rejects.toThrow(/GET \/_sim\/state answered 409: .*CONFLICT/);
      expect(asked.filter((a) => a === 'GET /other/_sim/state')).toHaveLength(1);
    } finally {
      await live.close();
      await other.close();
      await new Promise((r) => server.close(r));
    }
  });
});
