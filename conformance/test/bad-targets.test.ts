// A target that hangs, resets every connection, answers HTML or 10 MB bodies: every unit ends
// with a clear failure within its time budget, the run exits 1, and nothing crashes or hangs.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fuzzProperty } from '../properties/fuzz.ts';
import { runConformance } from '../run.ts';
import { loadScenarios, scenarioFiles } from '../scenario/load.ts';
import { remoteTarget } from '../target.ts';
import { catalogue, contract, SEED, TMP } from './helpers.ts';
import { stubServer, type StubHandler } from './stub-server.ts';

const HUGE = Buffer.from(`{"data":[${'"x",'.repeat(2_600_000)}"x"]}`);
const BAD: [string, StubHandler, RegExp][] = [
  ['hangs', () => {}, /no answer: .*(Timeout|timed out)|target unreachable/i],
  ['resets', (req) => req.socket.destroy(), /no answer: .*(other side closed|socket|ECONNRESET)|target unreachable/i],
  ['answers HTML', (_req, res) => { res.writeHead(200, { 'content-type': 'text/html' }); res.end('<html><body>Welcome</body></html>'); }, /expected 401, got 200|not (valid )?JSON|content.type/i],
  ['answers 10 MB', (_req, res) => { res.writeHead(200, { 'content-type': 'application/json' }); res.end(HUGE); }, /body is over 1048576 bytes|target unreachable/],
];

describe('a target that misbehaves', () => {
  const scenarios = loadScenarios(scenarioFiles(['scenarios/auth/*.yaml', 'scenarios/conventions/paths.yaml', 'scenarios/usage/read-only.yaml']), { contract, clauses: catalogue });
  for (const [what, handler, reason] of BAD) {
    it(`${what}: every unit fails (or is skipped) with a clear reason, quickly, exit 1`, async () => {
      const stub = await stubServer(handler);
      const target = remoteTarget({ baseUrl: stub.url, accounts: new Map([['main', { accountId: 'AC1', key: 'sk_stub_main_0000' }]]), timeoutMs: 400 });
      const started = Date.now();
      try {
        const report = await runConformance({ target, contract, clauses: catalogue, scenarios, properties: [fuzzProperty(contract)], seed: SEED, replayDir: path.join(TMP, 'bad') });
        expect(report.summary.exitCode).toBe(1);
        expect(report.units.filter((u) => u.status === 'passed').map((u) => u.id)).toEqual([]);
        for (const u of report.units.filter((x) => x.status === 'failed')) {
          const messages = u.steps.flatMap((s) => s.assertions.filter((a) => a.outcome === 'fail').map((a) => a.message ?? ''));
          expect(messages.some((m) => reason.test(m)), `${u.id}: ${messages.slice(0, 3).join(' | ')}`).toBe(true);
        }
        expect(report.units.filter((u) => u.status === 'failed').length).toBeGreaterThan(0);
        expect(Date.now() - started).toBeLessThan(60_000);
      } finally {
        await target.close();
        await stub.close();
      }
    });
  }
});
