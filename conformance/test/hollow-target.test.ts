// A target that serves nothing (404 to every request, with a JSON error body or plain text)
// passes no unit: "an unknown id is 404", "HEAD answers like GET" and "no 5xx" hold there only
// because the operations are missing, so those units are skipped with operation-missing unless
// the target is shown to serve the operation (operation-presence.ts). Against the simulator,
// which does serve them, the same units pass.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { allProperties } from '../properties/index.ts';
import { runConformance } from '../run.ts';
import { remoteTarget, simTarget, type Target } from '../target.ts';
import { catalogue, contract, scenarios, SEED, TMP } from './helpers.ts';
import { json, stubServer, type StubHandler } from './stub-server.ts';

const HOLLOW_PASSED_BEFORE = ['blocked-callers/errors', 'conventions/head', 'no-server-error-fuzz'];
const HOLLOW: [string, StubHandler][] = [
  ['a JSON error body', (_req, res) => json(res, 404, { error: 'Not found' })],
  ['plain text', (_req, res) => (res.writeHead(404, { 'content-type': 'text/plain' }), res.end('Not Found'))],
];

async function wholeKit(target: Target) {
  return runConformance({ target, contract, clauses: catalogue, scenarios, properties: allProperties(contract), seed: SEED, replayDir: path.join(TMP, 'hollow') });
}

describe('a target that answers 404 to everything', () => {
  for (const [what, handler] of HOLLOW) {
    it(`(${what}) passes no unit; the units a 404 used to satisfy are skipped as operation-missing`, async () => {
      const stub = await stubServer(handler);
      const target = remoteTarget({ baseUrl: stub.url, accounts: new Map([['main', { accountId: 'AC1', key: 'sk_hollow_main_0001' }], ['alt', { accountId: 'AC2', key: 'sk_hollow_alt_0001' }]]) });
      try {
        const report = await wholeKit(target);
        expect(report.units.filter((u) => u.status === 'passed').map((u) => u.id)).toEqual([]);
        for (const id of HOLLOW_PASSED_BEFORE) {
          const u = report.units.find((x) => x.id === id)!;
          // A text 404 also fails the JSON checks; a JSON one with the error body leaves nothing to fail.
          expect(u.status, id).toBe(what === 'plain text' && u.status === 'failed' ? 'failed' : 'skipped');
          if (u.status === 'skipped') expect(u.skipReason, id).toMatch(/operation-missing/);
        }
      } finally {
        await target.close();
        await stub.close();
      }
    }, 120_000);
  }

  it('while the simulator, which serves those operations, passes them', async () => {
    const target = simTarget({ seed: SEED });
    try {
      const report = await runConformance({ target, contract, clauses: catalogue, scenarios: scenarios.filter((s) => HOLLOW_PASSED_BEFORE.includes(s.id)), properties: allProperties(contract).filter((p) => HOLLOW_PASSED_BEFORE.includes(p.id)), seed: SEED });
      expect(report.units.map((u) => [u.id, u.status])).toEqual(HOLLOW_PASSED_BEFORE.map((id) => [id, 'passed']));
    } finally {
      await target.close();
    }
  });
});
