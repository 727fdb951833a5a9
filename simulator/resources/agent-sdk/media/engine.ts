// One call's media stream as a deterministic unit (Agent SDK media protocol, server side): the
// messages it sends (`connected`, `start`, one `media` frame of 160 μ-law bytes per 20 ms tick with
// integer-string `timestamp`, `dtmf`, `mark` echoes, `stop`) and what it does with the agent's
// messages (audio of any size paced out a frame per tick, marks fenced in order, `clear`, DTMF).
// It never reads a clock: `tick()` plays one frame each way and the caller decides when (the
// pacer, in wall time; tests, in a loop). Its position (frames played) is the call's media clock:
// everything it logs is stamped with it, so the same messages at the same positions give the same
// log, whatever the network did. docs/agent-sdk.md "Media socket" is the wire reference.
import { MULAW_SILENCE } from '../../../peers/speech/mulaw.ts';
import type { ClientMediaMessage } from './client-messages.ts';
import { FRAME_BYTES, OutboundQueue } from './outbound-queue.ts';

export const FRAME_MS = 20;
/** Frames between two keys the phone presses (200 ms: a key press and its pause). */
export const DTMF_GAP_FRAMES = 10;
/** Events kept per call for the inspector and the conversation (then only counted in stats). */
export const MAX_EVENTS = 10_000;

export interface StreamIds {
  streamId: string;
  callId: string;
  accountId: string;
}

/** A run of consecutive frames the agent played, from position `at`. */
export interface PlayedRun {
  at: number;
  frames: Buffer[];
}

export interface MediaEvent {
  /** Media position (frames) when it happened. */
  at: number;
  kind: 'mark' | 'mark-echo' | 'clear' | 'agent-dtmf' | 'phone-dtmf' | 'refused';
  detail: string;
}

export interface MediaStats {
  framesSent: number;
  framesPlayed: number;
  bytesReceived: number;
  marksReceived: number;
  marksEchoed: number;
  clears: number;
  dtmfSent: number;
  dtmfReceived: number;
  refused: number;
}

const SILENCE_FRAME = Buffer.alloc(FRAME_BYTES, MULAW_SILENCE);
const SILENCE_B64 = SILENCE_FRAME.toString('base64');

export class MediaEngine {
  /** Frames played each way so far: the call's media clock (position × 20 ms since `start`). */
  position = 0;
  /** Frames since the agent last played audio (0 while it is speaking). */
  agentQuietFrames = 0;
  readonly played: PlayedRun[] = [];
  readonly events: MediaEvent[] = [];
  readonly stats: MediaStats = { framesSent: 0, framesPlayed: 0, bytesReceived: 0, marksReceived: 0, marksEchoed: 0, clears: 0, dtmfSent: 0, dtmfReceived: 0, refused: 0 };
  private readonly queue = new OutboundQueue();
  private readonly phone: Buffer[] = [];
  private phoneOffset = 0;
  private phoneKeys: string[] = [];
  private nextKeyAt = 0;
  private seq = 0;
  private stopped = false;
  /** The streamId as JSON, made once: it goes into every frame. */
  private readonly streamJson: string;

  constructor(
    readonly ids: StreamIds,
    private readonly send: (text: string) => void,
  ) {
    this.streamJson = JSON.stringify(ids.streamId);
  }

  /** Sends `connected` and `start` (on the socket's open, before any frame). */
  open(): void {
    this.send(JSON.stringify({ event: 'connected', protocol: 'Call', version: '1.0.0' }));
    this.send(
      JSON.stringify({
        event: 'start',
        sequenceNumber: this.nextSeq(),
        streamId: this.ids.streamId,
        start: {
          streamId: this.ids.streamId,
          callId: this.ids.callId,
          accountId: this.ids.accountId,
          tracks: ['inbound'],
          mediaFormat: { encoding: 'audio/x-mulaw', sampleRate: 8000, channels: 1 },
          customParameters: {},
        },
      }),
    );
  }

  /** Applies one message from the agent at the current position; a refusal is logged, never thrown. */
  receive(msg: ClientMediaMessage): void {
    if (this.stopped) return;
    switch (msg.event) {
      case 'media':
        this.stats.bytesReceived += msg.audio.length;
        if (!this.queue.pushAudio(msg.audio)) this.refuse('more than 5 minutes of audio queued ahead of playout; this media message was dropped');
        return;
      case 'mark':
        this.stats.marksReceived++;
        this.log('mark', msg.name);
        if (this.queue.pushMark(msg.name)) this.echo([msg.name]);
        return;
      case 'clear':
        this.stats.clears++;
        this.log('clear', `${this.queue.queuedBytes} bytes dropped`);
        this.echo(this.queue.clear());
        return;
      case 'dtmf':
        this.stats.dtmfReceived++;
        this.log('agent-dtmf', msg.digit);
        return;
      case 'refused':
        this.refuse(msg.reason);
    }
  }

  /** Queues what the phone says (μ-law, whole frames); it plays after what it is already saying. Returns the position it starts at. */
  phoneSays(audio: Buffer): number {
    const start = this.position + Math.ceil(this.phoneQueuedBytes() / FRAME_BYTES);
    if (audio.length > 0) this.phone.push(audio);
    return start;
  }

  /** Queues keys the phone presses: one `dtmf` message each, DTMF_GAP_FRAMES apart, from the next frame. */
  phonePresses(keys: string): void {
    if (this.phoneKeys.length === 0) this.nextKeyAt = Math.max(this.nextKeyAt, this.position);
    this.phoneKeys.push(...keys);
  }

  /** Whether the phone still has audio or keys to send. */
  get phoneBusy(): boolean {
    return this.phone.length > 0 || this.phoneKeys.length > 0;
  }

  /** Whether the agent has audio waiting to play. */
  get agentSpeaking(): boolean {
    return this.queue.queuedBytes > 0;
  }

  /** Plays one 20 ms frame each way: the phone's audio (or silence) to the agent, the agent's next frame to the phone. */
  tick(): void {
    if (this.stopped) return;
    const at = this.position;
    const payload = this.nextPhoneFrame();
    this.send(
      `{"event":"media","sequenceNumber":"${this.nextSeq()}","streamId":${this.streamJson},"media":{"track":"inbound","chunk":"${at + 1}","timestamp":"${at * FRAME_MS}","payload":"${payload}"}}`,
    );
    this.stats.framesSent++;
    if (this.phoneKeys.length > 0 && at >= this.nextKeyAt) {
      const digit = this.phoneKeys.shift()!;
      this.send(JSON.stringify({ event: 'dtmf', sequenceNumber: this.nextSeq(), streamId: this.ids.streamId, dtmf: { digit, track: 'inbound_track' } }));
      this.stats.dtmfSent++;
      this.log('phone-dtmf', digit);
      this.nextKeyAt = at + DTMF_GAP_FRAMES;
    }
    const { frame, marks } = this.queue.takeFrame();
    if (frame) {
      this.stats.framesPlayed++;
      this.agentQuietFrames = 0;
      const last = this.played.at(-1);
      if (last && last.at + last.frames.length === at) last.frames.push(frame);
      else this.played.push({ at, frames: [frame] });
    } else {
      this.agentQuietFrames++;
    }
    this.position = at + 1;
    this.echo(marks);
  }

  /** Sends `stop`; nothing is sent or played after it. */
  stop(): void {
    if (this.stopped) return;
    this.send(JSON.stringify({ event: 'stop', sequenceNumber: this.nextSeq(), streamId: this.ids.streamId, stop: { accountId: this.ids.accountId, callId: this.ids.callId } }));
    this.stopped = true;
  }

  get isStopped(): boolean {
    return this.stopped;
  }

  private nextPhoneFrame(): string {
    const head = this.phone[0];
    if (!head) return SILENCE_B64;
    const frame = head.subarray(this.phoneOffset, this.phoneOffset + FRAME_BYTES);
    this.phoneOffset += FRAME_BYTES;
    if (this.phoneOffset >= head.length) {
      this.phone.shift();
      this.phoneOffset = 0;
    }
    return frame.length === FRAME_BYTES ? frame.toString('base64') : Buffer.concat([frame, SILENCE_FRAME.subarray(frame.length)]).toString('base64');
  }

  private phoneQueuedBytes(): number {
    return this.phone.reduce((n, b) => n + b.length, 0) - this.phoneOffset;
  }

  private echo(names: string[]): void {
    for (const name of names) {
      this.send(JSON.stringify({ event: 'mark', sequenceNumber: this.nextSeq(), streamId: this.ids.streamId, mark: { name } }));
      this.stats.marksEchoed++;
      this.log('mark-echo', name);
    }
  }

  private refuse(reason: string): void {
    this.stats.refused++;
    this.log('refused', reason);
  }

  private log(kind: MediaEvent['kind'], detail: string): void {
    if (this.events.length < MAX_EVENTS) this.events.push({ at: this.position, kind, detail });
  }

  private nextSeq(): string {
    return String(++this.seq);
  }
}
