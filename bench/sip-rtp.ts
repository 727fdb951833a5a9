// SIP media bench (`npm run bench`, also alone: `node --import tsx bench/sip-rtp.ts`): CALLS
// concurrent calls from SIP clients held for VIRTUAL_SECONDS of virtual time with RTP both ways,
// against a bare UDP echo server handling the same packets in the same run.
//   - the simulator (bench/sip-rtp-server.ts, manual clock): CALLS INVITEs through the proxy
//     challenge, answered after a second by phones that say one line; then, every 100 ms step of
//     virtual time, each call's client sends 5 RTP packets (20 ms of PCMU each) and the clock
//     advances 100 ms, so the server sends each client 5 packets (the phone's line, then μ-law
//     silence); the step ends when the clients got them;
//   - the echo server (bench/rtp-echo-server.mjs): the same sockets send it the same packets per
//     step and get them back.
// Both servers report their own CPU time (process.cpuUsage, user + system) over the measured
// part only; the ratio is the simulator's CPU over the echo server's for the same packet count
// (lower is better), which the machine's other load disturbs less than wall time.
import { spawn, type ChildProcess } from 'node:child_process';
import dgram from 'node:dgram';
import { loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { stop } from './agent-sdk.ts';
import { digest, header, REALM, request, status } from './sip.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const CALLS = Number(process.env.BENCH_SIP_RTP_CALLS ?? 200);
const VIRTUAL_SECONDS = Number(process.env.BENCH_SIP_RTP_SECONDS ?? 60);
const STEP_MS = 100;
const FRAMES_PER_STEP = STEP_MS / 20;
/** Budget (bench/README.md): the simulator's CPU for the media minute over the echo server's for the same packets. */
export const SIP_RTP_RATIO_BUDGET = 3;
/** Share of the packets that must arrive each way (loopback: none should be lost). */
export const SIP_RTP_DELIVERED_BUDGET = 0.999;

export interface SipRtpBench {
  calls: number;
  virtualSeconds: number;
  /** RTP packets the clients sent (the server took `heard` of them), and got from the server (each way: calls × 50 per second). */
  packets: { sent: number; heard: number; received: number; lost: number; sequenceGaps: number; payloadsNot160: number };
  server: { cpuSeconds: number; cpuMsPerCallMinute: number; wallSeconds: number };
  echo: { cpuSeconds: number; received: number; wallSeconds: number };
  /** Simulator CPU over echo CPU for the same packet count. */
  ratio: number;
  /** The machine's 1-minute load average when the run ended. */
  load: number;
}

interface Proc {
  child: ChildProcess;
  /** Writes a command and resolves with the next line starting with `prefix`. */
  ask(command: string, prefix: string): Promise<string>;
  ready: string;
}

function start(args: string[]): Promise<Proc> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['pipe', 'pipe', 'inherit'] });
    const waiting: { prefix: string; resolve: (line: string) => void }[] = [];
    let ready = false;
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (!ready && line.startsWith('READY ')) {
        ready = true;
        resolve({ child, ready: line.slice(6), ask });
        return;
      }
      const i = waiting.findIndex((w) => line.startsWith(w.prefix));
      if (i >= 0) waiting.splice(i, 1)[0]!.resolve(line);
    });
    const ask = (command: string, prefix: string) =>
      new Promise<string>((r) => {
        waiting.push({ prefix, resolve: r });
        child.stdin!.write(`${command}\n`);
      });
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)));
  });
}

const cpuOf = async (p: Proc) => Number((await p.ask('cpu', 'CPU ')).slice(4)) / 1e6;

/** The client side of one call: its RTP socket and what it got. */
interface CallMedia {
  socket: dgram.Socket;
  port: number;
  seq: number;
  received: number;
  lastSeq: number | undefined;
  gaps: number;
  odd: number;
}

async function mediaSocket(): Promise<CallMedia> {
  const socket = dgram.createSocket('udp4');
  await new Promise<void>((r) => socket.bind(0, '127.0.0.1', () => r()));
  socket.setRecvBufferSize(256 * 1024);
  const m: CallMedia = { socket, port: socket.address().port, seq: 0, received: 0, lastSeq: undefined, gaps: 0, odd: 0 };
  socket.on('message', (b) => {
    m.received++;
    const seq = b.readUInt16BE(2);
    if (m.lastSeq !== undefined && seq !== ((m.lastSeq + 1) & 0xffff)) m.gaps++;
    m.lastSeq = seq;
    if (b.length - 12 !== 160 || (b[1]! & 0x7f) !== 0) m.odd++;
  });
  return m;
}

const PAYLOAD = Buffer.alloc(160, 0x55);
function rtpPacket(m: CallMedia): Buffer {
  const p = Buffer.allocUnsafe(172);
  p[0] = 0x80;
  p[1] = 0;
  p.writeUInt16BE(m.seq & 0xffff, 2);
  p.writeUInt32BE((m.seq * 160) >>> 0, 4);
  p.writeUInt32BE(0xbe4c, 8);
  PAYLOAD.copy(p, 12);
  m.seq++;
  return p;
}

/** The SIP side: one socket for every dialog, answers routed by Call-ID. */
async function sipClient(port: number) {
  const socket = dgram.createSocket('udp4');
  await new Promise<void>((r) => socket.bind(0, '127.0.0.1', () => r()));
  const inbox = new Map<string, string[]>();
  const waiters = new Map<string, () => void>();
  socket.on('message', (b) => {
    const text = b.toString('latin1');
    const id = header(text, 'Call-ID') ?? '';
    inbox.set(id, [...(inbox.get(id) ?? []), text]);
    waiters.get(id)?.();
  });
  const next = async (callId: string): Promise<string> => {
    for (let i = 0; i < 100; i++) {
      const q = inbox.get(callId) ?? [];
      if (q.length > 0) return q.shift()!;
      await new Promise<void>((r) => {
        waiters.set(callId, r);
        setTimeout(r, 50).unref();
      });
    }
    throw new Error(`no answer for ${callId}`);
  };
  const send = (text: string) => socket.send(Buffer.from(text, 'latin1'), port, '127.0.0.1');
  return { socket, next, send, local: socket.address().port };
}

const sdp = (port: number) => ['v=0', 'o=bench 1 1 IN IP4 127.0.0.1', 's=bench', 'c=IN IP4 127.0.0.1', 't=0 0', `m=audio ${port} RTP/AVP 0`, 'a=rtpmap:0 PCMU/8000', ''].join('\r\n');

/** Runs the steps: every call sends FRAMES_PER_STEP packets to `target`, `advance` runs, and the step ends when the clients got `expectPerStep` more (or half a second passed). */
async function steps(media: CallMedia[], target: (i: number) => number, advance: () => Promise<unknown>, expectPerStep: number): Promise<number> {
  const t0 = performance.now();
  const total = () => media.reduce((n, m) => n + m.received, 0);
  const base = total();
  for (let s = 0; s < (VIRTUAL_SECONDS * 1000) / STEP_MS; s++) {
    media.forEach((m, i) => {
      for (let f = 0; f < FRAMES_PER_STEP; f++) m.socket.send(rtpPacket(m), target(i), '127.0.0.1');
    });
    await advance();
    const want = base + (s + 1) * expectPerStep;
    for (let w = 0; w < 50 && total() < want; w++) await new Promise((r) => setTimeout(r, 10));
  }
  const wall = (performance.now() - t0) / 1000;
  await new Promise((r) => setTimeout(r, 500)); // the server reads the last steps' packets before its CPU is read
  return wall;
}

export async function benchSipRtp(): Promise<SipRtpBench> {
  const sim = await start(['--import', 'tsx', 'bench/sip-rtp-server.ts']);
  const echo = await start(['bench/rtp-echo-server.mjs']);
  const [sipPort, rtpPort] = sim.ready.split(' ').map(Number) as [number, number];
  const media = await Promise.all(Array.from({ length: CALLS }, () => mediaSocket()));
  const sip = await sipClient(sipPort);
  try {
    // The calls: INVITE, 407, ACK, INVITE with credentials, 100 (20 at a time, 100 ms of virtual time apart).
    const dialogs: { callId: string; to: string; from: string; dialogTo?: string }[] = [];
    for (let first = 0; first < CALLS; first += 20) {
      await Promise.all(
        media.slice(first, first + 20).map(async (m, k) => {
          const i = first + k;
          const callId = `rtp-${i}`;
          const to = `sip:0108200${String(i).padStart(4, '0')}@${REALM}`;
          const from = `<sip:07012340001@${REALM}>;tag=r${i}`;
          const invite = (cseq: number, extra: string[]) => request('INVITE', to, sip.local, callId, cseq, [`Contact: <sip:07012340001@127.0.0.1:${sip.local}>`, 'Content-Type: application/sdp', ...extra], sdp(m.port), from, `<${to}>`);
          sip.send(invite(1, []));
          const challenge = await sip.next(callId);
          if (status(challenge) !== 407) throw new Error(challenge.split('\r\n')[0]);
          sip.send(request('ACK', to, sip.local, callId, 1, [], '', from, header(challenge, 'To')));
          sip.send(invite(2, [`Proxy-Authorization: ${digest(header(challenge, 'Proxy-Authenticate')!, 'INVITE', to, 1)}`]));
          const trying = await sip.next(callId);
          if (status(trying) !== 100) throw new Error(trying.split('\r\n')[0]);
          dialogs[i] = { callId, to, from };
        }),
      );
      await sim.ask('advance 100', 'OK'); // calls placed 100 ms apart per 20: their answers do not all land in one burst
    }
    for (let t = 0; t < 2000; t += 100) await sim.ask('advance 100', 'OK'); // every phone answers after a second
    await Promise.all(
      dialogs.map(async (d) => {
        let answer = await sip.next(d.callId);
        while (status(answer) < 200) answer = await sip.next(d.callId);
        if (status(answer) !== 200) throw new Error(answer.split('\r\n')[0]);
        d.dialogTo = header(answer, 'To');
        sip.send(request('ACK', d.to, sip.local, d.callId, 2, [], '', d.from, d.dialogTo));
      }),
    );
    await new Promise((r) => setTimeout(r, 200));
    for (const m of media) {
      m.received = 0;
      m.lastSeq = undefined;
    }

    const simCpu0 = await cpuOf(sim);
    const simWall = await steps(media, () => rtpPort, () => sim.ask(`advance ${STEP_MS}`, 'OK'), CALLS * FRAMES_PER_STEP);
    const simCpu = (await cpuOf(sim)) - simCpu0;
    const heard = Number((await sim.ask('heard', 'HEARD ')).slice(6));
    const got = media.reduce((n, m) => n + m.received, 0);
    const gaps = media.reduce((n, m) => n + m.gaps, 0);
    const odd = media.reduce((n, m) => n + m.odd, 0);
    const sent = CALLS * FRAMES_PER_STEP * ((VIRTUAL_SECONDS * 1000) / STEP_MS);

    const echoPort = Number(echo.ready);
    const echoCpu0 = await cpuOf(echo);
    const echoWall = await steps(media, () => echoPort, () => Promise.resolve(), CALLS * FRAMES_PER_STEP);
    const echoCpu = (await cpuOf(echo)) - echoCpu0;
    const echoGot = media.reduce((n, m) => n + m.received, 0) - got;

    await Promise.all(dialogs.map(async (d) => sip.send(request('BYE', d.to, sip.local, d.callId, 3, [], '', d.from, d.dialogTo))));
    return {
      calls: CALLS,
      virtualSeconds: VIRTUAL_SECONDS,
      packets: { sent, heard, received: got, lost: sent - got, sequenceGaps: gaps, payloadsNot160: odd },
      server: { cpuSeconds: simCpu, cpuMsPerCallMinute: (simCpu * 1000) / (CALLS * (VIRTUAL_SECONDS / 60)), wallSeconds: simWall },
      echo: { cpuSeconds: echoCpu, received: echoGot, wallSeconds: echoWall },
      ratio: simCpu / Math.max(echoCpu, 0.001),
      load: loadavg()[0]!,
    };
  } finally {
    sip.socket.close();
    for (const m of media) m.socket.close();
    await stop(sim.child);
    await stop(echo.child);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  console.log(JSON.stringify(await benchSipRtp(), null, 2));
}
