// What the far side plays to a SIP client, sent as RTP on virtual time (docs/decisions.md "SIP on
// the wire", Media (RTP out)). From the answer, a call's frames are numbered on its media clock
// (frame k covers answer + 20k ms to answer + 20(k+1) ms). The far side is the carrier's phone: it
// says its script's turns in order (the phone hears nothing of the client, as in Agent SDK
// calls), the first LEAD_MS after the answer, each next one GAP_MS after the last ended; every
// other frame is μ-law silence. When virtual time moves (a clock advance, or the realtime ticker),
// every playing call sends the frames that fell due since its last, at most MAX_BURST_FRAMES at
// once on a manual clock (a long advance does not flood the client) and MAX_LATE_FRAMES in
// realtime mode (a late wake, a busy event loop: a phone's jitter buffer would drop older audio
// anyway); older frames are skipped. What a frame
// holds follows its number, never when it was sent. A call whose phone speaks waits for its
// speech to be synthesised; its frames due meanwhile go out once it is. Live state: not in
// snapshots, forgotten on reset and restore.
import { MULAW_SILENCE } from '../../peers/speech/mulaw.ts';
import { FRAME_MS, FRAME_SAMPLES, RtpStream } from './rtp-stream.ts';

/** Quiet before the phone's first turn after the answer. */
export const LEAD_MS = 500;
/** Quiet between the end of one turn and the next. */
export const GAP_MS = 1000;
/** Frames one call sends per clock move at most (one minute of audio). */
export const MAX_BURST_FRAMES = 3000;
/** Frames one call sends per clock move at most in realtime mode (one second of audio). */
export const MAX_LATE_FRAMES = 50;
/** Ended calls whose played audio is kept for their recording (the oldest go first). */
const ENDED_KEPT = 10_000;

const SILENT_FRAME = Buffer.alloc(FRAME_SAMPLES, MULAW_SILENCE);

/** One utterance on the call's media clock. */
export interface PlayedPart {
  startFrame: number;
  /** μ-law audio, whole frames. */
  audio: Buffer;
}

export interface PlayoutParts {
  seed(): number;
  now(): number;
  /** What the phone says in the call, turn by turn (taken once, at the answer). */
  phoneLines(callId: string): string[];
  /** Everything the phone may say in the call (to load the speech engine while it rings). */
  phoneMaySay(callId: string): string[];
  /** Speech for the lines: true when it is ready now; otherwise `landed` runs once it is. */
  prepare(texts: readonly string[], landed: () => void): boolean;
  /** The μ-law audio of a prepared text (whole frames). */
  audio(text: string): Buffer;
  /** Where the call's client takes RTP, and whether it wants any (its offer's direction). */
  peer(callId: string): { address: string; port: number; hearsUs: boolean } | undefined;
  /** MAX_BURST_FRAMES on a manual clock, MAX_LATE_FRAMES in realtime mode. */
  maxBurstFrames(): number;
  /** Sends a datagram from the RTP port; false when no listener runs. */
  send(address: string, port: number, packet: Buffer): boolean;
}

interface Playing {
  callId: string;
  answeredAt: number;
  lines: string[];
  /** The utterances on the media clock, once speech is ready. */
  plan: PlayedPart[] | undefined;
  stream: RtpStream;
  /** The next frame to send. */
  next: number;
  /** Index into `plan` of the utterance at or after `next`. */
  cursor: number;
}

export class Playout {
  private readonly playing = new Map<string, Playing>();
  private readonly ended = new Map<string, { plan: PlayedPart[]; frames: number; packets: number; ssrc: number }>();

  constructor(private readonly p: PlayoutParts) {}

  /** The call rings: the speech engine starts loading if its phone may speak (the first load takes a while). */
  warm(callId: string): void {
    this.p.prepare(this.p.phoneMaySay(callId), () => {});
  }

  /** The call was answered at `answeredAt`: its media clock starts. */
  start(callId: string, answeredAt: number): void {
    if (this.playing.has(callId)) return;
    const lines = this.p.phoneLines(callId).filter((t) => t.trim() !== '');
    const call: Playing = { callId, answeredAt, lines, plan: undefined, stream: new RtpStream(this.p.seed(), callId), next: 0, cursor: 0 };
    this.playing.set(callId, call);
    if (this.p.prepare(lines, () => this.ready(call))) this.ready(call);
  }

  private ready(call: Playing): void {
    if (call.plan) return;
    const plan: PlayedPart[] = [];
    let at = LEAD_MS / FRAME_MS;
    for (const text of call.lines) {
      const audio = this.p.audio(text);
      plan.push({ startFrame: at, audio });
      at += audio.length / FRAME_SAMPLES + GAP_MS / FRAME_MS;
    }
    call.plan = plan;
    if (this.playing.get(call.callId) === call) this.send(call, this.p.now());
  }

  /** The frame of the call's media clock at `now` (0 before its answer or when it is not playing). */
  frameAt(callId: string, now: number): number {
    const call = this.playing.get(callId);
    return call ? Math.max(0, Math.floor((now - call.answeredAt) / FRAME_MS)) : 0;
  }

  /** Virtual time moved: every playing call sends what fell due. */
  moved(now: number): void {
    for (const call of this.playing.values()) this.send(call, now);
  }

  private send(call: Playing, now: number): void {
    const plan = call.plan;
    if (!plan) return; // speech not ready yet: these frames go out when it is
    const due = Math.floor((now - call.answeredAt) / FRAME_MS);
    if (due <= call.next) return;
    const burst = this.p.maxBurstFrames();
    if (due - call.next > burst) call.next = due - burst;
    const peer = this.p.peer(call.callId);
    if (!peer || !peer.hearsUs) {
      call.next = due; // nobody to send to (no offer, sendonly, inactive): time passes all the same
      return;
    }
    for (let k = call.next; k < due; k++) {
      while (call.cursor < plan.length && k >= plan[call.cursor]!.startFrame + plan[call.cursor]!.audio.length / FRAME_SAMPLES) call.cursor++;
      const part = plan[call.cursor];
      const sound = part !== undefined && k >= part.startFrame;
      const payload = sound ? part.audio.subarray((k - part.startFrame) * FRAME_SAMPLES, (k - part.startFrame + 1) * FRAME_SAMPLES) : SILENT_FRAME;
      if (!this.p.send(peer.address, peer.port, call.stream.packet(k, payload, sound))) break;
    }
    call.next = due;
  }

  /** The call ended: what fell due until now goes out, then nothing more. */
  stop(callId: string): void {
    const call = this.playing.get(callId);
    if (!call) return;
    this.send(call, this.p.now());
    this.playing.delete(callId);
    this.ended.set(callId, { plan: call.plan ?? [], frames: call.next, packets: call.stream.sent, ssrc: call.stream.ssrc });
    if (this.ended.size > ENDED_KEPT) this.ended.delete(this.ended.keys().next().value!);
  }

  /** What an ended call played (its utterances cut at the last frame sent), for its recording. */
  played(callId: string): PlayedPart[] {
    const e = this.ended.get(callId);
    if (!e) return [];
    return e.plan
      .filter((part) => part.startFrame < e.frames)
      .map((part) => ({ startFrame: part.startFrame, audio: part.audio.subarray(0, Math.min(part.audio.length, (e.frames - part.startFrame) * FRAME_SAMPLES)) }));
  }

  /** What a call sent so far: packets and its SSRC (undefined for a call that never played). */
  sent(callId: string): { packets: number; ssrc: number } | undefined {
    const call = this.playing.get(callId);
    if (call) return { packets: call.stream.sent, ssrc: call.stream.ssrc };
    const e = this.ended.get(callId);
    return e && { packets: e.packets, ssrc: e.ssrc };
  }

  /** Calls sending now. */
  get size(): number {
    return this.playing.size;
  }

  clear(): void {
    this.playing.clear();
    this.ended.clear();
  }
}
