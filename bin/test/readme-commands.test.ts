// The README's "From another project" commands, run as a customer would: `npm pack`, the tarball
// installed into a scratch project, then each command of the block from that project (the only
// changes: the tarball's path for the checkout's, a free port for 4010, and the whole-kit line
// narrowed to the auth scenarios, since the whole kit against a simulator that nothing resets is
// repeatable.test.ts's). Usage lines and hints name the command the customer typed.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'platform-readme-'));
const env = { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false', npm_config_loglevel: 'error' };
let tarball = '';
let sim: ChildProcess | undefined;

/** The commands of the README's block, one per line, without their comments. */
function readmeCommands(): string[] {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const block = /<!-- from-another-project[^>]*-->\n```sh\n([\s\S]*?)```/.exec(readme)?.[1];
  if (!block) throw new Error('README.md lacks the "from-another-project" block');
  return block.split('\n').map((l) => l.replace(/\s+#.*$/, '').trim()).filter(Boolean);
}

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** One command through bash in the scratch project, as typed; resolves with its exit code and output. */
async function shell(command: string): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await run('bash', ['-c', command], { cwd: scratch, env, maxBuffer: 16 * 1024 * 1024 });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    const err = e as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof err.code === 'number' ? err.code : 1, stdout: err.stdout ?? '', stderr: err.stderr ?? '' };
  }
}

beforeAll(async () => {
  await run(process.execPath, ['bin/build.mjs', '--if-stale'], { cwd: root });
  const packed = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', scratch], { cwd: root, env, maxBuffer: 16 * 1024 * 1024 });
  tarball = join(scratch, JSON.parse(packed.stdout)[0].filename as string);
  writeFileSync(join(scratch, 'package.json'), JSON.stringify({ name: 'customer-project', version: '1.0.0', private: true, type: 'module' }));
}, 240_000);

afterAll(async () => {
  // npx runs the bin in a child of its own: stop the whole group the test started.
  if (sim?.pid && sim.exitCode === null) {
    const exited = new Promise((resolve) => sim!.once('exit', resolve));
    process.kill(-sim.pid, 'SIGTERM');
    await exited;
  }
  rmSync(scratch, { recursive: true, force: true });
});

describe("the README's commands from another project", () => {
  it('install, serve, and run the kit against the served simulator and in process, as written', async () => {
    const [install, serve, some, whole, inProcess, ...rest] = readmeCommands();
    expect(rest).toEqual([]);
    expect(install).toMatch(/^npm install --save-dev \/path\/to\/this\/checkout$/);
    const installed = await shell(`${install!.replace('/path/to/this/checkout', tarball)} --prefer-offline`);
    expect(installed.code, installed.stderr).toBe(0);

    const port = await freePort();
    const withPort = (c: string) => c.replaceAll('4010', String(port));
    expect(serve).toMatch(/^npx platform-sim --port 4010 &$/);
    sim = spawn('bash', ['-c', withPort(serve!).replace(/ &$/, '')], { cwd: scratch, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    await new Promise<void>((resolve, reject) => {
      let out = '';
      sim!.stdout!.on('data', (d) => {
        out += d;
        if (out.includes(`listening on http://127.0.0.1:${port}`)) resolve();
      });
      sim!.on('exit', (code) => reject(new Error(`platform-sim exited ${code}: ${out}`)));
    });

    const against = await shell(withPort(some!));
    expect(against.code, `${against.stdout}\n${against.stderr}`).toBe(0);
    expect(against.stderr).toMatch(/accounts from http:\/\/127\.0\.0\.1:\d+\/_sim\/accounts: main AC1a2b3c4d, alt AC5e6f7a8b/);
    expect(against.stdout).toMatch(/units:\s+4 passed, 0 failed/);

    expect(whole).toBe('npx platform-conformance run --target http://127.0.0.1:4010');
    const narrowed = await shell(`${withPort(whole!)} --tag auth --no-properties`);
    expect(narrowed.code, `${narrowed.stdout}\n${narrowed.stderr}`).toBe(0);
    expect(narrowed.stdout).toMatch(/units:\s+[1-9]\d* passed, 0 failed, 0 skipped/);

    const local = await shell(inProcess!);
    expect(local.code, `${local.stdout}\n${local.stderr}`).toBe(0);
    expect(local.stdout).toMatch(/units:\s+4 passed, 0 failed/);
  }, 240_000);

  it('usage lines and hints name npx platform-conformance and npx platform-sim', async () => {
    const help = await shell('npx platform-conformance --help');
    expect(help.stdout).toMatch(/^usage: npx platform-conformance <command> \[options\]/);
    const bad = await shell('npx platform-conformance run --bogus');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/\(see npx platform-conformance --help\)/);
    expect(bad.stderr).not.toMatch(/npm run conformance/);
    const simHelp = await shell('npx platform-sim --help');
    expect(simHelp.stdout).toMatch(/^usage: npx platform-sim \[--port 4010\]/);
    expect(simHelp.stdout).not.toMatch(/npm start/);
  }, 60_000);

  it('a URL without a control plane and no account given says which variables to set', async () => {
    const port = await freePort();
    const nothing = createServer((socket) => socket.end('HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n')).listen(port, '127.0.0.1');
    try {
      const r = await shell(`npx platform-conformance run --target http://127.0.0.1:${port}`);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/set CONFORMANCE_ACCOUNT and CONFORMANCE_KEY .*GET \/_sim\/accounts answered 404/);
    } finally {
      nothing.close();
    }
  }, 60_000);
});
