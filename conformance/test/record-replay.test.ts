// Record and replay end to end (docs/decisions.md "Record and replay"): an app's session is
// recorded through `platform-sim record`'s proxy in front of one simulator, with its secrets
// redacted; replayed with `platform-conformance replay` against a second simulator with the same
// seed it shows no difference; against a proxy that breaks one rule (phone numbers stored as sent
// instead of in domestic notation) the differences name that field. The scenario written from the
// recording loads, passes against a fresh simulator and fails against the rule breaker.
import http from 'node:http';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSimulator, type ListeningServer, type Simulator } from '../../simulator/index.ts';
import { startRecorder } from '../recording/proxy.ts';
import { main } from '../cli.ts';
import { loadScenarios } from '../scenario/load.ts';
import { runConformance } from '../run.ts';
import { remoteTarget } from '../target.ts';
import { catalogue, contract } from './helpers.ts';

const ACME = { accountId: 'AC1a2b3c4d', key: 'sk_test_acme_4f9c2b7e1d3a5c8f' };
const BISTRO = { accountId: 'AC5e6f7a8b', key: 'sk_test_bistro_9a8b7c6d5e4f3a2b' };
const MCP_SECRET = 'mcp-secret-never-written-4242';
const SIP_PASSWORD = 'Sip-Password-never-written-77';
const SEED = 7;

const sims: Simulator[] = [];
const servers: (ListeningServer | http.Server)[] = [];
async function served(): Promise<string> {
  const sim = createSimulator({ seed: SEED });
  sims.push(sim);
  const s = await sim.listen();
  servers.push(s);
  return s.url;
}
afterAll(async () => {
  for (const s of servers) await ('url' in s ? s.close() : new Promise<void>((r) => s.close(() => r())));
  for (const s of sims) await s.close();
});

/** A proxy that stores phone numbers as sent: `number` fields come back in +82 notation. */
async function ruleBreaker(upstream: string): Promise<string> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !['host', 'content-length', 'connection'].includes(k))) as Record<string, string>;
      const up = await fetch(upstream + req.url, { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined });
      const text = (await up.text()).replace(/"number":"010(\d{4})(\d{4})"/g, '"number":"+82 10-$1-$2"');
      res.writeHead(up.status, { 'content-type': up.headers.get('content-type') ?? 'application/json' });
      res.end(text);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

/** The app's session, through `base`. */
async function session(base: string): Promise<void> {
  const call = async (method: string, p: string, body?: unknown, key: string | null = ACME.key) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (key) headers.authorization = `Bearer ${key}`;
    const res = await fetch(base + p, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    return res.status === 204 ? undefined : res.json();
  };
  const a = `/v1/accounts/${ACME.accountId}`;
  const blocked = (await call('POST', `${a}/blocked-callers`, { number: '+82 10-3333-4444', note: 'spam' })) as { id: string };
  await call('GET', `${a}/blocked-callers/${blocked.id}`);
  await call('GET', `${a}/blocked-callers?pageSize=5`);
  await call('DELETE', `${a}/blocked-callers/${blocked.id}`);
  await call('GET', `${a}/blocked-callers/bc_000000000000000000000000`); // 404
  await call('POST', `${a}/blocked-recipients`, { number: 'not a number', channel: 'call' }); // 400
  await call('GET', `/v1/accounts/${BISTRO.accountId}/numbers`, undefined, BISTRO.key);
  await call('POST', `${a}/mcp-connections`, { name: 'CRM', url: 'https://crm.example.com/mcp', authType: 'bearer', secret: MCP_SECRET });
  await call('POST', `${a}/sip-credentials`, { name: 'front desk', username: 'frontdesk', password: SIP_PASSWORD });
  const made = (await call('POST', '/_sim/accounts', {}, null)) as { accountId: string; apiKey: string; numbers: string[] };
  await call('POST', `/v1/accounts/${made.accountId}/messages`, { From: made.numbers[0], To: '010-5555-6666', Body: 'hello' }, made.apiKey);
  await call('POST', '/_sim/clock/advance', { seconds: 30 }, null);
  await call('GET', `/v1/accounts/${made.accountId}/messages`, undefined, made.apiKey);
}

let recording: string;
beforeAll(async () => {
  recording = path.join(mkdtempSync(path.join(os.tmpdir(), 'recording-')), 'session');
  const recorder = await startRecorder({ upstream: await served(), port: 0, out: recording });
  await session(recorder.url);
  await recorder.close();
});

function cli(args: string[]) {
  let out = '';
  const io = { out: { write: (s: string) => (out += s) }, err: { write: (s: string) => (out += s) }, env: { CONFORMANCE_ACCOUNT: ACME.accountId, CONFORMANCE_KEY: ACME.key, CONFORMANCE_ALT_ACCOUNT: BISTRO.accountId, CONFORMANCE_ALT_KEY: BISTRO.key } };
  return main(args, io).then((code) => ({ code, out }));
}

describe('record and replay', () => {
  it('records every exchange, with API keys, MCP secrets and SIP passwords redacted', () => {
    const text = readdirSync(recording).map((f) => readFileSync(path.join(recording, f), 'utf8')).join('\n');
    const lines = readFileSync(path.join(recording, 'exchanges.ndjson'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(13);
    expect(lines.map((e) => e.response.status)).toEqual([201, 200, 200, 200, 404, 400, 200, 201, 201, 201, 201, 200, 200]);
    for (const secret of [ACME.key, BISTRO.key, MCP_SECRET, SIP_PASSWORD, 'sk_test_']) expect(text).not.toContain(secret);
    expect(lines[0].request.headers.authorization).toBe('Bearer [secret:1]');
    expect(lines[6].request.headers.authorization).toBe('Bearer [secret:2]');
    expect(JSON.parse(lines[9].response.body).apiKey).toMatch(/^\[secret:\d+\]$/); // the created account's key, kept apart
  });

  it('against a second simulator with the same seed: no difference', async () => {
    const r = await cli(['replay', recording, '--target', await served(), '--out', path.join(recording, 'same.yaml')]);
    expect(r.out).toContain('13 exchanges: 13 as recorded, 0 with differences, 0 passed over');
    expect(r.code).toBe(0);
  });

  it('against a proxy that breaks one rule: the differences name it, exchange by exchange', async () => {
    const r = await cli(['replay', recording, '--target', await ruleBreaker(await served()), '--out', path.join(recording, 'broken.yaml')]);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/x #1 POST \/v1\/accounts\/AC1a2b3c4d\/blocked-callers {2}201\n {6}body\.number: "01033334444" recorded, "\+82 10-3333-4444" from the target/);
    expect(r.out).toMatch(/x #3 GET \/v1\/accounts\/AC1a2b3c4d\/blocked-callers\?pageSize=5 {2}200\n {6}body\.data\[0\]\.number: "01033334444" recorded/);
    expect(r.out).toMatch(/ok #5 GET .*bc_000000000000000000000000 {2}404/); // the rule is not everywhere
  });

  it('writes a scenario that passes against a fresh simulator and fails against the rule breaker', async () => {
    const file = path.join(recording, 'scenario.yaml');
    await cli(['replay', recording, '--target', await served()]);
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(MCP_SECRET);
    expect(text).toContain('as: alt');
    expect(text).toMatch(/createAccount: \{\}\n\s+as: account1/);
    const scenarios = loadScenarios([file], { contract, clauses: catalogue });
    const run = async (base: string) => {
      const target = remoteTarget({ baseUrl: base, accounts: new Map([['main', ACME], ['alt', BISTRO]]) });
      try {
        return await runConformance({ target, contract, clauses: catalogue, scenarios, properties: [], seed: SEED, simLevel: 'fail' });
      } finally {
        await target.close();
      }
    };
    const good = await run(await served());
    expect(good.summary.exitCode, JSON.stringify(good.units[0]?.steps.filter((s) => s.status !== 'passed'), null, 1)).toBe(0);
    const bad = await run(await ruleBreaker(await served()));
    expect(bad.summary.exitCode).toBe(1);
    const failed = bad.units[0]!.steps.filter((s) => s.status === 'failed');
    expect(failed[0]?.name).toBe('#1 POST /v1/accounts/AC1a2b3c4d/blocked-callers');
    expect(JSON.stringify(failed[0])).toContain('body.number');
  });
});
