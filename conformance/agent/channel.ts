// One WebSocket of the kit's agent-protocol client: opens with headers, reports a refused upgrade
// as its HTTP status and body (what a scenario asserts for bad keys), keeps every JSON message in
// an inbox, and lets a step take the first message that matches an expectation (others stay for
// later steps). The kit's own code: it shares nothing with the simulator (any target that serves
// the protocol can be tested).
import WebSocket from 'ws';
import { match, type Mismatch } from '../scenario/matchers.ts';


/** How often a wait looks at the clock; a longer gap between looks is a stall of this thread (waitUntil). */
const LISTEN_STEP_MS = 100;
export type OpenResult = { open: true } | { open: false; status: number; body: string } | { open: false; status: 0; body: string };

export interface Closed {
  code: number;
  reason: string;
}

export class Channel {
  /** Messages not taken by an expectation yet, in arrival order. */
  readonly inbox: Record<string, unknown>[] = [];
  /** Every message received, in order (taken or not). */
  readonly history: Record<string, unknown>[] = [];
  /** Messages diverted (media frames) before each kept message arrived. */
  private readonly divertedBefore = new WeakMap<Record<string, unknown>, number>();
  private diverted = 0;
  closed: Closed | undefined;
  private readonly ws: WebSocket;
  private wake: (() => void) | undefined;
  private readonly opening: Promise<OpenResult>;

  constructor(
    readonly url: string,
    headers: Record<string, string>,
    /** Messages this returns true for are counted by `onSkip` and never kept (media frames). */
    private readonly divert?: (msg: Record<string, unknown>) => boolean,
  ) {
    this.ws = new WebSocket(url, { headers, perMessageDeflate: false });
    this.ws.on('error', () => {});
    this.opening = new Promise((resolve) => {
      let refused = false;
      this.ws.once('open', () => resolve({ open: true }));
      this.ws.once('unexpected-response', (req, res) => {
        refused = true; // the close that follows is the refusal's, reported with its body below
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString('utf8')));
        const done = () => {
          resolve({ open: false, status: res.statusCode ?? 0, body });
          req.destroy();
        };
        res.on('end', done);
        res.on('error', done);
      });
      this.ws.once('close', () => {
        if (!refused) resolve({ open: false, status: 0, body: 'the connection closed before the upgrade finished' });
      });
    });
    this.ws.on('message', (data, binary) => {
      if (binary) return;
      let msg: unknown;
      try {
        msg = JSON.parse(data.toString('utf8'));
      } catch {
        msg = { event: '(not JSON)', text: data.toString('utf8').slice(0, 200) };
      }
      const m = (typeof msg === 'object' && msg !== null ? msg : { event: '(not an object)', value: msg }) as Record<string, unknown>;
      if (this.divert?.(m)) {
        this.diverted++;
        return this.poke();
      }
      this.divertedBefore.set(m, this.diverted);
      this.history.push(m);
      this.inbox.push(m);
      this.poke();
    });
    this.ws.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString('utf8') };
      this.poke();
    });
  }

  /** How many diverted messages (media frames) had arrived before this kept message did. */
  divertedBeforeOf(m: Record<string, unknown>): number | undefined {
    return this.divertedBefore.get(m);
  }

  opened(): Promise<OpenResult> {
    return this.opening;
  }

  get isOpen(): boolean {
    return this.ws.readyState === WebSocket.OPEN;
  }

  send(msg: unknown): boolean {
    if (!this.isOpen) return false;
    this.ws.send(typeof msg === 'string' ? msg : JSON.stringify(msg));
    return true;
  }

  close(code = 1000, reason = ''): Promise<Closed> {
    if (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING) this.ws.close(code, reason);
    return this.whenClosed(5000);
  }

  /** Wakes waiters: a message, a diverted frame or the close arrived. */
  poke(): void {
    const w = this.wake;
    this.wake = undefined;
    w?.();
  }

  /**
   * Waits until `ready()` is true, something arrives, or `timeoutMs` of wall time in which the kit
   * was listening has passed: the wait looks every LISTEN_STEP_MS, and a stall of this thread
   * (another unit's work beside this one, a loaded machine) counts as at most two steps, so it
   * never uses up the target's time (docs/decisions.md "Conformance kit: run time").
   */
  async waitUntil(ready: () => boolean, timeoutMs: number): Promise<boolean> {
    let waited = 0;
    let last = performance.now();
    while (!ready()) {
      const left = timeoutMs - waited;
      if (left <= 0) return false;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, LISTEN_STEP_MS));
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      const now = performance.now();
      waited += Math.min(now - last, 2 * LISTEN_STEP_MS);
      last = now;
    }
    return true;
  }

  /** Takes the first message in the inbox that matches; undefined with the closest mismatches after the timeout. */
  async take(expected: unknown, timeoutMs: number): Promise<{ message: Record<string, unknown> } | { mismatches: Mismatch[]; seen: string[] }> {
    let found = -1;
    await this.waitUntil(() => (found = this.inbox.findIndex((m) => match(expected, m).length === 0)) >= 0 || this.closed !== undefined, timeoutMs);
    if (found < 0) found = this.inbox.findIndex((m) => match(expected, m).length === 0);
    if (found >= 0) return { message: this.inbox.splice(found, 1)[0]! };
    const closest = this.inbox.map((m) => match(expected, m)).sort((a, b) => a.length - b.length)[0] ?? [{ path: '', message: this.closed ? `the socket closed (${this.closed.code} ${this.closed.reason}) with no matching message` : 'no message arrived' }];
    return { mismatches: closest, seen: this.inbox.map((m) => String(m.event)) };
  }

  /** Resolves with the close (code, reason) once the socket is closed, or undefined after the timeout. */
  async whenClosed(timeoutMs: number): Promise<Closed> {
    await this.waitUntil(() => this.closed !== undefined, timeoutMs);
    return this.closed ?? { code: -1, reason: `still open after ${timeoutMs} ms` };
  }
}
