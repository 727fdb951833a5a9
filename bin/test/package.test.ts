// The package as a customer outside this repository gets it: `npm pack`, install the tarball into
// a scratch project with the README's own install line (from the npm cache when it can), then use
// the library from plain JavaScript (node, `node --test`, require) and its types from TypeScript,
// both bins from that directory, and the README's "From another project" commands as written (the
// only changes: the tarball's path for the checkout's, a free port for 4010, and the whole-kit line
// narrowed to the auth scenarios, since the whole kit against a simulator nothing resets is
// repeatable-http.test.ts's). Usage lines and hints name the command the customer typed.
// Packed once and installed once (the README's install line is that one install, so it is proven
// as written); the consumers only read the installed package, each from a file of its own, so they
// run at the same time (describe.concurrent): each still proves what it did alone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { freePort, readmeCommands, shellIn, type ShellResult } from './customer-shell.ts';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'platform-simulator-pack-'));
const quiet = { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false', npm_config_loglevel: 'error' };

let tarball = '';
let served: ChildProcess | undefined; // the README's `npx platform-sim … &`

async function npm(args: string[], cwd: string) {
  return run('npm', args, { cwd, env: quiet, maxBuffer: 16 * 1024 * 1024 });
}

const shell = (command: string) => shellIn(scratch, quiet)(command);
const [install, serve, some, whole, inProcess, ...rest] = readmeCommands(root);
/** The README's install line, run once with the tarball for the checkout. */
let installed: ShellResult;

beforeAll(async () => {
  // The compiled build (dist/) is made by `prepack`; rebuild here only if a source is newer, as
  // prepack does (emit only: the type check is `npm run typecheck`'s, which CI runs before).
  await run(process.execPath, ['bin/build.mjs', '--if-stale', '--no-check'], { cwd: root });
  const packed = await npm(['pack', '--ignore-scripts', '--json', '--pack-destination', scratch], root);
  tarball = join(scratch, JSON.parse(packed.stdout)[0].filename as string);
  writeFileSync(join(scratch, 'package.json'), JSON.stringify({ name: 'customer-app', version: '1.0.0', private: true, type: 'module' }));
  const asWritten = install!.replace('/path/to/this/checkout', tarball);
  installed = await shell(`${asWritten} --offline`); // dependencies from the npm cache
  // First run on this machine: the registry fills the cache.
  if (installed.code !== 0) installed = await shell(`${asWritten} --prefer-offline`);
}, 240_000);

afterAll(async () => {
  // npx runs the bin in a child of its own: stop the whole group the test started.
  if (served?.pid && served.exitCode === null) {
    const exited = new Promise((resolve) => served!.once('exit', resolve));
    process.kill(-served.pid, 'SIGTERM');
    await exited;
  }
  rmSync(scratch, { recursive: true, force: true });
});

const USE_FROM_JS = `
import { createSimulator, verifySignature } from 'platform-simulator';
const sim = createSimulator();
const server = await sim.listen(0);
const account = sim.fixture.accounts[0];
const res = await fetch(server.url + '/v1/accounts/' + account.accountId + '/numbers', { headers: { authorization: 'Bearer ' + account.apiKeys[0] } });
const body = await res.json();
await sim.close();
console.log(JSON.stringify({ status: res.status, numbers: body.data.length, verify: typeof verifySignature }));
`;

// Side by side on a loaded two-core machine, each consumer waits for the others: one budget for all.
const TOGETHER = { timeout: 240_000 };

describe.concurrent('the packed package, installed in a scratch project', TOGETHER, () => {
  it('has no install script of its own, so npm 11 installs it without an install-scripts warning', () => {
    const manifest = JSON.parse(readFileSync(join(scratch, 'node_modules', 'platform-simulator', 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
    for (const hook of ['preinstall', 'install', 'postinstall', 'prepare']) expect(manifest.scripts?.[hook], hook).toBeUndefined();
    expect(installed.code, installed.stderr).toBe(0);
    expect(`${installed.stdout}${installed.stderr}`).not.toMatch(/platform-simulator@[^\n]*\((preinstall|install|postinstall|prepare):/);
  });

  it('imports from plain JavaScript without a TypeScript loader and serves', async () => {
    writeFileSync(join(scratch, 'use.mjs'), USE_FROM_JS);
    const { stdout } = await run(process.execPath, ['use.mjs'], { cwd: scratch });
    const out = JSON.parse(stdout.trim());
    expect(out.status).toBe(200);
    expect(out.numbers).toBeGreaterThan(0);
    expect(out.verify).toBe('function');
  });

  it('runs under vitest in the customer project', async () => {
    writeFileSync(
      join(scratch, 'app.spec.mjs'),
      `// vitest's globals (test, expect): vitest itself is the repository's, not installed here.
import { createSimulator } from 'platform-simulator';
test('health', async () => {
  const sim = createSimulator();
  expect((await sim.control.health()).status).toBe('ok');
  await sim.close();
});
`,
    );
    const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
    const r = await run(process.execPath, [vitest, 'run', '--root', scratch, '--globals', 'app.spec.mjs'], { cwd: scratch }).catch((e) => e);
    expect(`${r.stdout}`, r.stderr).toMatch(/1 passed/);
  });

  it('runs under node --test and from CommonJS require', async () => {
    writeFileSync(
      join(scratch, 'app.test.mjs'),
      `import { test } from 'node:test';
import assert from 'node:assert';
import { createSimulator } from 'platform-simulator';
test('health', async () => {
  const sim = createSimulator();
  assert.equal((await sim.control.health()).status, 'ok');
  await sim.close();
});
`,
    );
    const tested = await run(process.execPath, ['--test', 'app.test.mjs'], { cwd: scratch });
    expect(tested.stdout).toMatch(/# pass 1/);
    writeFileSync(join(scratch, 'use.cjs'), `const { createSimulator } = require('platform-simulator'); console.log(typeof createSimulator);`);
    const required = await run(process.execPath, ['--no-warnings', 'use.cjs'], { cwd: scratch });
    expect(required.stdout.trim()).toBe('function');
  });

  it('ships type declarations a TypeScript project resolves', async () => {
    writeFileSync(
      join(scratch, 'typed.ts'),
      `import { createSimulator, type Simulator, type SimulatorOptions } from 'platform-simulator';
const options: SimulatorOptions = { seed: 7 };
const sim: Simulator = createSimulator(options);
const now: string = sim.clock.now();
// @ts-expect-error: seed is a number
createSimulator({ seed: 'seven' });
// @ts-expect-error: accountId is a string (declared in a module index.d.ts imports, so this fails if that import does not resolve)
const id: number = sim.fixture.accounts[0]!.accountId;
export { now, id };
`,
    );
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    const args = ['--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', '--types', 'node', '--skipLibCheck', '--typeRoots', join(root, 'node_modules/@types'), 'typed.ts'];
    const r = await run(process.execPath, [tsc, ...args], { cwd: scratch }).catch((e) => e);
    expect(r.stdout ?? '', r.stderr).toBe('');
  });

  it('platform-conformance runs scenarios from any directory', async () => {
    const bin = join(scratch, 'node_modules', '.bin', 'platform-conformance');
    const ran = await run(bin, ['run', 'scenarios/auth/other-account.yaml'], { cwd: tmpdir() }).catch((e) => e);
    expect(ran.code ?? 0, `${ran.stdout}\n${ran.stderr}`).toBe(0);
    expect(ran.stdout).toMatch(/units:\s+1 passed, 0 failed/);
  });

  it('platform-sim serves from any directory and stops on SIGTERM', async () => {
    const child = spawn(join(scratch, 'node_modules', '.bin', 'platform-sim'), ['--port', '0'], { cwd: tmpdir(), stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d) => {
        out += d;
        const m = /listening on (http:\/\/\S+)/.exec(out);
        if (m) resolve(m[1]!);
      });
      child.stderr.on('data', (d) => reject(new Error(String(d))));
    });
    const health = await fetch(`${url}/_sim/health`);
    expect(health.status).toBe(200);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});

describe.concurrent("the README's commands from another project", TOGETHER, () => {
  it('install, serve, and run the kit against the served simulator and in process, as written', async () => {
    expect(rest).toEqual([]);
    expect(install).toMatch(/^npm install --save-dev \/path\/to\/this\/checkout$/);
    // The install line ran once, before every test of the file (beforeAll).
    expect(installed.code, installed.stderr).toBe(0);

    const port = await freePort();
    const withPort = (c: string) => c.replaceAll('4010', String(port));
    expect(serve).toMatch(/^npx platform-sim --port 4010 &$/);
    served = spawn('bash', ['-c', withPort(serve!).replace(/ &$/, '')], { cwd: scratch, env: quiet, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    await new Promise<void>((resolve, reject) => {
      let out = '';
      served!.stdout!.on('data', (d) => {
        out += d;
        if (out.includes(`listening on http://127.0.0.1:${port}`)) resolve();
      });
      served!.on('exit', (code) => reject(new Error(`platform-sim exited ${code}: ${out}`)));
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
  });

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
  });

  it('a URL without a control plane and no account given says which variables to set', async () => {
    const port = await freePort();
    const nothing = createServer((socket) => {
      socket.on('error', () => {}); // a client's reset of this answered socket is not the test's failure
      socket.end('HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n');
    }).listen(port, '127.0.0.1');
    try {
      const r = await shell(`npx platform-conformance run --target http://127.0.0.1:${port}`);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/set CONFORMANCE_ACCOUNT and CONFORMANCE_KEY .*GET \/_sim\/accounts answered 404/);
    } finally {
      nothing.close();
    }
  });
});
