// Messages on a stream transport (TCP): RFC 3261 §18.3 frames them by Content-Length (absent
// means no body). Blank lines between messages are keep-alives (RFC 5626 §3.5.1: a double CRLF
// ping wants a single CRLF pong). A message larger than the limit, or a Content-Length that is
// not one number, loses the framing: the framer says so once and reads nothing more (the socket
// adapter answers and closes). Pure: bytes in, frames out; latin1 keeps one character per byte.

export type Frame =
  | { kind: 'message'; text: string }
  | { kind: 'ping' }
  /** The head of the message that does not fit (undefined when even the head is longer than the limit). */
  | { kind: 'too-large'; head: string | undefined }
  | { kind: 'bad-length'; head: string };

const CONTENT_LENGTH = /^(?:content-length|l)[ \t]*:[ \t]*(.*)$/gim;

/** The declared body length: a number, undefined when absent, or null when malformed or repeated. */
export function declaredLength(head: string): number | undefined | null {
  const values = [...head.matchAll(CONTENT_LENGTH)].map((m) => m[1]!.trim());
  if (values.length === 0) return undefined;
  if (values.length > 1 || !/^\d{1,9}$/.test(values[0]!)) return null;
  return Number(values[0]);
}

export class StreamFramer {
  private buffer = '';
  private lost = false;

  constructor(private readonly max: number) {}

  /** Whether framing was lost (the connection should close). */
  get broken(): boolean {
    return this.lost;
  }

  push(chunk: Uint8Array): Frame[] {
    if (this.lost) return [];
    this.buffer += Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString('latin1');
    const out: Frame[] = [];
    for (;;) {
      if (this.buffer.startsWith('\r\n\r\n')) {
        out.push({ kind: 'ping' });
        this.buffer = this.buffer.slice(4);
        continue;
      }
      if (this.buffer.startsWith('\r\n')) {
        if ('\r\n\r\n'.startsWith(this.buffer)) break; // maybe the start of a ping
        this.buffer = this.buffer.slice(2); // a pong, or a stray blank line
        continue;
      }
      const end = this.buffer.indexOf('\r\n\r\n');
      if (end < 0) {
        if (this.buffer.length > this.max) out.push(this.lose({ kind: 'too-large', head: undefined }));
        break;
      }
      const head = this.buffer.slice(0, end);
      const length = declaredLength(head);
      if (length === null) {
        out.push(this.lose({ kind: 'bad-length', head }));
        break;
      }
      const total = end + 4 + (length ?? 0);
      if (total > this.max) {
        out.push(this.lose({ kind: 'too-large', head }));
        break;
      }
      if (this.buffer.length < total) break;
      out.push({ kind: 'message', text: this.buffer.slice(0, total) });
      this.buffer = this.buffer.slice(total);
    }
    return out;
  }

  private lose(frame: Frame): Frame {
    this.lost = true;
    this.buffer = '';
    return frame;
  }
}
