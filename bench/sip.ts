// SIP bench (`npm run bench`, also alone: `node --import tsx bench/sip.ts`): registrations and
// calls per second through the SIP listener, against a bare UDP echo server in the same run.
// WORKERS clients on loopback UDP each repeat, for SECONDS:
//   - a registration: REGISTER, 401, REGISTER with an MD5 digest, 200 (two round trips);
//   - a call: INVITE, 407, ACK, INVITE with credentials, 100/180/200 (the carrier answers on the
//     simulator's clock at 100 times speed), ACK, BYE, 200: a call record, a carrier outcome and
//     usage each;
//   - against the echo server: the same datagrams, each answered at once (round trips).
// Reported per wall second and per CPU-second of the server process (/proc/<pid>/stat), which
// the machine's other load disturbs less; the ratio is the listener's round trips per CPU-second
// against the echo server's.
import { spawn, type ChildProcess } from 'node:child_process';
import dgram from 'node:dgram';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { cpuSeconds, stop } from './agent-sdk.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const SECONDS = Number(process.env.BENCH_SIP_SECONDS ?? 5);
const WORKERS = 10; // at most 10 contacts per credential
export const REALM = 'ac1a2b3c4d.sip.claw-ops.com';
/** Budgets (bench/README.md): the listener's registration round trips per CPU-second against the echo server's, and calls per CPU-second. */
export const SIP_RATIO_BUDGET = 0.008;
export const SIP_CALLS_PER_CPU_SECOND_BUDGET = 200;

export interface SipBench {
  registrations: { count: number; perSecond: number; perCpuSecond: number };
  calls: { count: number; perSecond: number; perCpuSecond: number };
  echo: { roundTrips: number; perSecond: number; perCpuSecond: number };
  /** Registration round trips per CPU-second over the echo server's. */
  ratio: number;
}

function start(args: string[]): Promise<{ child: ChildProcess; port: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /READY (\d+)/.exec(out);
      if (m) resolve({ child, port: Number(m[1]) });
    });
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)));
  });
}

/** A UDP client that waits for the next datagram (a status line it expects, skipping others). */
async function client(port: number) {
  const socket = dgram.createSocket('udp4');
  await new Promise<void>((r) => socket.bind(0, '127.0.0.1', () => r()));
  const inbox: string[] = [];
  let waiter: (() => void) | undefined;
  socket.on('message', (b) => {
    inbox.push(b.toString('latin1'));
    waiter?.();
  });
  const next = async (): Promise<string> => {
    for (;;) {
      const m = inbox.shift();
      if (m !== undefined) return m;
      await new Promise<void>((r) => {
        waiter = r;
        setTimeout(r, 2000).unref();
      });
      if (inbox.length === 0) throw new Error('no answer within 2 s');
    }
  };
  const send = (text: string) => socket.send(Buffer.from(text, 'latin1'), port, '127.0.0.1');
  return { socket, next, send, local: socket.address().port };
}

const md5 = (s: string) => createHash('md5').update(s).digest('hex');
export function digest(challenge: string, method: string, uri: string, nc: number): string {
  const nonce = /nonce="([^"]+)"/.exec(challenge)![1]!;
  const ha1 = md5(`bench_01:${REALM}:bench password 1`);
  const n = nc.toString(16).padStart(8, '0');
  const response = md5(`${ha1}:${nonce}:${n}:c0ffee:auth:${md5(`${method}:${uri}`)}`);
  return `Digest username="bench_01", realm="${REALM}", nonce="${nonce}", uri="${uri}", response="${response}", algorithm=MD5, qop=auth, nc=${n}, cnonce="c0ffee"`;
}

let seq = 0;
export function request(method: string, uri: string, local: number, callId: string, cseq: number, extra: string[] = [], body = '', from = `<sip:bench_01@${REALM}>;tag=b${callId}`, to = `<${uri.startsWith('sip:0') ? uri : `sip:bench_01@${REALM}`}>`) {
  const lines = [`${method} ${uri} SIP/2.0`, `Via: SIP/2.0/UDP 127.0.0.1:${local};branch=z9hG4bK-bench-${++seq};rport`, 'Max-Forwards: 70', `From: ${from}`, `To: ${to}`, `Call-ID: ${callId}`, `CSeq: ${cseq} ${method}`, ...extra, `Content-Length: ${body.length}`];
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
}
export const status = (m: string) => Number(m.slice(8, 11));
export const header = (m: string, name: string) => new RegExp(`^${name}: (.*)$`, 'mi').exec(m)?.[1]?.trim();

async function registerLoop(port: number, worker: number, until: number): Promise<number> {
  const c = await client(port);
  let done = 0;
  const contact = [`Contact: <sip:bench_01@127.0.0.1:${50000 + worker}>`, 'Expires: 3600']; // one contact per worker: at most 10 per credential
  while (performance.now() < until) {
    const callId = `reg-${worker}-${done}`;
    c.send(request('REGISTER', `sip:${REALM}`, c.local, callId, 1, contact));
    const challenge = await c.next();
    if (status(challenge) !== 401) throw new Error(challenge.split('\r\n')[0]);
    c.send(request('REGISTER', `sip:${REALM}`, c.local, callId, 2, [...contact, `Authorization: ${digest(header(challenge, 'WWW-Authenticate')!, 'REGISTER', `sip:${REALM}`, 1)}`]));
    const ok = await c.next();
    if (status(ok) !== 200) throw new Error(ok.split('\r\n')[0]);
    done++;
  }
  c.socket.close();
  return done;
}

const SDP = ['v=0', 'o=bench 1 1 IN IP4 127.0.0.1', 's=bench', 'c=IN IP4 127.0.0.1', 't=0 0', 'm=audio 40000 RTP/AVP 0', 'a=rtpmap:0 PCMU/8000', ''].join('\r\n');

async function callLoop(port: number, worker: number, until: number): Promise<number> {
  const c = await client(port);
  let done = 0;
  while (performance.now() < until) {
    const callId = `call-${worker}-${done}`;
    const to = `sip:0108100${String(worker).padStart(2, '0')}${String(done % 100).padStart(2, '0')}@${REALM}`;
    const from = `<sip:07012340001@${REALM}>;tag=c${worker}x${done}`;
    const invite = (cseq: number, extra: string[]) => request('INVITE', to, c.local, callId, cseq, [`Contact: <sip:07012340001@127.0.0.1:${c.local}>`, 'Content-Type: application/sdp', ...extra], SDP, from, `<${to}>`);
    c.send(invite(1, []));
    const challenge = await c.next();
    if (status(challenge) !== 407) throw new Error(challenge.split('\r\n')[0]);
    c.send(request('ACK', to, c.local, callId, 1, [], '', from, header(challenge, 'To')));
    c.send(invite(2, [`Proxy-Authorization: ${digest(header(challenge, 'Proxy-Authenticate')!, 'INVITE', to, 1)}`]));
    let answer = await c.next();
    while (status(answer) < 200) answer = await c.next();
    if (status(answer) !== 200) throw new Error(answer.split('\r\n')[0]);
    const dialogTo = header(answer, 'To')!;
    c.send(request('ACK', to, c.local, callId, 2, [], '', from, dialogTo));
    c.send(request('BYE', to, c.local, callId, 3, [], '', from, dialogTo));
    const bye = await c.next();
    if (status(bye) !== 200) throw new Error(bye.split('\r\n')[0]);
    done++;
  }
  c.socket.close();
  return done;
}

async function echoLoop(port: number, until: number): Promise<number> {
  const c = await client(port);
  let done = 0;
  const text = request('REGISTER', `sip:${REALM}`, c.local, 'echo', 1, ['Contact: <sip:bench_01@127.0.0.1>', 'Expires: 3600']);
  while (performance.now() < until) {
    c.send(text);
    await c.next();
    done++;
  }
  c.socket.close();
  return done;
}

/** Runs WORKERS loops for SECONDS against a server process; counts and CPU-seconds it spent. */
async function measure(pid: number, loop: (worker: number, until: number) => Promise<number>) {
  const cpu0 = cpuSeconds(pid);
  const t0 = performance.now();
  const counts = await Promise.all(Array.from({ length: WORKERS }, (_, w) => loop(w, t0 + SECONDS * 1000)));
  const wall = (performance.now() - t0) / 1000;
  const cpu = cpuSeconds(pid) - cpu0;
  const count = counts.reduce((a, b) => a + b, 0);
  return { count, perSecond: count / wall, perCpuSecond: count / Math.max(cpu, 0.01) };
}

export async function benchSip(): Promise<SipBench> {
  const sim = await start(['--import', 'tsx', 'bench/sip-server.ts']);
  const echoServer = await start(['bench/udp-echo-server.mjs']);
  try {
    await measure(sim.child.pid!, (w, until) => registerLoop(sim.port, w, Math.min(until, performance.now() + 500))); // warm-up
    const echo = await measure(echoServer.child.pid!, (_w, until) => echoLoop(echoServer.port, until));
    const registrations = await measure(sim.child.pid!, (w, until) => registerLoop(sim.port, w, until));
    const calls = await measure(sim.child.pid!, (w, until) => callLoop(sim.port, w, until));
    return {
      registrations,
      calls,
      echo: { roundTrips: echo.count, perSecond: echo.perSecond, perCpuSecond: echo.perCpuSecond },
      ratio: (registrations.perCpuSecond * 2) / echo.perCpuSecond,
    };
  } finally {
    await stop(sim.child);
    await stop(echoServer.child);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const r = await benchSip();
  console.log(JSON.stringify(r, null, 2));
}
