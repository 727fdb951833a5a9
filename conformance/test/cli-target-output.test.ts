// What a vendor's CI sees: a key given as a flag is warned about (npm echoes the command line),
// a printed replay command runs against the same target, and a failure's whole message reaches
// the JSON and JUnit reports while the console shows the differing path first.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../cli.ts';
import { json, stubServer, type StubServer } from './stub-server.ts';

function io(env: NodeJS.ProcessEnv = {}) {
  let out = '';
  let err = '';
  return { io: { out: { write: (s: string) => (out += s) }, err: { write: (s: string) => (err += s) }, env }, out: () => out, err: () => err };
}

const KEY = 'sk_vendor_flag_secret_1234';
const LONG_ROWS = Array.from({ length: 12 }, (_, i) => ({ id: `BC${String(i).padStart(6, '0')}`, number: '01012345678', note: 'x'.repeat(40) }));

describe('the CLI against a vendor target', () => {
  let stub: StubServer;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'cli-vendor-'));
    stub = await stubServer((req, res) => {
      // The list answers a wrong page deep inside a long body; everything else is a 500.
      if (req.method === 'GET' && req.url!.includes('/blocked-callers')) return json(res, 200, { data: LONG_ROWS, meta: { pageSize: 20, total: 12, page: -36730516 } });
      return json(res, 500, { error: 'boom' });
    });
  });
  afterAll(() => stub.close());

  it('warns when a key is given as a flag, and never prints it', async () => {
    const a = io();
    await main(['run', '--target', stub.url, '--account', 'AC1', '--key', KEY, '--tag', 'fuzz', '--seed', '3', '--replay-dir', dir], a.io);
    expect(a.err()).toMatch(/warning: --key puts a secret on the command line.*set CONFORMANCE_KEY instead/);
    expect(a.out() + a.err()).not.toContain(KEY);
    const b = io({ CONFORMANCE_ACCOUNT: 'AC1', CONFORMANCE_KEY: KEY });
    await main(['run', '--target', stub.url, '--tag', 'fuzz', '--seed', '3', '--replay-dir', dir], b.io);
    expect(b.err()).not.toMatch(/warning/);
  });

  it('prints a replay command (and writes a replay file) that targets the same URL', async () => {
    const a = io({ CONFORMANCE_ACCOUNT: 'AC1', CONFORMANCE_KEY: KEY });
    const code = await main(['run', '--target', stub.url, '--tag', 'fuzz', '--seed', '3', '--sim-level', 'observe', '--replay-dir', dir], a.io);
    expect(code).toBe(1);
    const m = /replay: (npm run conformance -- run (\S+) --seed 3 .*)/.exec(a.out());
    expect(m, a.out()).not.toBeNull();
    expect(m![1]).toContain(`--target ${stub.url}`);
    expect(m![1]).toContain('--sim-level observe');
    expect(readFileSync(m![2]!, 'utf8')).toContain(`--target ${stub.url}`);
  });

  it('keeps the whole message in the JSON and JUnit reports and shows the differing path first', async () => {
    const file = path.join(dir, 'page.yaml');
    const expected = { data: LONG_ROWS, meta: { pageSize: 20, total: 12, page: 0 } };
    writeFileSync(file, `description: a whole page\nclauses: [conventions.paging.meta-echo]\nsteps:\n  - request: { operationId: listBlockedCallers }\n    expect: { body: { $eq: ${JSON.stringify(expected)} } }\n`);
    const a = io({ CONFORMANCE_ACCOUNT: 'AC1', CONFORMANCE_KEY: KEY });
    const code = await main(['run', file, '--target', stub.url, '--report', `json:${dir}/r.json,junit:${dir}/r.xml`], a.io);
    expect(code).toBe(1);
    expect(a.out()).toMatch(/body: differs at body\.meta\.page: expected 0, got -36730516/);
    const report = JSON.parse(readFileSync(`${dir}/r.json`, 'utf8'));
    const message: string = report.units[0].steps[0].assertions.find((x: { id: string }) => x.id === 'expect.body').message;
    expect(message).toContain(JSON.stringify(LONG_ROWS));
    expect(message).toContain('"page":-36730516');
    expect(readFileSync(`${dir}/r.xml`, 'utf8')).toContain('&quot;page&quot;:-36730516');
  });
});
