// The official agent runtime's control connection, rebuilt from the reference's fact sheet
// (`public-agent-sdk-facts.md` §2) for the project's own tests: it must behave as the runtime does
// in everything the sheet marks [S], so a test that passes with it says the simulator would work
// with a customer's real agent. Python 0.57 behaviour by default, Node 0.45 where `flavour` says.
//   - URL `/v1/accounts/{accountId}/agent/listen?number=…` (ws/wss from the base URL's scheme),
//     `&role=retiring` once stepping down; `Authorization: Bearer <key>` on the upgrade.
//   - `agent.hello` once per connect(), never after an internal reconnect.
//   - Reconnect on any close except 4409 (taken over) and 4403 (ownership lost): backoff 1 s,
//     doubling, at most 30 s, reset after a successful open; connect() gives up after 10 s.
//   - Node: terminates the socket when no server ping came for 60 s (only pings reset it).
//   - JSON text frames, flat objects with `event`; unknown events ignored.
import WebSocket from 'ws';

export type Flavour = 'python' | 'node';

export interface ControlOptions {
  baseUrl: string;
  accountId: string;
  apiKey: string;
  number: string;
  flavour?: Flavour;
  /** The hello's capabilities (Python ≥0.54 / Node ≥0.42 send ["retire"]). */
  capabilities?: string[];
  /** First reconnect delay (1000 in the runtime; tests shorten it, the doubling and cap keep their ratio). */
  backoffMs?: number;
  /** Node's ping watchdog (60000 in the runtime). */
  pingTimeoutMs?: number;
  /** How long connect() waits for the first open (10000 in the runtime). */
  connectTimeoutMs?: number;
}

export interface ControlLog {
  /** Every control message received, in order (the event objects). */
  received: Record<string, unknown>[];
  /** Every message sent, in order. */
  sent: Record<string, unknown>[];
  /** Each socket's end: close code and reason (1006 for a drop). */
  closes: { code: number; reason: string }[];
  /** Wall-clock ms between a close and the next open attempt. */
  reconnectDelays: number[];
  opens: number;
  pings: number;
}

export const SDK_VERSIONS: Record<Flavour, { name: string; version: string; runtime: string }> = {
  python: { name: 'clawops-python', version: '0.57.1', runtime: 'python/3.12.4' },
  node: { name: 'clawops-node', version: '0.45.0', runtime: `node/${process.versions.node}` },
};

/** The control URL as the runtime builds it. */
export function controlUrl(o: Pick<ControlOptions, 'baseUrl' | 'accountId' | 'number'>, retiring = false): string {
  const base = new URL(o.baseUrl);
  const scheme = base.protocol === 'https:' ? 'wss:' : 'ws:';
  let url = `${scheme}//${base.host}/v1/accounts/${encodeURIComponent(o.accountId)}/agent/listen?number=${encodeURIComponent(o.number)}`;
  if (retiring) url += '&role=retiring';
  return url;
}

export class ControlConnection {
  readonly log: ControlLog = { received: [], sent: [], closes: [], reconnectDelays: [], opens: 0, pings: 0 };
  /** Set by a 4409 close or agent.retired: the runtime stops reconnecting and drains. */
  takenOver: { reason: string } | undefined;
  /** Set by a 4403 close: the number is no longer the account's. */
  ownershipLost = false;
  retiring = false;
  private ws: WebSocket | undefined;
  private stopped = false;
  private backoff: number;
  private pingWatch: ReturnType<typeof setTimeout> | undefined;
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly listeners: ((msg: Record<string, unknown>) => void)[] = [];
  private readonly flavour: Flavour;

  constructor(private readonly o: ControlOptions) {
    this.flavour = o.flavour ?? 'python';
    this.backoff = o.backoffMs ?? 1000;
  }

  /** Each event as it arrives. */
  onEvent(f: (msg: Record<string, unknown>) => void): void {
    this.listeners.push(f);
  }

  get open(): boolean {
    return this.ws?.readyState === WebSocket.OPEN;
  }

  /** Opens the socket and sends agent.hello (once for this call, whatever reconnects follow). */
  async connect(): Promise<void> {
    this.stopped = false;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('control socket did not open within the connect timeout')), this.o.connectTimeoutMs ?? 10_000);
      this.dial(() => {
        clearTimeout(timer);
        resolve();
      });
    });
    this.send({ event: 'agent.hello', sdk: { ...SDK_VERSIONS[this.flavour], os: `${process.platform}/${process.arch}`, capabilities: this.o.capabilities ?? ['retire'] } });
  }

  send(msg: Record<string, unknown>): boolean {
    if (!this.open) return false;
    this.log.sent.push(msg);
    this.ws!.send(JSON.stringify(msg));
    return true;
  }

  /** Marks the process as stepping down: later reconnects carry role=retiring. */
  stepDown(): void {
    this.retiring = true;
  }

  /** Closes for good (no reconnect). */
  close(code = 1000): Promise<void> {
    this.stopped = true;
    clearTimeout(this.reconnectTimer);
    clearTimeout(this.pingWatch);
    const ws = this.ws;
    if (!ws || ws.readyState === WebSocket.CLOSED) return Promise.resolve();
    return new Promise((resolve) => {
      ws.once('close', () => resolve());
      ws.close(code);
    });
  }

  /** Waits for the next event matching `test` (including ones already received when `past`). */
  waitFor(test: (msg: Record<string, unknown>) => boolean, timeoutMs = 5000, past = false): Promise<Record<string, unknown>> {
    if (past) {
      const hit = this.log.received.find(test);
      if (hit) return Promise.resolve(hit);
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no matching control event within ${timeoutMs} ms; got ${this.log.received.map((m) => m.event).join(', ')}`)), timeoutMs);
      this.listeners.push((m) => {
        if (test(m)) {
          clearTimeout(timer);
          resolve(m);
        }
      });
    });
  }

  private dial(onOpen?: () => void): void {
    const ws = new WebSocket(controlUrl(this.o, this.retiring), { headers: { authorization: `Bearer ${this.o.apiKey}` }, followRedirects: this.flavour === 'node' });
    this.ws = ws;
    ws.on('open', () => {
      this.log.opens++;
      this.backoff = this.o.backoffMs ?? 1000; // reset after a successful open
      this.watchPings();
      onOpen?.();
    });
    ws.on('ping', () => {
      this.log.pings++;
      this.watchPings();
    });
    ws.on('message', (data, binary) => {
      if (binary) return;
      let msg: unknown;
      try {
        msg = JSON.parse(data.toString('utf8'));
      } catch {
        return;
      }
      if (typeof msg !== 'object' || msg === null || typeof (msg as { event?: unknown }).event !== 'string') return;
      const event = msg as Record<string, unknown>;
      this.log.received.push(event);
      if (event.event === 'agent.retired') this.takenOver = { reason: String(event.reason ?? '') };
      for (const f of [...this.listeners]) f(event);
    });
    ws.on('error', () => {}); // 'close' follows
    ws.on('close', (code, reason) => {
      clearTimeout(this.pingWatch);
      this.log.closes.push({ code, reason: reason.toString() });
      if (code === 4409) this.takenOver = { reason: reason.toString() };
      if (code === 4403) this.ownershipLost = true;
      if (this.stopped || this.takenOver || this.ownershipLost) return;
      const delay = this.backoff;
      this.backoff = Math.min(this.backoff * 2, (this.o.backoffMs ?? 1000) * 30);
      this.log.reconnectDelays.push(delay);
      this.reconnectTimer = setTimeout(() => {
        if (!this.stopped) this.dial();
      }, delay);
    });
  }

  /** Node's watchdog: no server ping for pingTimeoutMs terminates the socket (then it reconnects). */
  private watchPings(): void {
    if (this.flavour !== 'node') return;
    clearTimeout(this.pingWatch);
    this.pingWatch = setTimeout(() => this.ws?.terminate(), this.o.pingTimeoutMs ?? 60_000);
  }
}
