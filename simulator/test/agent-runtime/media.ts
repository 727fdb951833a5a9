// The official agent runtime's media connection for one call, rebuilt from the reference's fact
// sheet (§3) for the project's tests. What it holds the server to ([S] in the sheet):
//   - Python reads `start.streamId` and `start.callId` with no default: a `start` without them
//     tears the call down (KeyError); Node defaults them to "".
//   - `media.payload` is mandatory and `media.timestamp` must parse as an integer (Python `int()`
//     raises on "20.5", Node's parseInt would not): either failure tears the call down (Python).
//   - `stop` ends the call on the agent's side: the runtime closes the socket.
//   - It sends `media` {payload} (no streamId), `mark` {name}, `clear`, `dtmf` {digit}, audio of
//     any size with no pacing of its own, also before `start` arrives.
//   - Hang-up handshake: flush, mark `hangup-<epoch ms>`, wait for its echo (at most 5 s; a
//     timeout is not an error), then a normal close.
//   - `Authorization: Bearer <key>` on the upgrade, the URL used as given.
import WebSocket from 'ws';
import type { Flavour } from './control.ts';

export interface MediaLog {
  /** Every message received, parsed, in order. */
  received: Record<string, unknown>[];
  /** Inbound audio, one entry per `media` frame. */
  frames: Buffer[];
  /** `media.timestamp` of each frame, as the runtime parses it. */
  timestamps: number[];
  /** Digits the phone pressed. */
  dtmf: string[];
  /** Names of marks echoed, in order. */
  echoes: string[];
  sentMessages: number;
}

export class MediaConnection {
  readonly log: MediaLog = { received: [], frames: [], timestamps: [], dtmf: [], echoes: [], sentMessages: 0 };
  streamId: string | undefined;
  callId: string | undefined;
  /** Why the runtime tore the call down, when it did (a KeyError or ValueError in Python). */
  crash: string | undefined;
  /** The close code and reason, once closed. */
  readonly closed: Promise<{ code: number; reason: string; byServer: boolean }>;
  readonly started: Promise<void>;
  private ws: WebSocket;
  private closing = false;
  private readonly markWaiters = new Map<string, () => void>();
  private readonly frameListeners: ((frame: Buffer, index: number) => void)[] = [];
  private resolveStarted!: () => void;

  constructor(
    url: string,
    apiKey: string,
    private readonly flavour: Flavour = 'python',
  ) {
    this.started = new Promise((r) => (this.resolveStarted = r));
    this.ws = new WebSocket(url, { headers: { authorization: `Bearer ${apiKey}` } });
    this.ws.on('error', () => {});
    this.closed = new Promise((resolve) => {
      this.ws.on('close', (code, reason) => resolve({ code, reason: reason.toString(), byServer: !this.closing }));
    });
    this.ws.on('message', (data, binary) => {
      if (!binary) this.onMessage(data.toString('utf8'));
    });
  }

  /** Resolves once the socket is open; rejects with the HTTP status when the upgrade is refused. */
  opened(): Promise<void> {
    if (this.ws.readyState === WebSocket.OPEN) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.ws.once('open', () => resolve());
      this.ws.once('unexpected-response', (_, res) => reject(Object.assign(new Error(`media upgrade refused with ${res.statusCode}`), { status: res.statusCode })));
      this.ws.once('close', () => reject(new Error('media socket closed before opening')));
    });
  }

  /** Each inbound frame as it arrives. */
  onFrame(f: (frame: Buffer, index: number) => void): void {
    this.frameListeners.push(f);
  }

  get open(): boolean {
    return this.ws.readyState === WebSocket.OPEN;
  }

  /** Sends audio as one `media` message (any size; the runtime does not pace). */
  sendAudio(audio: Buffer): void {
    this.raw({ event: 'media', media: { payload: audio.toString('base64') } });
  }

  /** Sends audio cut into pieces of `pieceBytes` (a TTS stream's deltas), all at once. */
  sendAudioPieces(audio: Buffer, pieceBytes: number): void {
    for (let at = 0; at < audio.length; at += pieceBytes) this.sendAudio(audio.subarray(at, at + pieceBytes));
  }

  /** Sends a mark; resolves when the server echoes it. */
  mark(name: string): Promise<void> {
    const echoed = new Promise<void>((resolve) => this.markWaiters.set(name, resolve));
    this.raw({ event: 'mark', mark: { name } });
    return echoed;
  }

  clear(): void {
    this.raw({ event: 'clear' });
  }

  /** One `dtmf` message per digit (`w`/`W` pauses are the runtime's own sleeps, never sent). */
  async sendDigits(digits: string): Promise<void> {
    for (const d of digits) {
      if (d === 'w' || d === 'W') await new Promise((r) => setTimeout(r, d === 'w' ? 500 : 1000));
      else this.raw({ event: 'dtmf', dtmf: { digit: d } });
    }
  }

  /** The hang-up handshake: mark hangup-<ms>, wait for the echo (≤5 s, a timeout is fine), close normally. */
  async hangup(echoWaitMs = 5000): Promise<{ echoed: boolean }> {
    if (!this.open) return { echoed: false };
    const name = `hangup-${Date.now()}`;
    const echoed = await Promise.race([this.mark(name).then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), echoWaitMs))]);
    this.closing = true;
    this.ws.close(1000);
    await this.closed;
    return { echoed };
  }

  /** Closes without the handshake (a crash or a dropped process). */
  drop(): void {
    this.closing = true;
    this.ws.terminate();
  }

  /** Resolves after `n` inbound frames in total have arrived. */
  framesReceived(n: number, timeoutMs = 10_000): Promise<void> {
    if (this.log.frames.length >= n) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`only ${this.log.frames.length} of ${n} frames within ${timeoutMs} ms`)), timeoutMs);
      this.onFrame((_, i) => {
        if (i + 1 >= n) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
  }

  private raw(msg: Record<string, unknown>): void {
    if (this.ws.readyState !== WebSocket.OPEN) return;
    this.log.sentMessages++;
    this.ws.send(JSON.stringify(msg));
  }

  private tearDown(why: string): void {
    this.crash ??= why;
    this.closing = true;
    this.ws.close(1000);
  }

  private onMessage(text: string): void {
    if (this.crash) return;
    let msg: Record<string, any>;
    try {
      msg = JSON.parse(text);
    } catch {
      return;
    }
    this.log.received.push(msg);
    switch (msg.event) {
      case 'start': {
        const start = msg.start ?? {};
        if (this.flavour === 'python' && (!('streamId' in start) || !('callId' in start))) return this.tearDown(`KeyError: '${'streamId' in start ? 'callId' : 'streamId'}'`);
        this.streamId = start.streamId ?? '';
        this.callId = start.callId ?? '';
        this.resolveStarted();
        return;
      }
      case 'media': {
        const media = msg.media ?? {};
        if (this.flavour === 'python' && !('payload' in media)) return this.tearDown("KeyError: 'payload'");
        const ts = String(media.timestamp);
        if (this.flavour === 'python' && !/^\s*[-+]?\d+\s*$/.test(ts)) return this.tearDown(`ValueError: invalid literal for int(): '${ts}'`);
        const frame = Buffer.from(String(media.payload ?? ''), 'base64');
        this.log.frames.push(frame);
        this.log.timestamps.push(this.flavour === 'python' ? Number(ts) : parseInt(ts, 10));
        const i = this.log.frames.length - 1;
        for (const f of this.frameListeners) f(frame, i);
        return;
      }
      case 'dtmf':
        this.log.dtmf.push(String(msg.dtmf?.digit));
        return;
      case 'mark': {
        const name = String(msg.mark?.name);
        this.log.echoes.push(name);
        this.markWaiters.get(name)?.();
        this.markWaiters.delete(name);
        return;
      }
      case 'stop':
        // The remote party is gone: the runtime stops its AI session and closes its side.
        this.closing = true;
        this.ws.close(1000);
        return;
      default:
        return; // `connected` and anything else: ignored
    }
  }
}
