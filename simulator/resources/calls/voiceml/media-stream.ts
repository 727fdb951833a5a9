// `<Connect><Stream url="wss://...">`: the media stream to the customer's WebSocket.
// Real I/O on the flow HTTP client's skeleton (peers/outbound-client.ts): undici's WebSocket
// through an agent whose connections resolve through the shared egress guard (strict mode
// refuses internal addresses before connecting and at the connection), registered with the I/O barrier so a clock advance
// waits for it, and bounded by a wall-clock deadline so a server that never answers cannot stall
// the clock. The messages (streamMessages) are a pure function of the session: the same seed
// gives the same stream. docs/webhooks.md "Media streams" documents them; docs/decisions.md
// "VoiceML" the choices.
import type { IoBarrier } from '../../../core/io.ts';
import type { EgressGuard } from '../../../peers/egress.ts';
import { GuardedClient } from '../../../peers/outbound-client.ts';
import { encodeSample } from '../../../peers/speech/mulaw.ts';

/** Each media frame carries 20 ms of audio: 160 bytes of 8 kHz mono μ-law. */
export const FRAME_MS = 20;
export const FRAME_BYTES = 160;
/** The stream lasts the phone's speakSeconds, within these bounds. */
export const STREAM_SECONDS = [1, 10] as const;
export const DEFAULT_STREAM_TIMEOUT_MS = 5000;
const TONE_HZ = 440;

export interface StreamSession {
  url: string;
  name: string | null;
  streamSid: string;
  callId: string;
  accountId: string;
  from: string;
  to: string;
  /** Media frames to send (the stream's length / 20 ms). */
  frames: number;
  /** Keys the phone presses during the stream, one `dtmf` message each. */
  keys: string;
}

/**
 * What happened: `sent` media frames went out (all of them: they are written in one synchronous
 * burst once the socket opens, so no close from the app can land in between). The app's own messages (media, mark, clear...) are not played or counted: the
 * simulator closes right after `stop`, and WebSocket clients drop messages that arrive while
 * closing, so a count would depend on network timing and the walk would not be deterministic.
 */
export type StreamOutcome =
  | { ok: true; sent: number }
  | { ok: false; reason: string };

/** G.711 μ-law of one 16-bit linear sample (the speech peer's codec). */
export const muLaw = encodeSample;

/** Frame `i` (from 0) of the phone's audio: a continuous 440 Hz tone at a third of full scale. */
export function frameAudio(i: number): Buffer {
  const out = Buffer.alloc(FRAME_BYTES);
  for (let k = 0; k < FRAME_BYTES; k++) {
    const n = i * FRAME_BYTES + k;
    out[k] = muLaw(Math.sin((2 * Math.PI * TONE_HZ * n) / 8000) * 10_922);
  }
  return out;
}

/** The whole stream, in order: connected, start, the media frames, one dtmf per key, stop. */
export function streamMessages(s: StreamSession): Record<string, unknown>[] {
  let seq = 0;
  const next = () => String(++seq);
  const out: Record<string, unknown>[] = [{ event: 'connected', protocol: 'Call', version: '1.0.0' }];
  out.push({
    event: 'start',
    sequenceNumber: next(),
    streamSid: s.streamSid,
    start: {
      streamSid: s.streamSid,
      accountId: s.accountId,
      callId: s.callId,
      from: s.from,
      to: s.to,
      name: s.name,
      tracks: ['inbound'],
      customParameters: {},
      mediaFormat: { encoding: 'audio/x-mulaw', sampleRate: 8000, channels: 1 },
    },
  });
  for (let i = 0; i < s.frames; i++) {
    out.push({ event: 'media', sequenceNumber: next(), streamSid: s.streamSid, media: { track: 'inbound', chunk: String(i + 1), timestamp: String(i * FRAME_MS), payload: frameAudio(i).toString('base64') } });
  }
  for (const digit of s.keys) out.push({ event: 'dtmf', sequenceNumber: next(), streamSid: s.streamSid, dtmf: { track: 'inbound', digit } });
  out.push({ event: 'stop', sequenceNumber: next(), streamSid: s.streamSid, stop: { accountId: s.accountId, callId: s.callId } });
  return out;
}

export class MediaStreamClient extends GuardedClient {
  constructor(
    guard: EgressGuard,
    private readonly io: IoBarrier,
  ) {
    super(guard, DEFAULT_STREAM_TIMEOUT_MS);
  }

  /** Why the URL may not be opened, or undefined when it may. */
  refusal(url: string): string | undefined {
    return this.refusalOf(url, ['ws:', 'wss:'], 'a ws or wss', 'refused by the egress policy: ');
  }

  /** Runs the stream and hands the outcome to `land` while it still counts as in flight (as FlowHttpClient.send). */
  open(session: StreamSession, land: (outcome: StreamOutcome) => void): void {
    // The outcome enters through the I/O barrier (recorded with durable state). A stream cut by a
    // restart is not opened again: its socket died with the process, so it failed (docs/decisions.md "Durable state").
    this.track(this.io.outcome('media.stream', () => this.run(session), (): StreamOutcome => ({ ok: false, reason: `the stream to ${session.url} was cut: the simulator restarted` })), land);
  }

  private async run(s: StreamSession): Promise<StreamOutcome> {
    const refused = this.refusal(s.url);
    if (refused !== undefined) return { ok: false, reason: `${s.url} is ${refused}` };
    const { undici, agent } = await this.connector();
    const { WebSocket } = undici;
    const messages = streamMessages(s);
    return new Promise<StreamOutcome>((resolve) => {
      let opened = false;
      let sent = 0;
      let stopped = false; // every message went out
      let settled = false;
      let ws: InstanceType<typeof WebSocket>;
      const deadline = AbortSignal.timeout(this.timeoutMs);
      const done = (o: StreamOutcome) => {
        if (settled) return;
        settled = true;
        deadline.removeEventListener('abort', onDeadline);
        resolve(o);
      };
      const onDeadline = () => {
        // Stopped: the stream is over, only the closing handshake was missing.
        if (stopped) done({ ok: true, sent });
        else done({ ok: false, reason: opened ? `${s.url} did not finish the stream within ${this.timeoutMs} ms` : `${s.url} did not accept the WebSocket within ${this.timeoutMs} ms` });
        try {
          ws?.close();
        } catch {
          /* already closing */
        }
      };
      deadline.addEventListener('abort', onDeadline);
      try {
        ws = new WebSocket(s.url, { dispatcher: agent });
      } catch (e) {
        return done({ ok: false, reason: `${s.url} cannot be opened: ${(e as Error).message}` });
      }
      ws.addEventListener('open', () => {
        opened = true;
        for (const m of messages) {
          if (ws.readyState !== WebSocket.OPEN) break; // the app closed first
          ws.send(JSON.stringify(m));
          if (m.event === 'media') sent++;
        }
        stopped = ws.readyState === WebSocket.OPEN;
        if (stopped) ws.close(1000, 'stream ended');
      });
      ws.addEventListener('error', () => {
        if (!opened) done({ ok: false, reason: `could not open a WebSocket to ${s.url} (refused, not a WebSocket server, or the handshake failed)` });
      });
      ws.addEventListener('close', () => {
        if (!opened) return done({ ok: false, reason: `could not open a WebSocket to ${s.url} (refused, not a WebSocket server, or the handshake failed)` });
        done({ ok: true, sent });
      });
    });
  }
}

/** The stream's length from the phone's speakSeconds (the phone talks into the stream), in media frames. */
export function streamFrames(speakSeconds: number): number {
  const seconds = Math.min(Math.max(speakSeconds, STREAM_SECONDS[0]), STREAM_SECONDS[1]);
  return (seconds * 1000) / FRAME_MS;
}

/** The walk's input once the stream is over, and how long after its start the call goes on (ms). */
export function streamEnded(streamSid: string, o: StreamOutcome): { input: { kind: 'streamed'; streamSid: string; ok: boolean; reason: string | null; sent: number }; afterMs: number } {
  if (!o.ok) return { input: { kind: 'streamed', streamSid, ok: false, reason: o.reason, sent: 0 }, afterMs: 0 };
  return { input: { kind: 'streamed', streamSid, ok: true, reason: null, sent: o.sent }, afterMs: o.sent * FRAME_MS };
}
