// DESIGN "Rules": same seed + same fixture + same requests (manual clock) => byte-identical
// responses; nothing under simulator/ reads the wall clock or Math.random.
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSimulator, type SimRequest, type SimResponse } from '../index.ts';
import { dispatch, DEFAULT_MAX_BODY_BYTES } from '../app.ts';
import { ACME, BISTRO } from './helpers.ts';
import { runtimeOf } from '../internal.ts';

const auth = (key: string) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });
const a = `/v1/accounts/${ACME.accountId}`;

/** A script touching every operation kind: creates, idempotent repeats, errors, releases, clock moves. */
function script(): SimRequest[] {
  const reqs: SimRequest[] = [];
  const json = (method: string, url: string, body?: unknown, key = ACME.key): SimRequest => ({
    method,
    url,
    headers: url.startsWith('/_sim') ? { 'content-type': 'application/json' } : auth(key),
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  reqs.push(json('POST', '/_sim/accounts', {}));
  for (let i = 0; i < 5; i++) {
    reqs.push(json('POST', `${a}/blocked-callers`, { number: `010-3000-000${i}`, note: `n${i}` }));
    reqs.push(json('POST', `${a}/blocked-recipients`, { number: `+82 10 4000 000${i}`, channel: i % 2 ? 'call' : 'message' }));
    reqs.push(json('POST', '/_sim/clock/advance', { seconds: 17 }));
  }
  reqs.push(json('POST', `${a}/blocked-callers`, { number: '01030000001' }));
  reqs.push(json('POST', `${a}/numbers`, {}));
  reqs.push(json('POST', `${a}/numbers`, { webhookUrl: 'https://x.example/in' }));
  reqs.push(json('PUT', `${a}/numbers/07012340001`, { routingType: 'forward', forwardTo: '07012340002' }));
  reqs.push(json('POST', `${a}/blocked-recipients`, { number: 'bad', channel: 'call' }));
  reqs.push(json('POST', `${a}/webhooks`, { url: 'https://hooks.example/in', events: ['callflow.ended', 'message.sent'] }));
  reqs.push(json('GET', `${a}/webhooks`));
  const flowGraph = { version: 1, start: 'm', nodes: { m: { type: 'menu', prompt: '{{name}}', branches: { '1': 'h' }, invalidNext: null, timeoutNext: null }, h: { type: 'hangup' } } };
  reqs.push(json('POST', `${a}/call-flows`, { name: 'flow', graph: flowGraph }));
  reqs.push(json('POST', `${a}/call-flows`, { name: 'bad', graph: { ...flowGraph, start: 'x' } }));
  reqs.push(json('GET', `${a}/call-flows`));
  reqs.push(json('GET', `/_sim/accounts/${ACME.accountId}/signing-key`));
  reqs.push(json('GET', `${a}/blocked-callers?pageSize=3&page=1`));
  reqs.push(json('GET', `${a}/blocked-recipients?status=all`));
  reqs.push(json('GET', `${a}/numbers`));
  reqs.push(json('GET', `/v1/accounts/${BISTRO.accountId}/numbers`, undefined, ACME.key));
  reqs.push(json('GET', '/_sim/state'));
  return reqs;
}

function run(seed: number, resetFirst = false): SimResponse[] {
  const sim = createSimulator({ seed });
  // The first fixture load skips clearing the models fresh from `create` (runtime.ts): a reset clears them.
  if (resetFirst) runtimeOf(sim).reset();
  const opts = { maxBodyBytes: DEFAULT_MAX_BODY_BYTES };
  const out: SimResponse[] = [];
  for (const r of script()) {
    const res = dispatch(runtimeOf(sim), opts, r);
    if (res instanceof Promise) throw new Error('handlers in this script are synchronous');
    out.push(res);
  }
  return out;
}

describe('determinism', () => {
  it('same seed and requests give byte-identical responses', () => {
    const x = run(42);
    const y = run(42);
    expect(x.length).toBe(script().length);
    for (let i = 0; i < x.length; i++) expect(JSON.stringify(y[i]), `request ${i}`).toBe(JSON.stringify(x[i]));
  });

  it('a simulator reset before the script answers as a fresh one (fresh models are as empty as cleared ones)', () => {
    const fresh = run(42);
    const reset = run(42, true);
    const state = (rs: SimResponse[]) => JSON.parse(rs[rs.length - 1]!.body);
    expect(state(reset)).toEqual(state(fresh));
    for (let i = 0; i < fresh.length; i++) expect(JSON.stringify(reset[i]), `request ${i}`).toBe(JSON.stringify(fresh[i]));
  });

  it('another seed gives other ids (the comparison above can fail)', () => {
    const x = run(42);
    const z = run(43);
    expect(JSON.stringify(z)).not.toBe(JSON.stringify(x));
  });

  it('handling requests never touches the wall clock, timers or Math.random', () => {
    const sim = createSimulator({ seed: 5 });
    const opts = { maxBodyBytes: DEFAULT_MAX_BODY_BYTES };
    const reqs = script();
    const saved = { now: Date.now, random: Math.random, perf: performance.now, setTimeout: globalThis.setTimeout, setInterval: globalThis.setInterval, Date: globalThis.Date };
    const trap = (name: string) => () => {
      throw new Error(`simulator called ${name}`);
    };
    const RealDate = globalThis.Date;
    class TrappedDate extends RealDate {
      constructor(...args: unknown[]) {
        if (args.length === 0) throw new Error('simulator called new Date()');
        super(...(args as [number]));
      }
    }
    let failure: unknown;
    try {
      Date.now = trap('Date.now');
      Math.random = trap('Math.random');
      performance.now = trap('performance.now');
      (globalThis as any).setTimeout = trap('setTimeout');
      (globalThis as any).setInterval = trap('setInterval');
      (globalThis as any).Date = TrappedDate;
      TrappedDate.now = trap('Date.now');
      for (const r of reqs) {
        const res = dispatch(runtimeOf(sim), opts, r) as SimResponse;
        if (res.status >= 500) throw new Error(`${r.method} ${r.url} -> ${res.status} ${res.body}`);
      }
    } catch (e) {
      failure = e;
    } finally {
      // Restore the global Date first and name RealDate explicitly: while TrappedDate is still
      // installed, `Date.now = ...` would only shadow the trap on the subclass and leave the real
      // Date.now trapped for every later test file sharing this worker (isolate: false).
      globalThis.Date = saved.Date;
      RealDate.now = saved.now;
      Math.random = saved.random;
      performance.now = saved.perf;
      globalThis.setTimeout = saved.setTimeout;
      globalThis.setInterval = saved.setInterval;
    }
    expect(failure).toBeUndefined();
    expect(globalThis.Date).toBe(RealDate);
    expect(Date.now).toBe(saved.now);
    expect(Math.random).toBe(saved.random);
    expect(performance.now).toBe(saved.perf);
    expect(globalThis.setTimeout).toBe(saved.setTimeout);
  });

  it('no source file under simulator/ reads the wall clock or Math.random (realtime driver excepted)', () => {
    const root = fileURLToPath(new URL('..', import.meta.url));
    const allowed = new Set([
      'core/realtime.ts', // the realtime clock driver follows wall time by design
      // Real I/O to customers' webhook receivers: the network timeout and the measured latency
      // need wall-clock time; when to attempt and retry stays on the virtual clock (engine.ts).
      'peers/webhooks/receiver-client.ts',
      // The HTTP adapter bounds how long a refused connection lingers before it closes (socket
      // I/O, RFC 9112 §9.6); no answer depends on it.
      'server.ts',
      // Real I/O to MCP servers: the network ceiling of a connection test (peers/mcp/budget.ts
      // keeps scripted delays on virtual time).
      'peers/mcp/runner.ts',
      // The durable state dir orders journal writes, replayed entries and outcomes one per turn
      // of the event loop (setImmediate); virtual time never comes from it.
      'durable/state-dir.ts',
      // Agent SDK media frames go out on a wall-clock grid (20 ms per frame); what each frame
      // holds follows the stream's media position, never the timer.
      'resources/agent-sdk/media/pacer.ts',
      // Control sockets are pinged every 25 s of wall time (keep-alive I/O of live sockets).
      'resources/agent-sdk/heartbeat.ts',
      // SIP media in realtime mode: a ticker brings virtual time up to date every frame of wall
      // time while calls play, so RTP goes out paced; each packet's content follows virtual time.
      'sip-sockets.ts',
      // The agent's response latency per turn in wall time: shown by the inspector, never recorded.
      'resources/agent-sdk/media/latency.ts',
      // The speech port lets the event loop turn between the new lines it synthesises
      // (setImmediate); what it synthesises, and where that lands (the I/O barrier), never depend on it.
      'resources/agent-sdk/speech.ts',
    ]);
    const forbidden: [RegExp, string][] = [
      [/\bDate\.now\s*\(/, 'Date.now()'],
      [/new\s+Date\s*\(\s*\)/, 'new Date()'],
      [/\bMath\.random\s*\(/, 'Math.random()'],
      [/\bperformance\.now\s*\(/, 'performance.now()'],
      [/\bprocess\.hrtime\b/, 'process.hrtime'],
      [/\bset(Timeout|Interval|Immediate)\s*\(/, 'timers'],
      [/\brandom(UUID|Bytes|Int)\s*\(/, 'crypto randomness'],
    ];
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const p = join(dir, name);
        if (statSync(p).isDirectory()) {
          if (name !== 'test') walk(p);
          continue;
        }
        if (!p.endsWith('.ts')) continue;
        const rel = relative(root, p);
        if (allowed.has(rel)) continue;
        const text = readFileSync(p, 'utf8');
        for (const [re, what] of forbidden) if (re.test(text)) offenders.push(`${rel}: ${what}`);
      }
    };
    walk(root);
    expect(offenders).toEqual([]);
  });
});
