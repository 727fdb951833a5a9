// The CLI: commands, exit codes, usage errors on one line, reports in every format, coverage,
// and no secret in any output (terminal, JUnit, JSON, Markdown, replay files).
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSimulator } from '../../simulator/index.ts';
import { main } from '../cli.ts';

function io(env: NodeJS.ProcessEnv = {}) {
  let out = '';
  let err = '';
  return {
    io: { out: { write: (s: string) => (out += s) }, err: { write: (s: string) => (err += s) }, env },
    out: () => out,
    err: () => err,
  };
}

const KEYS = ['sk_test_acme_4f9c2b7e1d3a5c8f', 'sk_test_bistro_9a8b7c6d5e4f3a2b'];

describe('conformance CLI', () => {
  it('prints usage and refuses bad options with exit 2 and one line', async () => {
    const a = io();
    expect(await main([], a.io)).toBe(2);
    expect(a.out()).toMatch(/usage: npm run conformance/);
    for (const args of [['launch'], ['run', '--seed', 'x'], ['run', '--target', 'ftp://x'], ['run', '--target', 'http://127.0.0.1:9'], ['run', '--report', 'pdf:x'], ['run', '--bogus'], ['run', '--webhook-listen', 'localhost'], ['run', '--webhook-public-url', 'ftp://x']]) {
      const b = io();
      expect(await main(args, b.io), args.join(' ')).toBe(2);
      expect(b.err().trim().split('\n').length, b.err()).toBeLessThanOrEqual(2);
      expect(b.err()).not.toMatch(/\n\s+at /);
    }
  });

  it('reports loading problems with file and line, exit 2', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cli-load-'));
    const f = path.join(dir, 'bad.yaml');
    (await import('node:fs')).writeFileSync(f, 'description: x\nclauses: [auth.bearer-required]\nsteps:\n  - request: { operationId: nope }\n');
    const a = io();
    expect(await main(['validate', f], a.io)).toBe(2);
    expect(a.err()).toMatch(/bad\.yaml:4:\d+: unknown operationId "nope"/);
  });

  it('validates and lists the scenarios', async () => {
    const a = io();
    expect(await main(['validate'], a.io)).toBe(0);
    expect(a.out()).toMatch(/\d+ scenario\(s\) load without problems/);
  });

  it('runs selected scenarios, prints progress with times and a summary, writes every report, leaks no key', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cli-run-'));
    const a = io();
    const reports = `junit:${dir}/r.xml,json:${dir}/r.json,md:${dir}/r.md`;
    // Two clauses' units (six: the bad-key and other-account auth scenarios, which send both keys,
    // the Agent SDK's refusals, agents and TURN credentials): what this test proves is the CLI's
    // selection, progress lines, summary, reports and that no key shows in them, not the units,
    // which the whole kit runs in suite.test.ts. (It took `auth.*`, 19 units, at twice the CPU.)
    const code = await main(['run', '--clause', 'auth.invalid-key,auth.other-account-403', '--report', reports, '--replay-dir', dir], a.io);
    expect(code, a.out() + a.err()).toBe(0);
    expect(a.out()).toMatch(/✓ auth\/missing-or-invalid-key \d+ ms/);
    expect(a.out()).toMatch(/Summary/);
    expect(a.out()).not.toMatch(/blocked-recipients\/update-note/); // filtered out by --clause
    const json = JSON.parse(readFileSync(`${dir}/r.json`, 'utf8'));
    expect(json.summary.exitCode).toBe(0);
    expect(readFileSync(`${dir}/r.xml`, 'utf8')).toMatch(/<testsuites name="conformance" tests="\d+" failures="0"/);
    expect(readFileSync(`${dir}/r.md`, 'utf8')).toMatch(/## Clause coverage/);
    const everything = [a.out(), a.err(), ...readdirSync(dir).map((f) => readFileSync(path.join(dir, f), 'utf8'))].join('\n');
    for (const k of KEYS) expect(everything).not.toContain(k);
  });

  it('runs against a URL with keys from the environment and never prints them', async () => {
    const sim = createSimulator();
    const server = await sim.listen(0);
    try {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'cli-url-'));
      const a = io({ CONFORMANCE_ACCOUNT: 'AC1a2b3c4d', CONFORMANCE_KEY: KEYS[0], CONFORMANCE_ALT_ACCOUNT: 'AC5e6f7a8b', CONFORMANCE_ALT_KEY: KEYS[1] });
      const code = await main(['run', '--target', server.url, '--tag', 'auth', '--seed', '5', '--read-only', '--report', `json:${dir}/r.json`], a.io);
      expect(code, a.out()).toBe(0);
      expect(a.out()).toContain(`against ${server.url}`);
      const everything = a.out() + a.err() + readFileSync(`${dir}/r.json`, 'utf8');
      for (const k of KEYS) expect(everything).not.toContain(k);
    } finally {
      await server.close();
    }
  });

  it('runs the webhook scenarios with its own receiver, where --webhook-listen says', async () => {
    const a = io();
    const code = await main(['run', 'scenarios/webhooks/registration.yaml', '--webhook-listen', '127.0.0.1:0'], a.io);
    expect(code, a.out()).toBe(0);
    expect(a.out()).toMatch(/webhook receiver: http:\/\/127\.0\.0\.1:\d+\n/);
    expect(a.out()).toMatch(/✓ webhooks\/registration/);
  });

  it('takes the public URL and signing keys of a target file, and never prints the keys', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cli-hooks-'));
    const f = path.join(dir, 'target.yaml');
    (await import('node:fs')).writeFileSync(
      f,
      'baseUrl: https://api.vendor.invalid\ntimeoutMs: 2000\naccounts:\n  main: { accountId: AC1, key: "${MAIN_KEY}" }\nwebhooks:\n  publicUrl: https://tunnel.example/kit\n  listen: "127.0.0.1:0"\n  signingKeys: { main: "${SIGNING_KEY}" }\n',
    );
    const a = io({ MAIN_KEY: 'sk_vendor_main_secret', SIGNING_KEY: 'whsec_vendor_signing_secret' });
    // The vendor is not reachable from the test: the run fails, but it says where the receiver was.
    await main(['run', '--target-file', f, 'scenarios/webhooks/registration.yaml', '--report', `json:${dir}/r.json`], a.io);
    expect(a.out()).toMatch(/webhook receiver: https:\/\/tunnel\.example\/kit \(listening on http:\/\/127\.0\.0\.1:\d+\)/);
    const everything = a.out() + a.err() + readFileSync(`${dir}/r.json`, 'utf8');
    expect(everything).not.toContain('whsec_vendor_signing_secret');
    expect(everything).not.toContain('sk_vendor_main_secret');
  });

  it('prints clause coverage from a saved report', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cli-cov-'));
    await main(['run', '--clause', 'blocked-recipient.update.*', '--no-properties', '--report', `json:${dir}/r.json`], io().io);
    const a = io();
    expect(await main(['coverage', '--from', `${dir}/r.json`], a.io)).toBe(0);
    expect(a.out()).toMatch(/✓ blocked-recipient\.update\.note-clear spec \d+✓ 0✗/);
    expect(a.out()).toMatch(/Clauses with passing spec assertions: \d+ of \d+ observable/);
  });
});
