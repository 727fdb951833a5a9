// A small SIP client for tests, written apart from the server's code: it builds requests by
// hand, reads responses with its own line splitter, and answers digest challenges (MD5 or
// SHA-256, qop auth) the way a phone does. UDP or TCP on loopback; it stops with `close()`.
import dgram from 'node:dgram';
import net from 'node:net';
import { createHash } from 'node:crypto';

export interface SipReply {
  status: number;
  reason: string;
  text: string;
  /** Every value of a header, by lowercase name (compact forms not expanded: the server writes long names). */
  all(name: string): string[];
  get(name: string): string | undefined;
}

export function readReply(text: string): SipReply {
  const [head] = text.split('\r\n\r\n', 1);
  const [start, ...lines] = head!.split('\r\n');
  const m = /^SIP\/2\.0 (\d{3}) (.*)$/.exec(start!);
  if (!m) throw new Error(`not a SIP response: ${JSON.stringify(start)}`);
  const headers = lines.map((l) => [l.slice(0, l.indexOf(':')).trim().toLowerCase(), l.slice(l.indexOf(':') + 1).trim()] as const);
  const all = (name: string) => headers.filter(([k]) => k === name).map(([, v]) => v);
  return { status: Number(m[1]), reason: m[2]!, text, all, get: (name) => all(name)[0] };
}

export type Algorithm = 'MD5' | 'SHA-256';
const h = (a: Algorithm, s: string) => createHash(a === 'MD5' ? 'md5' : 'sha256').update(s).digest('hex');

/** The params of one WWW-Authenticate value. */
export function challengeParams(value: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of value.replace(/^Digest\s+/i, '').matchAll(/([a-z]+)=("([^"]*)"|[^,\s]+)/gi)) out[m[1]!.toLowerCase()] = m[3] ?? m[2]!;
  return out;
}

/** The Authorization value answering a challenge. */
export function digestAnswer(o: { challenge: string; username: string; password: string; method: string; uri: string; nc?: number; cnonce?: string }): string {
  const c = challengeParams(o.challenge);
  const algorithm = (c.algorithm ?? 'MD5').toUpperCase() as Algorithm;
  const nc = (o.nc ?? 1).toString(16).padStart(8, '0');
  const cnonce = o.cnonce ?? 'c0ffee';
  const ha1 = h(algorithm, `${o.username}:${c.realm}:${o.password}`);
  const ha2 = h(algorithm, `${o.method}:${o.uri}`);
  const response = h(algorithm, `${ha1}:${c.nonce}:${nc}:${cnonce}:auth:${ha2}`);
  return `Digest username="${o.username}", realm="${c.realm}", nonce="${c.nonce}", uri="${o.uri}", response="${response}", algorithm=${algorithm}, qop=auth, nc=${nc}, cnonce="${cnonce}"`;
}

export interface RequestParts {
  method: string;
  uri: string;
  from: string;
  to: string;
  callId: string;
  cseq: number;
  branch?: string;
  headers?: [string, string][];
  body?: string;
}

let branches = 0;

export class SipTestClient {
  private readonly inbox: string[] = [];
  private waiting: ((text: string) => void) | undefined;
  private tcpBuffer = '';

  private constructor(
    readonly transport: 'udp' | 'tcp',
    private readonly write: (bytes: Buffer) => void,
    readonly localPort: number,
    private readonly stop: () => void,
  ) {}

  static async udp(port: number, host = '127.0.0.1'): Promise<SipTestClient> {
    const socket = dgram.createSocket('udp4');
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', () => resolve()));
    const c: SipTestClient = new SipTestClient('udp', (b) => socket.send(b, port, host), socket.address().port, () => socket.close());
    socket.on('message', (b) => c.deliver(b.toString('latin1')));
    socket.on('error', () => {}); // a datagram too large to send (the fuzz test's): it is lost, as on a network
    return c;
  }

  static async tcp(port: number, host = '127.0.0.1'): Promise<SipTestClient> {
    const socket = net.connect(port, host);
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    const c: SipTestClient = new SipTestClient('tcp', (b) => socket.write(b), socket.localPort!, () => socket.destroy());
    socket.on('data', (b) => c.feed(b.toString('latin1')));
    socket.on('close', () => c.deliver('<closed>'));
    return c;
  }

  private feed(chunk: string): void {
    this.tcpBuffer += chunk;
    for (;;) {
      if (this.tcpBuffer.startsWith('\r\n')) {
        this.deliver('\r\n');
        this.tcpBuffer = this.tcpBuffer.slice(2);
        continue;
      }
      const end = this.tcpBuffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(this.tcpBuffer.slice(0, end))?.[1] ?? 0);
      if (this.tcpBuffer.length < end + 4 + length) return;
      this.deliver(this.tcpBuffer.slice(0, end + 4 + length));
      this.tcpBuffer = this.tcpBuffer.slice(end + 4 + length);
    }
  }

  private deliver(text: string): void {
    const w = this.waiting;
    if (w) {
      this.waiting = undefined;
      w(text);
    } else this.inbox.push(text);
  }

  /** Raw bytes as they are. */
  sendRaw(bytes: string | Buffer): void {
    this.write(typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : bytes);
  }

  /** The next thing received (a message, a CRLF pong, or `<closed>`), or `<silence>` after `ms` of wall time. */
  nextRaw(ms = 2000): Promise<string> {
    const queued = this.inbox.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting = undefined;
        resolve('<silence>');
      }, ms);
      this.waiting = (t) => {
        clearTimeout(timer);
        resolve(t);
      };
    });
  }

  async next(ms?: number): Promise<SipReply> {
    return readReply(await this.nextRaw(ms));
  }

  build(p: RequestParts): string {
    const branch = p.branch ?? `z9hG4bK-test-${++branches}`;
    const body = p.body ?? '';
    const lines = [
      `${p.method} ${p.uri} SIP/2.0`,
      `Via: SIP/2.0/${this.transport.toUpperCase()} 127.0.0.1:${this.localPort};branch=${branch};rport`,
      'Max-Forwards: 70',
      `From: ${p.from}`,
      `To: ${p.to}`,
      `Call-ID: ${p.callId}`,
      `CSeq: ${p.cseq} ${p.method}`,
      ...(p.headers ?? []).map(([k, v]) => `${k}: ${v}`),
      `Content-Length: ${Buffer.byteLength(body)}`,
    ];
    return `${lines.join('\r\n')}\r\n\r\n${body}`;
  }

  async request(p: RequestParts): Promise<SipReply> {
    this.sendRaw(this.build(p));
    return this.next();
  }

  close(): void {
    this.stop();
  }
}

let calls = 0;

export interface RegisterOptions {
  username: string;
  password: string;
  realm: string;
  expires?: number;
  contact?: string;
  /** The challenge to answer (default the first: SHA-256). */
  algorithm?: Algorithm;
  callId?: string;
  cseq?: number;
}

/** REGISTER, answer the challenge, and return both replies (the 401 and the final one). */
export async function register(c: SipTestClient, o: RegisterOptions): Promise<{ challenge: SipReply; final: SipReply; callId: string }> {
  const callId = o.callId ?? `reg-${++calls}@test`;
  const aor = `sip:${o.username}@${o.realm}`;
  const uri = `sip:${o.realm}`;
  const cseq = o.cseq ?? 1;
  const headers: [string, string][] = [
    ['Contact', `<${o.contact ?? `sip:${o.username}@127.0.0.1:${c.localPort}`}>`],
    ['Expires', String(o.expires ?? 3600)],
  ];
  const base = { method: 'REGISTER', uri, from: `<${aor}>;tag=t${calls}`, to: `<${aor}>`, callId };
  const challenge = await c.request({ ...base, cseq, headers });
  if (challenge.status !== 401) return { challenge, final: challenge, callId };
  const pick = challenge.all('www-authenticate').find((v) => (challengeParams(v).algorithm ?? 'MD5').toUpperCase() === (o.algorithm ?? 'SHA-256'))!;
  const auth = digestAnswer({ challenge: pick, username: o.username, password: o.password, method: 'REGISTER', uri });
  const final = await c.request({ ...base, cseq: cseq + 1, headers: [...headers, ['Authorization', auth]] });
  return { challenge, final, callId };
}
