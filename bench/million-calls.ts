// The data set of the scale benches (docs/decisions.md "Scale"): a simulator holding 1,000,000 ended calls of the
// demo account spread over 92 days and 10,000 of its numbers, made directly as the calls model
// leaves them (simulator/test/synthetic-calls.ts) rather than run on the clock, which would take
// minutes. Mix: 55 % answered outbound (a fifth with machine detection), 10 % outbound with a
// connected transfer leg, 25 % answered inbound, 10 % outbound never answered. Numbers 0-999
// were reassigned (a closed holding through one link, an open one through another), 1000-1999
// are held through a link, the rest directly. Generated from a fixed seed: every run the same.
import { readFileSync } from 'node:fs';
import { createSimulator, type Simulator } from '../simulator/index.ts';
import { runtimeOf } from '../simulator/internal.ts';
import { endedCall } from '../simulator/test/synthetic-calls.ts';

export const ACCOUNT = 'AC1a2b3c4d';
export const HEADERS = { authorization: 'Bearer sk_test_acme_4f9c2b7e1d3a5c8f', 'content-type': 'application/json' };
export const SCALE_CALLS = Number(process.env.SCALE_CALLS ?? 1_000_000);
export const NUMBERS = 10_000;
/** The 92 days the calls fall in: the fixture's clock (2026-03-02) is their end. */
export const FROM = '2025-11-30T00:00:00.000Z';
export const TO = '2026-03-02T00:00:00.000Z';

/** The account's number `i` (of NUMBERS). */
export const ownNumber = (i: number) => `0702${String(i).padStart(7, '0')}`;

export async function request(sim: Simulator, method: string, path: string, body?: unknown): Promise<any> {
  const res = await sim.handle({ method, url: path, headers: HEADERS, body: body === undefined ? undefined : JSON.stringify(body) });
  if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${res.body.slice(0, 300)}`);
  return JSON.parse(res.body);
}

/** A small, fast, seeded generator (xorshift32), so the data set is the same in every run. */
export function seeded(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 4_294_967_296;
  };
}

/** A simulator with the data set in its calls table and the holdings in its numbers' assignments. */
export function millionCalls(count = SCALE_CALLS): Simulator {
  const sim = createSimulator();
  const rt = runtimeOf(sim);
  const next = seeded(32);
  const start = Date.parse(FROM);
  const span = Date.parse(TO) - start - 3_600_000;
  for (let i = 0; i < 2_000; i++) {
    const number = ownNumber(i);
    const hold = (n: number, linkId: string, from: string, to: string | null) =>
      rt.numbers.assignments.insert({ id: `asg_bench_${n}`, number, accountId: ACCOUNT, linkId, from, to });
    if (i < 1_000) {
      hold(2 * i, `AL_old_${i}`, FROM, '2026-01-15T00:00:00.000Z');
      hold(2 * i + 1, `AL_new_${i}`, '2026-01-15T00:00:00.000Z', null);
    } else hold(2 * i, `AL_${i}`, FROM, null);
  }
  for (let i = 0; i < count; i++) {
    const kind = next();
    const own = ownNumber(Math.floor(next() * NUMBERS));
    const other = `010${String(Math.floor(next() * 1e8)).padStart(8, '0')}`;
    const inbound = kind >= 0.65 && kind < 0.9;
    rt.calls.calls.insert(
      endedCall({
        id: `CA${i.toString(16).padStart(32, '0')}`,
        accountId: ACCOUNT,
        direction: inbound ? 'inbound' : 'outbound',
        from: inbound ? other : own,
        to: inbound ? own : other,
        createdAt: start + Math.floor((i / count) * span),
        answerAfter: kind >= 0.9 ? null : 2 + Math.floor(next() * 20),
        talk: Math.floor(next() * 600),
        machineDetection: kind < 0.11 ? 'Enable' : null,
        transferSeconds: kind >= 0.55 && kind < 0.65 ? 1 + Math.floor(next() * 120) : undefined,
      }),
    );
  }
  return sim;
}

/** The process's peak resident set (VmHWM) and current one, in MB. */
export function rss(): { peakMb: number; nowMb: number } {
  const status = readFileSync('/proc/self/status', 'utf8');
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)![1]);
  return { peakMb: kb('VmHWM') / 1024, nowMb: kb('VmRSS') / 1024 };
}

/** CPU milliseconds (user + system, this process) and wall milliseconds of `work`. */
export async function timed<T>(work: () => T | Promise<T>): Promise<{ value: T; cpuMs: number; wallMs: number }> {
  const cpu = process.cpuUsage();
  const t = performance.now();
  const value = await work();
  const wallMs = performance.now() - t;
  const used = process.cpuUsage(cpu);
  return { value, cpuMs: (used.user + used.system) / 1000, wallMs };
}

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
