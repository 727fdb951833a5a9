// `diff --a --b` runs the same scenarios against two targets and reports every difference:
// none between two simulators, and against a vendor that orders a list the other way and names
// its errors differently, the order (a spec-level difference: exit 1) and the codes (sim level).
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSimulator } from '../../simulator/index.ts';
import { main } from '../cli.ts';
import { stubServer, type StubServer } from './stub-server.ts';

function io(env: NodeJS.ProcessEnv) {
  let out = '';
  let err = '';
  return { io: { out: { write: (s: string) => (out += s) }, err: { write: (s: string) => (err += s) }, env }, out: () => out, err: () => err };
}

const ENV = { CONFORMANCE_ACCOUNT: 'AC1a2b3c4d', CONFORMANCE_KEY: 'sk_test_acme_4f9c2b7e1d3a5c8f', CONFORMANCE_ALT_ACCOUNT: 'AC5e6f7a8b', CONFORMANCE_ALT_KEY: 'sk_test_bistro_9a8b7c6d5e4f3a2b' };
const SCENARIOS = ['scenarios/blocked-callers/newest-first.yaml', 'scenarios/auth/missing-or-invalid-key.yaml'];

describe('diff', () => {
  const sim = createSimulator({ seed: 20261121 });
  let served: { url: string; close(): Promise<void> };
  let vendor: StubServer;
  beforeAll(async () => {
    served = await sim.listen(0);
    // A vendor in front of the simulator: lists oldest first, its own error codes.
    vendor = await stubServer(async (req, res, body) => {
      const headers: Record<string, string> = {};
      for (const k of ['authorization', 'content-type']) if (req.headers[k]) headers[k] = String(req.headers[k]);
      const r = await fetch(served.url + req.url, { method: req.method, headers, body: body || undefined });
      let text = await r.text();
      const json = text ? JSON.parse(text) : undefined;
      if (json && Array.isArray(json.data) && req.url!.includes('/blocked-callers')) json.data.reverse();
      if (json && r.status >= 400) json.code = `vendor_${r.status}`;
      if (json) text = JSON.stringify(json);
      res.writeHead(r.status, { 'content-type': r.headers.get('content-type') ?? 'application/json' });
      res.end(text);
    });
  });
  afterAll(async () => {
    await vendor.close();
    await served.close();
    await sim.close();
  });

  it('finds no difference between the in-process and the served simulator', async () => {
    const a = io(ENV);
    const code = await main(['diff', '--a', 'sim', '--b', served.url, '--seed', '7', ...SCENARIOS], a.io);
    expect(code, a.out()).toBe(0);
    expect(a.out()).not.toMatch(/diff[.:]/);
  });

  it('reports the vendor\'s order as a spec difference and its codes as observations, in every report format', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'diff-'));
    const a = io(ENV);
    const code = await main(['diff', '--a', 'sim', '--b', vendor.url, '--seed', '7', ...SCENARIOS, '--report', `json:${dir}/d.json,md:${dir}/d.md,junit:${dir}/d.xml`], a.io);
    expect(code, a.out()).toBe(1);
    const report = JSON.parse(readFileSync(`${dir}/d.json`, 'utf8'));
    const all = report.units.flatMap((u: { steps: { assertions: { id: string; level: string; outcome: string; message: string }[] }[] }) => u.steps.flatMap((s) => s.assertions));
    expect(all.some((x: { message: string; outcome: string }) => /in another order/.test(x.message))).toBe(true);
    expect(all.some((x: { id: string; outcome: string }) => x.id === 'diff:expect.body' && x.outcome === 'fail')).toBe(true);
    expect(all.some((x: { message: string; outcome: string }) => /vendor_401/.test(x.message) && x.outcome === 'observation')).toBe(true);
    expect(readFileSync(`${dir}/d.md`, 'utf8')).toMatch(/# Conformance report: A sim vs B http/);
    expect(readFileSync(`${dir}/d.xml`, 'utf8')).toMatch(/<failure/);
  });
});
