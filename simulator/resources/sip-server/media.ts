// What SIP clients send on the RTP port (RFC 3550), recorded into their call's recording: a
// packet from the address and port a dialog's offer named is that call's (symmetric RTP); PCMU
// payloads (type 0) are placed at their RTP timestamp from the first packet, so a lost or late
// packet leaves μ-law silence rather than shifting what follows. At most MAX_SECONDS per call
// are kept. The first packet's place on the call's media clock (the frame it arrived in) ties
// the client's audio to what the server played (call-recording.ts mixes both into the whole-call
// WAV). The offer's address is also where the server's RTP goes (playout.ts). Live transport
// state: not in snapshots, forgotten on reset and restore.
import { MULAW_SILENCE } from '../../peers/speech/mulaw.ts';
import type { AudioOffer } from './sdp.ts';

/** The longest audio kept per call (10 minutes of 8 kHz μ-law: 4.8 MB). */
export const MAX_SECONDS = 600;
const MAX_BYTES = MAX_SECONDS * 8000;
const PCMU = 0;

interface Heard {
  /** RTP timestamp and SSRC of the first packet, and the media-clock frame it arrived in. */
  firstTimestamp: number | undefined;
  firstFrame: number;
  ssrc: number | undefined;
  audio: Buffer;
  /** Bytes of `audio` in use. */
  length: number;
  open: boolean;
  packets: number;
}

/** The payload of an RTP v2 packet and its header fields, or undefined when it is none. */
export function readRtp(p: Buffer): { payloadType: number; timestamp: number; ssrc: number; payload: Buffer } | undefined {
  if (p.length < 12 || p[0]! >> 6 !== 2) return undefined;
  const csrc = p[0]! & 0x0f;
  let offset = 12 + csrc * 4;
  if (p[0]! & 0x10) {
    if (p.length < offset + 4) return undefined;
    offset += 4 + p.readUInt16BE(offset + 2) * 4;
  }
  let end = p.length;
  if (p[0]! & 0x20) end -= p[p.length - 1]!; // padding
  if (end < offset) return undefined;
  return { payloadType: p[1]! & 0x7f, timestamp: p.readUInt32BE(4), ssrc: p.readUInt32BE(8), payload: p.subarray(offset, end) };
}

/** What a client sent: μ-law audio from the media-clock frame its first packet arrived in. */
export interface HeardAudio {
  firstFrame: number;
  audio: Buffer;
}

/** Whether the side that wrote this SDP takes RTP from the server (sendrecv, recvonly; RFC 3264 §5.1). */
export const takesMedia = (sdp: AudioOffer) => sdp.direction === 'sendrecv' || sdp.direction === 'recvonly';

export class CallMedia {
  private readonly bySource = new Map<string, string>(); // "address:port" → callId
  private readonly heard = new Map<string, Heard>(); // callId → what its client sent
  private readonly peers = new Map<string, { address: string; port: number; hearsUs: boolean }>(); // callId → where the server's RTP goes

  /** `frameNow(callId)`: the frame of the call's media clock now (playout.ts). */
  constructor(private readonly frameNow: (callId: string) => number = () => 0) {}

  /**
   * A dialog's offer (or a device's answer) names where its client sends from and takes RTP
   * (symmetric RTP, RFC 4961); `hearsUs` is false when its direction is sendonly or inactive.
   */
  expect(callId: string, address: string, port: number, hearsUs = true): void {
    for (const [k, id] of this.bySource) if (id === callId) this.bySource.delete(k);
    this.bySource.set(`${address}:${port}`, callId);
    this.peers.set(callId, { address, port, hearsUs });
    // A call bridged again (a second dialed leg) records its new bridge.
    if (!this.heard.get(callId)?.open) this.heard.set(callId, { firstTimestamp: undefined, firstFrame: 0, ssrc: undefined, audio: Buffer.alloc(0), length: 0, open: true, packets: 0 });
  }

  /** Where the call's RTP goes, while its dialog lasts. */
  peer(callId: string): { address: string; port: number; hearsUs: boolean } | undefined {
    return this.peers.get(callId);
  }

  /** The dialog ended: later packets are not its. */
  stop(callId: string): void {
    for (const [k, id] of this.bySource) if (id === callId) this.bySource.delete(k);
    this.peers.delete(callId);
    const h = this.heard.get(callId);
    if (h) h.open = false;
  }

  /** One datagram on the RTP port. */
  packet(bytes: Buffer, address: string, port: number): void {
    const callId = this.bySource.get(`${address}:${port}`);
    const h = callId === undefined ? undefined : this.heard.get(callId);
    const rtp = readRtp(bytes);
    if (!h || !h.open || !rtp || rtp.payloadType !== PCMU) return; // not ours, RTCP, telephone-event, other codecs
    if (h.ssrc !== undefined && rtp.ssrc !== h.ssrc) return; // another stream from the same port
    h.ssrc = rtp.ssrc;
    if (h.firstTimestamp === undefined) {
      h.firstTimestamp = rtp.timestamp;
      h.firstFrame = this.frameNow(callId!);
    }
    const at = (rtp.timestamp - h.firstTimestamp) >>> 0; // wraps at 2^32 (RFC 3550 §5.1)
    if (at >= MAX_BYTES) return;
    const end = Math.min(at + rtp.payload.length, MAX_BYTES);
    if (end > h.audio.length) {
      const grown = Buffer.alloc(Math.min(MAX_BYTES, Math.max(end, h.audio.length * 2)), MULAW_SILENCE);
      h.audio.copy(grown, 0, 0, h.length);
      h.audio = grown;
    }
    rtp.payload.copy(h.audio, at, 0, end - at);
    h.length = Math.max(h.length, end);
    h.packets++;
  }

  /** What a call's client sent: packets taken and their SSRC (undefined before the first). */
  received(callId: string): { packets: number; ssrc: number } | undefined {
    const h = this.heard.get(callId);
    return h?.ssrc === undefined ? undefined : { packets: h.packets, ssrc: h.ssrc };
  }

  /** What the call's client sent, or undefined when it sent nothing. */
  heardOf(callId: string): HeardAudio | undefined {
    const h = this.heard.get(callId);
    if (!h || h.length === 0) return undefined;
    return { firstFrame: h.firstFrame, audio: h.audio.subarray(0, h.length) };
  }

  clear(): void {
    this.bySource.clear();
    this.heard.clear();
    this.peers.clear();
  }
}
