// A fake PBX or SIP phone on a loopback UDP port for the SIP server's tests: it keeps the requests
// it got, waits (wall time) for one of a method, and answers a request with a status.
import dgram from 'node:dgram';

/** A fake PBX on a UDP port: the requests it got, and a way to answer the last INVITE. */
export class Pbx {
  readonly got: string[] = [];
  private waiting: (() => void) | undefined;
  private constructor(readonly socket: dgram.Socket) {
    socket.on('message', (b) => {
      this.got.push(b.toString('latin1'));
      this.waiting?.();
    });
  }
  static async start(): Promise<Pbx> {
    const s = dgram.createSocket('udp4');
    await new Promise<void>((r) => s.bind(0, '127.0.0.1', () => r()));
    return new Pbx(s);
  }
  get port(): number {
    return this.socket.address().port;
  }
  /** Waits (wall time) for a request of this method. */
  async next(method: string): Promise<string> {
    for (let i = 0; i < 40; i++) {
      const found = this.got.find((m) => m.startsWith(`${method} `));
      if (found) {
        this.got.splice(this.got.indexOf(found), 1);
        return found;
      }
      await new Promise<void>((r) => {
        this.waiting = r;
        setTimeout(r, 50);
      });
    }
    throw new Error(`no ${method} arrived; got ${this.got.map((m) => m.split('\r\n')[0]).join(' | ')}`);
  }
  /** Answers a request with a status (copying Via, From, To with a tag, Call-ID, CSeq). */
  answer(request: string, status: number, reason: string, extra: string[] = [], body = ''): void {
    const header = (n: string) => request.split('\r\n').filter((l) => l.toLowerCase().startsWith(`${n.toLowerCase()}:`));
    const lines = [`SIP/2.0 ${status} ${reason}`, ...header('Via'), ...header('From'), `${header('To')[0]}${status > 100 ? ';tag=pbx' : ''}`, ...header('Call-ID'), ...header('CSeq'), ...extra, `Content-Length: ${body.length}`];
    const to = /Via: SIP\/2\.0\/UDP ([\d.]+):(\d+)/.exec(request)!;
    this.socket.send(`${lines.join('\r\n')}\r\n\r\n${body}`, Number(to[2]), to[1]);
  }
  close(): void {
    this.socket.close();
  }
}

/** An SDP answer of a PBX sending RTP from `port`. */
export const sdp = (port: number) => ['v=0', 'o=pbx 1 1 IN IP4 127.0.0.1', 's=pbx', 'c=IN IP4 127.0.0.1', 't=0 0', `m=audio ${port} RTP/AVP 0`, 'a=rtpmap:0 PCMU/8000', ''].join('\r\n');
