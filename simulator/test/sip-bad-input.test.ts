// The SIP listener's answers to bad input (RFC 3261 §18.3, §21): malformed messages get 400 when a
// response can still be addressed and silence otherwise, truncated bodies 400, oversized messages
// 513, a lost TCP framing closes the connection after its answer; and the pure parts that decide
// it (stream framing, the Authorization header's auth-params) alone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness } from './helpers.ts';
import { REALM } from './sip-auth-helpers.ts';
import { SipTestClient, readReply } from './sip-client.ts';
import { StreamFramer, declaredLength } from '../resources/sip-server/framing.ts';
import { parseAuthParams, parseDigestCredentials } from '../resources/sip-server/digest.ts';
import type { SipListener } from '../index.ts';

const defects: unknown[] = [];
const h = harness({ onDefect: (e) => defects.push(e) });
let sip: SipListener;
let udp: SipTestClient;

beforeAll(async () => {
  sip = await h.sim.listenSip(0);
  udp = await SipTestClient.udp(sip.udp);
});
afterAll(async () => {
  udp.close();
  await h.sim.close();
  expect(defects).toEqual([]);
});

const lines = (port: number, extra: string[] = [], start = `OPTIONS sip:${REALM} SIP/2.0`) =>
  [start, `Via: SIP/2.0/UDP 127.0.0.1:${port};branch=z9hG4bK-bad-${Math.random().toString(36).slice(2)}`, 'From: <sip:a@b>;tag=1', `To: <sip:${REALM}>`, 'Call-ID: bad@test', 'CSeq: 1 OPTIONS', ...extra];
const msg = (ls: string[], body = '') => `${ls.join('\r\n')}\r\n\r\n${body}`;

describe('over UDP', () => {
  it('answers 400 naming the problem when a known header is malformed but the response can be addressed', async () => {
    udp.sendRaw(msg(lines(udp.localPort, ['Contact: <<<not a uri', 'Content-Length: 0'])));
    const r = await udp.next();
    expect(r.status).toBe(400);
    expect(r.get('call-id')).toBe('bad@test');
    expect(r.get('to')).toMatch(/;tag=[0-9a-f]{16}$/);
    expect(r.get('warning')).toMatch(/^399 platform-simulator "/);
  });

  it('answers 400 for a missing header, a CSeq method that is not the request\'s, and a body shorter than Content-Length', async () => {
    const noFrom = lines(udp.localPort, ['Content-Length: 0']).filter((l) => !l.startsWith('From'));
    udp.sendRaw(msg(noFrom));
    expect(await udp.nextRaw(300)).toBe('<silence>'); // no From: a response cannot be written (RFC 3261 §8.2.6)
    udp.sendRaw(msg(lines(udp.localPort, ['Content-Length: 0']).map((l) => (l.startsWith('CSeq') ? 'CSeq: 1 INVITE' : l))));
    const wrongCseq = await udp.next();
    expect(wrongCseq.status).toBe(400);
    expect(wrongCseq.get('warning')).toMatch(/CSeq method INVITE differs/);
    udp.sendRaw(msg(lines(udp.localPort, ['Content-Type: text/plain', 'Content-Length: 50']), 'only twenty bytes...'));
    const truncated = await udp.next();
    expect(truncated.status).toBe(400);
    expect(truncated.get('warning')).toMatch(/shorter than Content-Length 50/);
  });

  it('answers 513 to a datagram over 32 KiB, and stays silent for garbage, responses and a bare CRLF', async () => {
    udp.sendRaw(msg(lines(udp.localPort, [`X-Pad: ${'p'.repeat(40_000)}`, 'Content-Length: 0'])));
    const big = await udp.next();
    expect(big.status).toBe(513);
    for (const silent of ['garbage', '\r\n\r\n', 'SIP/2.0 200 OK\r\nVia: SIP/2.0/UDP 1.2.3.4;branch=z9hG4bKx\r\nFrom: <sip:a@b>;tag=1\r\nTo: <sip:c@d>\r\nCall-ID: r\r\nCSeq: 1 INVITE\r\n\r\n', msg(lines(udp.localPort, [], `ACK sip:${REALM} SIP/2.0`).map((l) => (l.startsWith('CSeq') ? 'CSeq: 1 ACK' : l)))]) {
      udp.sendRaw(silent);
    }
    expect(await udp.nextRaw(300)).toBe('<silence>');
  });

  it('answers a retransmission with the same bytes, handled once', async () => {
    const text = msg(lines(udp.localPort, ['Content-Length: 0']));
    udp.sendRaw(text);
    const first = await udp.nextRaw();
    udp.sendRaw(text);
    expect(await udp.nextRaw()).toBe(first);
  });
});

describe('over TCP', () => {
  it('answers 513 to a message over 32 KiB and closes the connection', async () => {
    const tcp = await SipTestClient.tcp(sip.tcp);
    tcp.sendRaw(msg(lines(tcp.localPort, ['Content-Length: 40000'])));
    expect(readReply(await tcp.nextRaw()).status).toBe(513);
    expect(await tcp.nextRaw()).toBe('<closed>');
  });

  it('answers 400 to a Content-Length that is not a number and closes the connection', async () => {
    const tcp = await SipTestClient.tcp(sip.tcp);
    tcp.sendRaw(msg(lines(tcp.localPort, ['Content-Length: ten'])));
    expect(readReply(await tcp.nextRaw()).status).toBe(400);
    expect(await tcp.nextRaw()).toBe('<closed>');
  });
});

describe('stream framing', () => {
  const enc = (s: string) => Buffer.from(s, 'latin1');
  it('frames by Content-Length across chunks, pings and pongs, and loses the framing once on a bad length or an oversized message', () => {
    const f = new StreamFramer(100);
    expect(f.push(enc('A\r\nContent-Length: 3\r\n\r\nab'))).toEqual([]);
    expect(f.push(enc('cB\r\n\r\n\r\n\r\n\r'))).toEqual([{ kind: 'message', text: 'A\r\nContent-Length: 3\r\n\r\nabc' }, { kind: 'message', text: 'B\r\n\r\n' }, { kind: 'ping' }]);
    expect(f.push(enc('\n\r'))).toEqual([]); // the start of a ping waits for its end
    expect(f.push(enc('\n'))).toEqual([{ kind: 'ping' }]);
    const bad = new StreamFramer(100);
    expect(bad.push(enc('A\r\nl: 1\r\nContent-Length: 2\r\n\r\nxx'))).toEqual([{ kind: 'bad-length', head: 'A\r\nl: 1\r\nContent-Length: 2' }]);
    expect(bad.broken).toBe(true);
    expect(bad.push(enc('more'))).toEqual([]);
    expect(new StreamFramer(20).push(enc('A\r\nContent-Length: 50\r\n\r\n'))).toEqual([{ kind: 'too-large', head: 'A\r\nContent-Length: 50' }]);
    expect(new StreamFramer(10).push(enc('no end of head yet'))).toEqual([{ kind: 'too-large', head: undefined }]);
  });

  it('reads Content-Length in long and compact form, once', () => {
    expect(declaredLength('X\r\nContent-Length:  12 ')).toBe(12);
    expect(declaredLength('X\r\nl: 0')).toBe(0);
    expect(declaredLength('X\r\nY: 1')).toBeUndefined();
    expect(declaredLength('X\r\nContent-Length: -1')).toBeNull();
  });
});

describe('digest credentials', () => {
  it('reads auth-params with quoted strings and escapes, and names what is wrong', () => {
    const p = parseAuthParams('Digest username="a\\"b", realm="r,1", nc=00000001, qop=auth');
    expect(p).toEqual({ scheme: 'Digest', params: new Map([['username', 'a"b'], ['realm', 'r,1'], ['nc', '00000001'], ['qop', 'auth']]) });
    expect(parseAuthParams('Digest a="unterminated')).toMatch(/unterminated/);
    expect(parseAuthParams('Digest a=1 b=2')).toMatch(/separated by commas/);
    expect(parseAuthParams('Digest a=1, a=2')).toMatch(/repeated/);
    expect(parseDigestCredentials('Basic abc=def')).toMatch(/not Digest/);
    expect(parseDigestCredentials('Digest username="a", realm="r", nonce="n", uri="u"')).toMatch(/lack response/);
    expect(parseDigestCredentials('Digest username="a", realm="r", nonce="n", uri="u", response="x", qop=auth')).toMatch(/needs nc and cnonce/);
  });
});
