// The server's outgoing RTP stream of one call (RFC 3550 §5.1, RFC 3551 PCMU): one 20 ms frame
// of 160 μ-law bytes per packet, payload type 0. SSRC, first sequence number and first timestamp
// are derived from the seed and the call (RFC 3550 asks for random ones; derived values keep a
// run repeatable). The sequence number rises by one per packet sent; the timestamp is the frame's
// place on the call's media clock (frame × 160), so frames never sent (a burst cut short, see
// playout.ts) leave a gap in timestamps but none in sequence numbers, as RFC 3550 §5.1 allows for
// suppressed audio. The marker bit is set on the first packet of each talkspurt (RFC 3551 §4.1):
// the stream's first packet and the first frame of sound after silence.
import { createHash } from '../../core/node-crypto.ts';

export const FRAME_SAMPLES = 160;
export const FRAME_MS = 20;
const HEADER_BYTES = 12;
const PCMU = 0;

export class RtpStream {
  readonly ssrc: number;
  private seq: number;
  private readonly firstTimestamp: number;
  /** Packets sent so far. */
  sent = 0;
  private lastWasSound = false;

  constructor(seed: number, callId: string) {
    const h = createHash('sha256').update(`${seed}|rtp|${callId}`).digest();
    this.ssrc = h.readUInt32BE(0);
    this.seq = h.readUInt16BE(4);
    this.firstTimestamp = h.readUInt32BE(6);
  }

  /** The packet of frame `frame` (its place on the media clock) holding `payload` (160 μ-law bytes). */
  packet(frame: number, payload: Buffer, sound: boolean): Buffer {
    const out = Buffer.allocUnsafe(HEADER_BYTES + payload.length);
    const talkspurt = this.sent === 0 || (sound && !this.lastWasSound);
    out[0] = 0x80; // version 2, no padding, no extension, no CSRC
    out[1] = (talkspurt ? 0x80 : 0) | PCMU;
    out.writeUInt16BE(this.seq, 2);
    out.writeUInt32BE((this.firstTimestamp + frame * FRAME_SAMPLES) >>> 0, 4);
    out.writeUInt32BE(this.ssrc, 8);
    payload.copy(out, HEADER_BYTES);
    this.seq = (this.seq + 1) & 0xffff;
    this.sent++;
    this.lastWasSound = sound;
    return out;
  }
}
