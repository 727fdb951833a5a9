// Agent SDK bench (`npm run bench`, also alone: `node --import tsx bench/agent-sdk.ts`): CALLS
// concurrent agent calls, each exchanging SECONDS of audio each way with a minimal client (one
// 160-byte μ-law frame every 20 ms from the agent; the simulator sends one every 20 ms back),
// against a bare `ws` echo server carrying the same frames in the same run. Reported:
//   - messages per CPU-second of each server process (/proc/<pid>/stat, user + system), and the
//     simulator's share of the bare server's figure;
//   - in realtime mode, the spacing of the frames each call receives: the p99 of |gap - 20 ms|.
// Both servers run in processes of their own; the load comes from this process.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';

const root = fileURLToPath(new URL('..', import.meta.url));
export const CALLS = Number(process.env.BENCH_AGENT_CALLS ?? 100);
/** Budgets (bench/README.md): the simulator's messages per CPU-second against the bare echo server's, and the realtime spacing. */
export const AGENT_RATIO_BUDGET = 0.25;
export const AGENT_SPACING_P99_BUDGET_MS = 100;
export const SECONDS = Number(process.env.BENCH_AGENT_SECONDS ?? 60);
const FRAME = JSON.stringify({ event: 'media', media: { payload: Buffer.alloc(160, 0x55).toString('base64') } });
const TICKS_PER_SECOND = 100; // CLK_TCK on Linux

export interface Measured {
  messages: number;
  cpuSeconds: number;
  perCpuSecond: number;
  wallSeconds: number;
  /** Realtime runs: |gap - 20 ms| between consecutive frames a call received, ms. */
  spacing?: { p50: number; p99: number; max: number; samples: number };
  calls: number;
}

function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND; // utime, stime
}

function start(args: string[]): Promise<{ child: ChildProcess; lines: string[] }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      if (out.includes('\n')) resolve({ child, lines: out.trim().split(/\s+/) });
    });
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)));
  });
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.removeAllListeners('exit');
    child.on('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** One timer for every stream: each sends a frame per 20 ms while it is on. */
function framePump(): { add(send: () => void): () => void; stop(): void } {
  const senders = new Set<() => void>();
  const timer = setInterval(() => {
    for (const s of senders) s();
  }, 20);
  return {
    add: (send) => (senders.add(send), () => senders.delete(send)),
    stop: () => clearInterval(timer),
  };
}

const quantile = (xs: number[], q: number) => xs[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;

/** The bare ws echo server: CALLS sockets, each sending a frame per 20 ms for SECONDS. */
export async function echoRun(calls = CALLS, seconds = SECONDS): Promise<Measured> {
  const { child, lines } = await start(['bench/ws-echo-server.mjs']);
  const url = `ws://127.0.0.1:${lines[1]}`;
  const pump = framePump();
  let received = 0;
  let sent = 0;
  const sockets = await Promise.all(
    Array.from({ length: calls }, () => new Promise<WebSocket>((resolve) => {
      const ws = new WebSocket(url, { perMessageDeflate: false });
      ws.on('message', () => received++);
      ws.on('open', () => resolve(ws));
    })),
  );
  const cpu0 = cpuSeconds(child.pid!);
  const t0 = performance.now();
  const offs = sockets.map((ws) => pump.add(() => (ws.send(FRAME), sent++)));
  await new Promise((r) => setTimeout(r, seconds * 1000));
  offs.forEach((off) => off());
  pump.stop();
  await new Promise((r) => setTimeout(r, 500)); // the last echoes
  const cpu = cpuSeconds(child.pid!) - cpu0;
  const wall = (performance.now() - t0) / 1000;
  for (const ws of sockets) ws.terminate();
  await stop(child);
  const messages = sent + received;
  return { messages, cpuSeconds: cpu, perCpuSecond: messages / cpu, wallSeconds: wall, calls };
}

/**
 * The simulator: one control socket for the number, CALLS inbound calls placed at once through
 * the control plane; each agent answers, streams a frame per 20 ms for SECONDS, then hangs up with
 * the handshake. Counts every message the simulator sent and received on the sockets.
 */
export async function simRun(clock: 'manual' | 'realtime', calls = CALLS, seconds = SECONDS): Promise<Measured> {
  // BENCH_AGENT_PROFILE=dir writes the server's CPU profile there (node --cpu-prof).
  const profile = process.env.BENCH_AGENT_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_AGENT_PROFILE}`] : [];
  const { child, lines } = await start([...profile, '--import', 'tsx', 'bench/agent-sdk-server.ts', '--clock', clock]);
  const [, port, accountId, apiKey, number] = lines;
  const base = `127.0.0.1:${port}`;
  const pump = framePump();
  let serverSent = 0;
  let serverReceived = 0;
  const gaps: number[] = [];
  const ended = new Set<string>();
  let allEnded!: () => void;
  const done = new Promise<void>((r) => (allEnded = r));
  const control = new WebSocket(`ws://${base}/v1/accounts/${accountId}/agent/listen?number=${number}`, { headers: { authorization: `Bearer ${apiKey}` }, perMessageDeflate: false });
  const send = (ws: WebSocket, text: string) => {
    ws.send(text);
    serverReceived++;
  };
  control.on('message', (data) => {
    serverSent++;
    const msg = JSON.parse(data.toString());
    if (msg.event === 'call.incoming') {
      send(control, JSON.stringify({ event: 'call.accept', callId: msg.callId }));
      answer(msg.mediaUrl);
    } else if (msg.event === 'call.ended') {
      ended.add(msg.callId);
      if (ended.size === calls) allEnded();
    }
  });
  const answer = (mediaUrl: string) => {
    const media = new WebSocket(mediaUrl, { headers: { authorization: `Bearer ${apiKey}` }, perMessageDeflate: false });
    let last: number | undefined;
    let frames = 0;
    let off: (() => void) | undefined;
    media.on('message', (data) => {
      serverSent++;
      const text = data.toString();
      if (text.startsWith('{"event":"media"')) {
        const now = performance.now();
        if (last !== undefined && clock === 'realtime') gaps.push(Math.abs(now - last - 20));
        last = now;
        return;
      }
      const msg = JSON.parse(text);
      if (msg.event === 'start') {
        off = pump.add(() => {
          if (++frames <= seconds * 50) return send(media, FRAME);
          off!();
          send(media, JSON.stringify({ event: 'mark', mark: { name: `hangup-${Date.now()}` } }));
        });
      } else if (msg.event === 'mark' && String(msg.mark.name).startsWith('hangup-')) media.close(1000);
    });
    media.on('error', () => {});
  };
  await new Promise<void>((r) => control.on('open', () => r()));
  const cpu0 = cpuSeconds(child.pid!);
  const t0 = performance.now();
  // A phone per call with nothing to say: the agent talks all along, so the phone never takes a turn.
  for (let i = 0; i < calls; i++) {
    const res = await fetch(`http://${base}/_sim/carrier/inbound-calls`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ from: `010${String(20000000 + i)}`, to: number }) });
    if (res.status !== 201) throw new Error(`placing a call failed: ${res.status} ${await res.text()}`);
  }
  await done;
  const cpu = cpuSeconds(child.pid!) - cpu0;
  const wall = (performance.now() - t0) / 1000;
  pump.stop();
  control.close();
  await stop(child);
  const messages = serverSent + serverReceived;
  gaps.sort((a, b) => a - b);
  const spacing = gaps.length ? { p50: quantile(gaps, 0.5), p99: quantile(gaps, 0.99), max: gaps.at(-1)!, samples: gaps.length } : undefined;
  return { messages, cpuSeconds: cpu, perCpuSecond: messages / cpu, wallSeconds: wall, calls, ...(spacing ? { spacing } : {}) };
}

export async function benchAgentSdk(): Promise<{ echo: Measured; sim: Measured; realtime: Measured; ratio: number }> {
  const echo = await echoRun();
  const sim = await simRun('manual');
  const realtime = await simRun('realtime');
  return { echo, sim, realtime, ratio: sim.perCpuSecond / echo.perCpuSecond };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const r = await benchAgentSdk();
  const f = (n: number, d = 0) => n.toFixed(d);
  console.log(`Agent SDK: ${CALLS} calls x ${SECONDS} s of audio each way`);
  console.log(`  bare ws echo: ${f(r.echo.messages)} messages, ${f(r.echo.cpuSeconds, 2)} CPU s, ${f(r.echo.perCpuSecond)} msg/CPU-s`);
  console.log(`  simulator (manual clock): ${f(r.sim.messages)} messages, ${f(r.sim.cpuSeconds, 2)} CPU s, ${f(r.sim.perCpuSecond)} msg/CPU-s, ratio ${f(r.ratio, 2)}`);
  const s = r.realtime.spacing;
  console.log(`  simulator (realtime): ${f(r.realtime.perCpuSecond)} msg/CPU-s; frame spacing |gap-20ms| p50 ${s ? f(s.p50, 2) : '-'} ms, p99 ${s ? f(s.p99, 2) : '-'} ms, max ${s ? f(s.max, 1) : '-'} ms over ${s?.samples ?? 0} gaps`);
}
