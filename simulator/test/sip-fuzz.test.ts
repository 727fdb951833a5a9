// Fuzzing the SIP listener: thousands of mutated messages (bytes flipped, cut, inserted; lines
// dropped, doubled or rewritten; Content-Length lied about; oversized bodies) over UDP and TCP.
// Every answer must be a SIP response naming the request's Call-ID, no defect may be reported,
// nothing is stored, and afterwards the listener still registers devices and answers OPTIONS.
// fast-check runs with the suite's fixed seed and prints it with any failure.
import { afterAll, beforeAll, expect, it } from 'vitest';
import fc from 'fast-check';
import { harness } from './helpers.ts';
import { REALM } from './sip-auth-helpers.ts';
import { SipTestClient, register } from './sip-client.ts';
import type { SipListener } from '../index.ts';

const defects: unknown[] = [];
const h = harness({ onDefect: (e) => defects.push(e) });
let sip: SipListener;
const PASSWORD = 'correct horse battery';

beforeAll(async () => {
  sip = await h.sim.listenSip(0);
  const r = await h.call('POST', h.acme('/sip-credentials'), { name: 'desk', username: 'desk_01', password: PASSWORD });
  expect(r.status).toBe(201);
});
afterAll(() => h.sim.close());

const SEEDS = [
  (port: number) =>
    `REGISTER sip:${REALM} SIP/2.0\r\nVia: SIP/2.0/UDP 127.0.0.1:${port};branch=z9hG4bKseed1;rport\r\nMax-Forwards: 70\r\nFrom: <sip:desk_01@${REALM}>;tag=a\r\nTo: <sip:desk_01@${REALM}>\r\nCall-ID: fuzz-reg\r\nCSeq: 2 REGISTER\r\nContact: <sip:desk_01@127.0.0.1:${port};transport=udp>;expires=60\r\nAuthorization: Digest username="desk_01", realm="${REALM}", nonce="0123456789abcdef0123456789abcdef", uri="sip:${REALM}", response="0123456789abcdef0123456789abcdef", algorithm=MD5, qop=auth, nc=00000001, cnonce="x"\r\nContent-Length: 0\r\n\r\n`,
  (port: number) =>
    `INVITE sip:01012345678@${REALM} SIP/2.0\r\nVia: SIP/2.0/UDP 127.0.0.1:${port};branch=z9hG4bKseed2\r\nMax-Forwards: 70\r\nFrom: "Desk" <sip:desk_01@${REALM}>;tag=b\r\nTo: <sip:01012345678@${REALM}>\r\nCall-ID: fuzz-inv\r\nCSeq: 1 INVITE\r\nContact: <sip:desk_01@127.0.0.1:${port}>\r\nContent-Type: application/sdp\r\nContent-Length: 129\r\n\r\nv=0\r\no=- 1 1 IN IP4 127.0.0.1\r\ns=-\r\nc=IN IP4 127.0.0.1\r\nt=0 0\r\nm=audio 40000 RTP/AVP 0\r\na=rtpmap:0 PCMU/8000\r\na=sendrecv\r\n`,
  (port: number) =>
    `OPTIONS sip:${REALM} SIP/2.0\r\nv: SIP/2.0/UDP 127.0.0.1:${port};branch=z9hG4bKseed3, SIP/2.0/TCP 10.0.0.1:5060;branch=z9hG4bKx\r\nf: <sip:a@b>;tag=c\r\nt: <sip:${REALM}>\r\ni: fuzz-opt\r\nCSeq: 7 OPTIONS\r\nl: 0\r\n\r\n`,
  (port: number) => `SIP/2.0 200 OK\r\nVia: SIP/2.0/UDP 127.0.0.1:${port};branch=z9hG4bKseed4\r\nFrom: <sip:a@b>;tag=1\r\nTo: <sip:c@d>;tag=2\r\nCall-ID: fuzz-resp\r\nCSeq: 1 INVITE\r\nContent-Length: 0\r\n\r\n`,
];

type Mutation = (text: string) => string;
const at = (n: number, text: string) => (text.length === 0 ? 0 : n % (text.length + 1));
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })).map(([i, b]) => (t: string) => t.slice(0, at(i, t)) + String.fromCharCode(b) + t.slice(at(i, t) + 1)),
  fc.nat().map((i) => (t: string) => t.slice(0, at(i, t))),
  fc.tuple(fc.nat(), fc.string({ unit: 'binary', maxLength: 40 })).map(([i, s]) => (t: string) => t.slice(0, at(i, t)) + s + t.slice(at(i, t))),
  fc.nat().map((i) => (t: string) => {
    const lines = t.split('\r\n');
    lines.splice(i % lines.length, 1);
    return lines.join('\r\n');
  }),
  fc.nat().map((i) => (t: string) => {
    const lines = t.split('\r\n');
    const k = i % lines.length;
    lines.splice(k, 0, lines[k]!);
    return lines.join('\r\n');
  }),
  fc.tuple(fc.nat(), fc.string({ maxLength: 60 })).map(([i, v]) => (t: string) => {
    const lines = t.split('\r\n');
    const k = 1 + (i % Math.max(1, lines.length - 1));
    const colon = lines[k]?.indexOf(':') ?? -1;
    if (colon > 0) lines[k] = `${lines[k]!.slice(0, colon + 1)} ${v}`;
    return lines.join('\r\n');
  }),
  fc.oneof(fc.integer({ min: -5, max: 100_000 }), fc.constant(Number.NaN)).map((n) => (t: string) => t.replace(/(Content-Length|l): [^\r]*/, `$1: ${n}`)),
  fc.constant((t: string) => t.replace(/\r\n\r\n/, `\r\nX-Pad: ${'p'.repeat(40_000)}\r\n\r\n`)),
  fc.constant((t: string) => t.replaceAll('\r\n', '\n')),
);
const message = fc.tuple(fc.nat({ max: SEEDS.length - 1 }), fc.array(mutation, { minLength: 1, maxLength: 4 }));

/** Every answer is a SIP response; when the request still named a Call-ID, the answer names the same. */
function checkAnswer(answer: string): void {
  expect(answer, 'an answer that is not a SIP response').toMatch(/^SIP\/2\.0 [1-6]\d\d [^\r\n]*\r\n/);
  expect(answer).toMatch(/\r\nCall-ID: [^\r\n]*\r\n/);
  expect(answer).toMatch(/\r\nContent-Length: \d+\r\n\r\n/);
}

it('survives thousands of mutated messages over UDP and TCP, stores nothing, and still registers afterwards', async () => {
  const udp = await SipTestClient.udp(sip.udp);
  const before = JSON.stringify(h.sim.snapshot().models.sipServer);
  let sent = 0;
  let answered = 0;
  try {
    await fc.assert(
      fc.asyncProperty(fc.array(message, { minLength: 20, maxLength: 40 }), fc.boolean(), async (batch, overTcp) => {
        const client = overTcp ? await SipTestClient.tcp(sip.tcp) : udp;
        try {
          for (const [seed, mutations] of batch) {
            client.sendRaw(mutations.reduce((t, m) => m(t), SEEDS[seed]!(client.localPort)));
            sent++;
          }
          // UDP: a sentinel answered in order marks the end of the batch. TCP: the framing may
          // be lost on purpose, so a fresh connection carries the sentinel.
          // Over UDP the burst may overflow the socket's receive buffer (datagrams are dropped,
          // as on any network), so the sentinel is retransmitted like a SIP client's (Timer E).
          const probe = overTcp ? await SipTestClient.tcp(sip.tcp) : client;
          const sentinel = `sentinel-${sent}`;
          const ping = probe.build({ method: 'OPTIONS', uri: `sip:${REALM}`, from: '<sip:s@t>;tag=s', to: `<sip:${REALM}>`, callId: sentinel, cseq: 1 });
          probe.sendRaw(ping);
          for (let silent = 0; ; ) {
            const raw = await probe.nextRaw(500);
            if (raw === '<silence>') {
              if (++silent > 10) throw new Error('the listener stopped answering');
              probe.sendRaw(ping);
              continue;
            }
            if (raw === '<closed>' || raw === '\r\n') continue;
            if (probe === client) answered++;
            checkAnswer(raw);
            if (raw.includes(`\r\nCall-ID: ${sentinel}\r\n`)) break;
          }
          if (probe !== client) probe.close();
        } finally {
          if (overTcp) client.close();
        }
      }),
      { numRuns: Number(process.env.SIP_FUZZ_RUNS ?? 80), endOnFailure: process.env.SIP_FUZZ_DEBUG !== undefined },
    );
  } finally {
    udp.close();
  }
  expect(sent).toBeGreaterThanOrEqual(1600);
  expect(answered).toBeGreaterThan(100);
  expect(defects).toEqual([]);
  expect(JSON.stringify(h.sim.snapshot().models.sipServer)).toBe(before);
  const after = await SipTestClient.udp(sip.udp);
  try {
    const { final } = await register(after, { username: 'desk_01', password: PASSWORD, realm: REALM });
    expect(final.status).toBe(200);
    const options = await after.request({ method: 'OPTIONS', uri: `sip:${REALM}`, from: '<sip:a@b>;tag=1', to: `<sip:${REALM}>`, callId: 'after@fuzz', cseq: 1 });
    expect(options.status).toBe(200);
  } finally {
    after.close();
  }
}, 120_000);
