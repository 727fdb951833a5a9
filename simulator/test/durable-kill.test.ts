// Durable state against kill -9 (docs/decisions.md "Durable state"): one scripted session
// (durable-session.ts) is sent over HTTP to a served simulator with --state-dir, which is killed
// with SIGKILL at random points, at least 50 times: between requests, while one is under way,
// right after a restart, during compactions (every 7 entries). After each restart, GET /_sim/state
// must equal an uninterrupted run's state cut at the last acknowledged request, or at the one
// after it when the request under way had reached the journal before the kill (the client did
// not hear its answer, so either is true to it); nothing acknowledged is ever lost. The session
// then goes on from there. The points come from a seeded generator; a failure prints the seed.
// Like the reference run, the session settles webhook deliveries after each acknowledged request:
// an attempt's outcome that lands while the next request runs takes its clock job id after that
// request's jobs, a true state (the journal keeps that order) but not the reference's.
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSimulator, type SimRequest } from '../index.ts';
import { comparable, referenceRun } from './durable-session.ts';
import { stateDir } from './durable-helpers.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SEED = Number(process.env.KILL_SEED ?? 20261131);
const KILLS = 52;

let receiver: http.Server;
let receiverUrl: string;
beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.statusCode = req.url!.startsWith('/fail') ? 503 : 200;
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

/** mulberry32: the kill points, reproducible from SEED. */
function points(seed: number) {
  let a = seed >>> 0;
  return (n: number) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
}

interface Served {
  child: ChildProcess;
  url: string;
}

function serve(dir: string): Promise<Served> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['bin/start.cjs', '--port', '0', '--seed', '42', '--state-dir', dir, '--compact-every', '7'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve({ child, url: m[1]! });
    });
    child.stderr!.on('data', (d) => (err += d));
    child.on('exit', (code) => reject(new Error(`the simulator exited with ${code}: ${err}`)));
  });
}

function killed(s: Served): Promise<void> {
  return new Promise((resolve) => {
    s.child.removeAllListeners('exit');
    if (s.child.exitCode !== null || s.child.signalCode !== null) return resolve();
    s.child.once('exit', () => resolve());
    s.child.kill('SIGKILL');
  });
}

async function send(base: string, r: SimRequest): Promise<number> {
  const res = await fetch(base + r.url, { method: r.method, headers: r.headers as Record<string, string>, body: r.body as string | undefined });
  await res.arrayBuffer();
  return res.status;
}

const SETTLE: SimRequest = { method: 'POST', url: '/_sim/webhooks/settle', headers: {} };

/** A request of the session, then its deliveries settled, as referenceRun() does. */
async function sendSettled(base: string, r: SimRequest): Promise<number> {
  const status = await send(base, r);
  await send(base, SETTLE);
  return status;
}

async function settledState(base: string): Promise<string> {
  await send(base, SETTLE);
  const res = await fetch(`${base}/_sim/state`);
  return comparable(await res.json());
}

/**
 * The state once the restarted simulator is quiet. A request under way at the kill may have been
 * journaled: replay runs it again, and a clock advance among them waits for the webhook attempts
 * it started, which are sent again after the replay, then resumes. Settle answers when no attempt
 * is in flight, which can be just before the advance resumes; so the state counts once two
 * settled reads agree.
 */
async function stateOf(base: string): Promise<string> {
  let last = await settledState(base);
  for (let i = 0; i < 50; i++) {
    await new Promise((r) => setTimeout(r, 20));
    const now = await settledState(base);
    if (now === last) return now;
    last = now;
  }
  return last;
}

describe('durable state under kill -9', () => {
  it(`restarts at the last acknowledged request at ${KILLS}+ random points of a session (seed ${SEED})`, async () => {
    const reference = createSimulator({ seed: 42 });
    const { requests, states } = await referenceRun(reference, receiverUrl, 12);
    await reference.close();
    const dir = stateDir();
    const rand = points(SEED);
    let served = await serve(dir);
    let next = 0; // requests the simulator has (acknowledged, or found in its state after a restart)
    let kills = 0;
    const log: string[] = [];
    try {
      const restart = async (underWay: boolean) => {
        await killed(served);
        kills++;
        served = await serve(dir);
        const state = await stateOf(served.url);
        const acknowledged = states[next]!;
        const after = underWay ? states[next + 1] : undefined;
        const where = state === acknowledged ? 'at the last acknowledged request' : state === after ? 'with the request under way' : 'NOWHERE';
        log.push(`kill ${kills}: ${next} acknowledged${underWay ? ' + 1 under way' : ''}: ${where}`);
        expect(where, `seed ${SEED}, kill ${kills}, ${next} acknowledged:\n${log.join('\n')}`).not.toBe('NOWHERE');
        if (state === after) next++;
      };
      while (kills < KILLS && next < requests.length) {
        const atOnce = rand(4); // acknowledged requests before the kill
        for (let i = 0; i < atOnce && next < requests.length; i++) {
          expect(await sendSettled(served.url, requests[next]!), `request ${next}`).toBeLessThan(300);
          next++;
        }
        // Half the time a request is under way when the kill comes, after 0 to 3 ms.
        const underWay = rand(2) === 1 && next < requests.length;
        if (underWay) void send(served.url, requests[next]!).catch(() => undefined);
        if (underWay) await new Promise((r) => setTimeout(r, rand(4)));
        await restart(underWay);
      }
      // The rest of the session, then one last kill: the end state is whole too.
      for (; next < requests.length; next++) expect(await sendSettled(served.url, requests[next]!), `request ${next}`).toBeLessThan(300);
      await restart(false);
    } finally {
      await killed(served);
    }
    expect(kills).toBeGreaterThanOrEqual(KILLS);
    // Both kinds of points were met: some restarts stood at the request under way, some before it.
    expect(log.some((l) => l.endsWith('with the request under way'))).toBe(true);
    expect(log.some((l) => l.includes('under way: at the last'))).toBe(true);
  }, 600_000);
});
