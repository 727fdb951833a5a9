// The kit's agent-protocol client: what a YAML scenario uses to act as a customer's own agent
// (Agent SDK protocol, reference sheet §2-§3) against the simulator or any target that serves the
// protocol. Control: connect for a number (Bearer on the upgrade, `role=retiring` on request),
// hello, expect events, send any message. Media: open a call's `mediaUrl`, send audio, marks,
// clear and DTMF, the hang-up handshake; inbound `media` frames are counted and their audio kept
// (they arrive 50 a second and would drown the events a scenario expects), with a check of the
// frame rules the official runtime relies on (160 bytes, integer-string timestamps 20 ms apart).
import { Channel, type OpenResult } from './channel.ts';
import { FRAME_BYTES } from './audio.ts';

export interface ControlTarget {
  /** ws:// or wss:// origin of the target's HTTP port. */
  socketBase: string;
  accountId: string;
  apiKey: string;
}

/** The control URL (ws or wss kept from the base). */
export function listenUrl(t: ControlTarget, number: string, retiring = false): string {
  return `${t.socketBase}/v1/accounts/${encodeURIComponent(t.accountId)}/agent/listen?number=${encodeURIComponent(number)}${retiring ? '&role=retiring' : ''}`;
}

/** The hello the official runtimes send (Python 0.57 by default). */
export function helloMessage(capabilities: string[] = ['retire']): Record<string, unknown> {
  return { event: 'agent.hello', sdk: { name: 'clawops-python', version: '0.57.1', runtime: 'python/3.12.4', os: 'linux/x86_64', capabilities } };
}

export class ControlClient {
  constructor(readonly channel: Channel) {}

  static async connect(t: ControlTarget, number: string, opts: { retiring?: boolean; hello?: string[] | false; apiKey?: string } = {}): Promise<{ client: ControlClient; open: OpenResult }> {
    const channel = new Channel(listenUrl(t, number, opts.retiring), { authorization: `Bearer ${opts.apiKey ?? t.apiKey}` });
    const open = await channel.opened();
    const client = new ControlClient(channel);
    if (open.open && opts.hello !== false) channel.send(helloMessage(opts.hello ?? ['retire']));
    return { client, open };
  }

  send(msg: Record<string, unknown>): boolean {
    return this.channel.send(msg);
  }
}

/** Frame rules an official runtime depends on; the first broken one, per stream. */
export interface FrameCheck {
  frames: number;
  /** Bytes of inbound audio, in order. */
  audio: Buffer[];
  problem: string | undefined;
}

export class MediaClient {
  readonly frames: FrameCheck = { frames: 0, audio: [], problem: undefined };

  private constructor(readonly channel: Channel) {}

  static async open(url: string, apiKey: string): Promise<{ client: MediaClient; open: OpenResult }> {
    let client: MediaClient | undefined;
    const pending: Record<string, unknown>[] = [];
    const channel = new Channel(url, { authorization: `Bearer ${apiKey}` }, (m) => {
      if (m.event !== 'media') return false;
      if (client) client.frame(m);
      else pending.push(m);
      return true;
    });
    client = new MediaClient(channel);
    for (const m of pending) client.frame(m);
    return { client, open: await channel.opened() };
  }

  sendAudio(audio: Buffer, pieceBytes = audio.length): void {
    for (let at = 0; at < audio.length; at += Math.max(1, pieceBytes)) this.channel.send({ event: 'media', media: { payload: audio.subarray(at, at + pieceBytes).toString('base64') } });
  }

  mark(name: string): void {
    this.channel.send({ event: 'mark', mark: { name } });
  }

  clear(): void {
    this.channel.send({ event: 'clear' });
  }

  dtmf(digits: string): void {
    for (const digit of digits) this.channel.send({ event: 'dtmf', dtmf: { digit } });
  }

  /** The runtime's hang-up: mark hangup-<n>, wait for the echo (≤ waitMs), then a normal close. */
  async hangup(waitMs = 5000): Promise<{ echoed: boolean }> {
    const name = `hangup-${Date.now()}`;
    this.mark(name);
    const got = await this.channel.take({ event: 'mark', mark: { name } }, waitMs);
    await this.channel.close(1000);
    return { echoed: 'message' in got };
  }

  /** Waits until `n` inbound frames arrived in total. */
  async framesReach(n: number, timeoutMs: number): Promise<boolean> {
    return this.channel.waitUntil(() => this.frames.frames >= n || this.channel.closed !== undefined, timeoutMs).then(() => this.frames.frames >= n);
  }

  private frame(m: Record<string, unknown>): void {
    const media = (m.media ?? {}) as Record<string, unknown>;
    const index = this.frames.frames++;
    const payload = typeof media.payload === 'string' ? Buffer.from(media.payload, 'base64') : Buffer.alloc(0);
    this.frames.audio.push(payload);
    if (this.frames.problem) return;
    if (typeof media.payload !== 'string') this.frames.problem = `frame ${index + 1} has no payload`;
    else if (payload.length !== FRAME_BYTES) this.frames.problem = `frame ${index + 1} carries ${payload.length} bytes, not ${FRAME_BYTES}`;
    else if (typeof media.timestamp !== 'string' || !/^\d+$/.test(media.timestamp)) this.frames.problem = `frame ${index + 1} has timestamp ${JSON.stringify(media.timestamp)}, not an integer string`;
    else if (Number(media.timestamp) !== index * 20) this.frames.problem = `frame ${index + 1} has timestamp ${media.timestamp}, expected ${index * 20} (20 ms per frame from 0)`;
    else if (media.chunk !== String(index + 1)) this.frames.problem = `frame ${index + 1} has chunk ${JSON.stringify(media.chunk)}`;
  }
}
