// A test-side UDP socket standing for a SIP client's or device's RTP port: every packet it gets,
// parsed; the checks of one continuous PCMU stream (one SSRC, seq +1, timestamp +160); and an RTP
// packet the test sends as the client (SSRC 0x4242); the check of a two-sided recording.
import dgram from 'node:dgram';
import { expect } from 'vitest';
import { decode } from '../peers/speech/mulaw.ts';

export interface Packet {
  marker: boolean;
  payloadType: number;
  seq: number;
  timestamp: number;
  ssrc: number;
  payload: Buffer;
}

/** A UDP socket standing for the client's RTP port: every packet it got, parsed. */
export async function mediaPort() {
  const socket = dgram.createSocket('udp4');
  await new Promise<void>((r) => socket.bind(0, '127.0.0.1', () => r()));
  const got: Packet[] = [];
  socket.on('message', (b) => got.push({ marker: (b[1]! & 0x80) !== 0, payloadType: b[1]! & 0x7f, seq: b.readUInt16BE(2), timestamp: b.readUInt32BE(4), ssrc: b.readUInt32BE(8), payload: b.subarray(12) }));
  /** Waits (wall time, on loopback) until `n` packets are in, or a second passed. */
  const until = async (n: number) => {
    for (let i = 0; i < 100 && got.length < n; i++) await new Promise((r) => setTimeout(r, 10));
    return got;
  };
  return { socket, port: socket.address().port, got, until };
}

export const loud = (p: Packet) => Math.max(...Array.from(decode(p.payload), Math.abs));

export function expectStream(got: Packet[]): void {
  expect(new Set(got.map((p) => p.ssrc)).size).toBe(1);
  got.forEach((p, i) => {
    expect(p.payloadType).toBe(0);
    expect(p.payload.length).toBe(160);
    if (i > 0) {
      expect(p.seq, `seq of packet ${i}`).toBe((got[i - 1]!.seq + 1) & 0xffff);
      expect(p.timestamp, `timestamp of packet ${i}`).toBe((got[i - 1]!.timestamp + 160) >>> 0);
    }
  });
}

/** A PCMU packet of the test's own stream (SSRC 0x4242) with sequence `seq` and RTP timestamp `timestamp`. */
export function rtpPacket(seq: number, timestamp: number, payload: Buffer): Buffer {
  const head = Buffer.from([0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x42, 0x42]);
  head.writeUInt16BE(seq, 2);
  head.writeUInt32BE(timestamp, 4);
  return Buffer.concat([head, payload]);
}

/**
 * The two-sided recording of a call whose far side spoke from frame 25 (`played`: the packets the
 * test got) and whose client sent `mine` in 10 packets arriving at frame 200: the file runs from
 * frame 25 to frame 209, holds the played frame 25 exactly and the client's audio at 200..209.
 * Returns a reader of its samples by frame.
 */
export function expectTwoSided(wav: Buffer, played: readonly Packet[], mine: Buffer): (frame: number, i?: number) => number {
  const pcm = wav.subarray(44);
  const sample = (frame: number, i = 0) => pcm.readInt16LE(((frame - 25) * 160 + i) * 2);
  expect(pcm.length / 2 / 160).toBe(210 - 25);
  const first = decode(played[25]!.payload);
  for (let i = 0; i < 160; i++) expect(sample(25, i)).toBe(first[i]);
  expect(sample(200)).toBe(decode(mine)[0]);
  expect(sample(209, 159)).toBe(decode(mine)[0]);
  return sample;
}
