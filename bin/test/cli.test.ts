// `npm start` as a newcomer meets it: URL, clock mode and demo keys on start; one-line errors
// with a non-zero exit for bad input; clean exit on SIGINT/SIGTERM.
import { describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

interface Started {
  child: ChildProcess;
  url: string;
  stdout: () => string;
  exit: Promise<{ code: number | null; signal: string | null }>;
}

function start(args: string[], viaNpm = false): Promise<Started> {
  const child = viaNpm
    ? spawn('npm', ['start', '--silent', '--', ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
    : spawn(process.execPath, ['bin/start.cjs', ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  const exit = new Promise<{ code: number | null; signal: string | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL printed; stdout: ${out} stderr: ${err}`)), 20_000);
    child.stdout!.on('data', () => {
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: m[1]!, stdout: () => out, exit });
      }
    });
    child.on('exit', () => {
      clearTimeout(timer);
      reject(new Error(`exited early; stderr: ${err}`));
    });
  });
}

function runToExit(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['bin/start.cjs', ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

function expectOneLineError(r: { code: number | null; stderr: string }, re: RegExp) {
  expect(r.code).not.toBe(0);
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
  expect(r.stderr).toMatch(re);
  expect(r.stderr).not.toMatch(/\n\s+at /);
}

describe('npm start', () => {
  it('prints the URL, clock mode and demo keys, serves, and exits cleanly on SIGINT', async () => {
    const s = await start(['--port', '0'], true);
    try {
      const text = s.stdout();
      expect(text).toMatch(/clock:\s+manual/);
      expect(text).toContain('AC1a2b3c4d  sk_test_acme_4f9c2b7e1d3a5c8f');
      expect(text).toContain('AC5e6f7a8b  sk_test_bistro_9a8b7c6d5e4f3a2b');
      const r = await fetch(`${s.url}/v1/accounts/AC1a2b3c4d/numbers`, { headers: { authorization: 'Bearer sk_test_acme_4f9c2b7e1d3a5c8f' } });
      expect(r.status).toBe(200);
    } finally {
      process.kill(-s.child.pid!, 'SIGINT'); // Ctrl-C reaches the whole foreground group
    }
    await s.exit;
    // npm itself may report the signal; what matters is that the server is gone.
    await expect(fetch(`${s.url}/_sim/health`)).rejects.toThrow();
  });

  it('exits with code 0 on SIGINT', async () => {
    const s = await start(['--port', '0']);
    s.child.kill('SIGINT');
    expect((await s.exit).code).toBe(0);
    expect(s.stdout()).toContain('SIGINT: stopping');
  });

  it('exits cleanly on SIGTERM; --seed, --clock realtime and --control-token apply', async () => {
    const s = await start(['--port', '0', '--seed', '9', '--clock', 'realtime:1000', '--control-token', 'tok']);
    try {
      expect(s.stdout()).toMatch(/clock:\s+realtime x1000/);
      expect((await fetch(`${s.url}/_sim/health`)).status).toBe(401);
      const h1: any = await (await fetch(`${s.url}/_sim/health`, { headers: { authorization: 'Bearer tok' } })).json();
      expect(h1.seed).toBe(9);
      await new Promise((r) => setTimeout(r, 50));
      const h2: any = await (await fetch(`${s.url}/_sim/health`, { headers: { authorization: 'Bearer tok' } })).json();
      expect(Date.parse(h2.now) - Date.parse(h1.now)).toBeGreaterThanOrEqual(20_000); // 50 ms at x1000
    } finally {
      s.child.kill('SIGTERM');
    }
    expect((await s.exit).code).toBe(0);
  });

  it('--webhook-strict (an alias of --strict-egress) refuses local receivers; --webhook-timeout-ms applies', async () => {
    const s = await start(['--port', '0', '--webhook-strict', '--webhook-timeout-ms', '1500', '--mcp-timeout-ms', '2500']);
    try {
      expect(s.stdout()).toMatch(/egress: +strict/);
      expect(s.stdout()).toMatch(/webhooks: timeout 1500 ms; MCP tests: 2500 ms/);
      const post = (url: string) =>
        fetch(`${s.url}/v1/accounts/AC1a2b3c4d/webhooks`, {
          method: 'POST',
          headers: { authorization: 'Bearer sk_test_acme_4f9c2b7e1d3a5c8f', 'content-type': 'application/json' },
          body: JSON.stringify({ url, events: ['message.sent'] }),
        });
      const local = await post('http://127.0.0.1:3000/hook');
      expect(local.status).toBe(400);
      expect(((await local.json()) as any).code).toBe('URL_BLOCKED');
      expect((await post('https://hooks.example.com/in')).status).toBe(201);
    } finally {
      s.child.kill('SIGTERM');
    }
    expect((await s.exit).code).toBe(0);
  });

  it('a port in use gives one line and a non-zero exit', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
    const port = (blocker.address() as { port: number }).port;
    try {
      expectOneLineError(await runToExit(['--port', String(port)]), /port \d+ on 127\.0\.0\.1 is already in use/);
    } finally {
      blocker.close();
    }
  });

  it('a bad fixture gives one line naming the field', async () => {
    expectOneLineError(await runToExit(['--fixture', 'bin/test/bad-fixture.yaml']), /bad fixture: .*bad-fixture\.yaml:\d+: accounts\[0\]\.plan: no plan named "platinum"/);
    expectOneLineError(await runToExit(['--fixture', 'no/such/file.yaml']), /cannot read the fixture \(ENOENT\)/);
  });

  it('bad options give one line', async () => {
    expectOneLineError(await runToExit(['--clock', 'sometimes']), /clock must be/);
    expectOneLineError(await runToExit(['--port', 'eighty']), /--port must be an integer/);
    expectOneLineError(await runToExit(['--seed', '-3']), /'--seed' argument is ambiguous/);
    expectOneLineError(await runToExit(['--seed', 'abc']), /--seed must be an integer/);
    expectOneLineError(await runToExit(['--webhook-timeout-ms', '0']), /--webhook-timeout-ms must be an integer from 1 to 600000/);
    const unknown = await runToExit(['--colour', 'red']);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toMatch(/Unknown option '--colour'/);
  });
});
