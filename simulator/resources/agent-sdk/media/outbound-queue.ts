// The agent's side of a media stream, waiting to be played to the phone: audio of any size in
// arrival order with marks fenced between it (Agent SDK media protocol: a mark is echoed once all
// audio queued before it has played). Frames are cut at 160 bytes; a shorter tail is padded with
// μ-law silence when a mark closes it, or once it has waited TAIL_WAIT_FRAMES with nothing more
// arriving (the platform's 40 ms safety timer, counted in frames so it never depends on timing
// of delivery). Pure data structure: the engine decides when a frame plays.
import { MULAW_SILENCE } from '../../../peers/speech/mulaw.ts';

export const FRAME_BYTES = 160;
/** A tail shorter than a frame is played, padded, after waiting this many frames (40 ms). */
export const TAIL_WAIT_FRAMES = 2;
/** Audio queued ahead of playout at most (5 minutes): more is refused, not buffered without bound. */
export const MAX_QUEUED_BYTES = 5 * 60 * 8000;

type Entry = { audio: Buffer } | { mark: string };

export interface PlayedFrame {
  /** 160 bytes, or undefined when nothing could play this frame (silence on the line). */
  frame: Buffer | undefined;
  /** Marks whose audio has now all played, in order. */
  marks: string[];
}

export class OutboundQueue {
  private entries: Entry[] = [];
  private head = 0;
  /** Bytes of the head entry already played. */
  private offset = 0;
  private bytes = 0;
  private tailWait = 0;

  /** Audio bytes waiting to play. */
  get queuedBytes(): number {
    return this.bytes;
  }

  /** Whether a mark or audio is waiting. */
  get empty(): boolean {
    return this.head === this.entries.length;
  }

  /** Queues audio; false (nothing queued) when it would pass MAX_QUEUED_BYTES. */
  pushAudio(audio: Buffer): boolean {
    if (audio.length === 0) return true;
    if (this.bytes + audio.length > MAX_QUEUED_BYTES) return false;
    this.entries.push({ audio });
    this.bytes += audio.length;
    this.tailWait = 0;
    return true;
  }

  /** Queues a mark; true when nothing is ahead of it, so it is due for echo at once. */
  pushMark(name: string): boolean {
    if (this.bytes === 0) return true;
    this.entries.push({ mark: name });
    return false;
  }

  /** Drops every unplayed byte; the pending marks, in order, to echo at once. */
  clear(): string[] {
    const marks: string[] = [];
    for (let i = this.head; i < this.entries.length; i++) {
      const e = this.entries[i]!;
      if ('mark' in e) marks.push(e.mark);
    }
    this.entries = [];
    this.head = 0;
    this.offset = 0;
    this.bytes = 0;
    this.tailWait = 0;
    return marks;
  }

  /** Plays one frame's worth: the next 160 bytes, a padded tail, or nothing. */
  takeFrame(): PlayedFrame {
    const available = this.bytesBeforeMark();
    if (available.bytes === 0) return { frame: undefined, marks: this.takeMarks() };
    if (available.bytes < FRAME_BYTES && !available.closed && ++this.tailWait < TAIL_WAIT_FRAMES) {
      return { frame: undefined, marks: [] };
    }
    const frame = Buffer.alloc(FRAME_BYTES, MULAW_SILENCE);
    let filled = 0;
    while (filled < FRAME_BYTES && this.head < this.entries.length) {
      const e = this.entries[this.head]!;
      if ('mark' in e) break;
      const take = Math.min(FRAME_BYTES - filled, e.audio.length - this.offset);
      e.audio.copy(frame, filled, this.offset, this.offset + take);
      filled += take;
      this.offset += take;
      this.bytes -= take;
      if (this.offset === e.audio.length) this.advance();
    }
    this.tailWait = 0;
    return { frame, marks: this.takeMarks() };
  }

  /** Audio bytes ahead of the next mark, and whether a mark closes them. */
  private bytesBeforeMark(): { bytes: number; closed: boolean } {
    let bytes = 0;
    for (let i = this.head; i < this.entries.length; i++) {
      const e = this.entries[i]!;
      if ('mark' in e) return { bytes, closed: true };
      bytes += e.audio.length - (i === this.head ? this.offset : 0);
      if (bytes >= FRAME_BYTES) return { bytes, closed: false };
    }
    return { bytes, closed: false };
  }

  private takeMarks(): string[] {
    const marks: string[] = [];
    while (this.head < this.entries.length) {
      const e = this.entries[this.head]!;
      if (!('mark' in e)) break;
      marks.push(e.mark);
      this.advance();
    }
    return marks;
  }

  private advance(): void {
    this.head++;
    this.offset = 0;
    // Compact now and then so a long call does not keep every played entry.
    if (this.head > 1024 && this.head * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.head);
      this.head = 0;
    }
  }
}
