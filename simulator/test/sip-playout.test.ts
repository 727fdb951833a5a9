// The SIP server's outgoing media without sockets: the RTP stream's header fields (derived SSRC,
// sequence wrap, timestamps by frame, marker per talkspurt), the playout on virtual time (frames
// due since the last move, the burst cap, waiting for speech, no peer, the flush at the end) and
// the whole-call recording that mixes what the client sent with what was played.
import { describe, expect, it } from 'vitest';
import { RtpStream } from '../resources/sip-server/rtp-stream.ts';
import { MAX_BURST_FRAMES, Playout, type PlayoutParts } from '../resources/sip-server/playout.ts';
import { callRecording } from '../resources/sip-server/call-recording.ts';
import { decode } from '../peers/speech/mulaw.ts';

const header = (p: Buffer) => ({ marker: (p[1]! & 0x80) !== 0, pt: p[1]! & 0x7f, seq: p.readUInt16BE(2), ts: p.readUInt32BE(4), ssrc: p.readUInt32BE(8), payload: p.subarray(12) });
const frame = (byte: number) => Buffer.alloc(160, byte);

describe('the RTP stream', () => {
  it('derives SSRC, sequence and timestamp from the seed and call; seq wraps at 2^16; the marker starts each talkspurt', () => {
    const a = new RtpStream(7, 'CA1');
    expect(new RtpStream(7, 'CA1').ssrc).toBe(a.ssrc);
    expect(new RtpStream(8, 'CA1').ssrc).not.toBe(a.ssrc);
    const packets = [0, 1, 2, 3, 4].map((k) => header(a.packet(k, frame(k < 2 || k === 4 ? 0xff : 0x10), k >= 2 && k !== 4)));
    expect(packets.map((p) => p.marker)).toEqual([true, false, true, false, false]);
    expect(packets.every((p) => p.pt === 0 && p.payload.length === 160 && p.ssrc === a.ssrc)).toBe(true);
    for (let i = 1; i < 5; i++) {
      expect(packets[i]!.seq).toBe((packets[i - 1]!.seq + 1) & 0xffff);
      expect(packets[i]!.ts).toBe((packets[i - 1]!.ts + 160) >>> 0);
    }
    // A skipped frame leaves a gap in timestamps, none in sequence numbers.
    const after = header(a.packet(10, frame(0xff), false));
    expect(after.seq).toBe((packets[4]!.seq + 1) & 0xffff);
    expect(after.ts).toBe((packets[4]!.ts + 6 * 160) >>> 0);
    let last = after.seq;
    for (let i = 0; i < 70_000; i++) last = header(a.packet(11 + i, frame(0xff), false)).seq;
    expect(last).toBe((after.seq + 70_000) & 0xffff);
  });
});

function rig(over: Partial<PlayoutParts> = {}) {
  let now = 1_000_000;
  const sent: ReturnType<typeof header>[] = [];
  const speech = frame(0x10);
  const parts: PlayoutParts = {
    seed: () => 1,
    now: () => now,
    phoneLines: () => ['hello'],
    phoneMaySay: () => ['hello'],
    maxBurstFrames: () => MAX_BURST_FRAMES,
    prepare: () => true,
    audio: () => Buffer.concat([speech, speech, speech]), // 60 ms
    peer: () => ({ address: '127.0.0.1', port: 4000, hearsUs: true }),
    send: (_a, _p, packet) => (sent.push(header(packet)), true),
    ...over,
  };
  const playout = new Playout(parts);
  const move = (ms: number) => {
    now += ms;
    playout.moved(now);
  };
  return { playout, sent, move, at: () => now };
}

describe('the playout', () => {
  it('sends the frames that fell due on each move: silence, the line at 500 ms (marker), silence', () => {
    const r = rig();
    r.playout.start('CA1', r.at());
    r.move(10);
    expect(r.sent).toHaveLength(0); // frame 0 is due at 20 ms
    r.move(590);
    expect(r.sent).toHaveLength(30);
    expect(r.sent.map((p, k) => (p.payload[0] === 0x10 ? k : -1)).filter((k) => k >= 0)).toEqual([25, 26, 27]);
    expect(r.sent.map((p, k) => (p.marker ? k : -1)).filter((k) => k >= 0)).toEqual([0, 25]);
    expect(r.playout.frameAt('CA1', r.at())).toBe(30);
  });

  it('caps a long advance at MAX_BURST_FRAMES (older frames skipped, sequence unbroken); a missing peer lets time pass unsent', () => {
    const r = rig();
    r.playout.start('CA1', r.at());
    r.move(20 * (MAX_BURST_FRAMES + 500));
    expect(r.sent).toHaveLength(MAX_BURST_FRAMES);
    expect(r.sent[1]!.ts - r.sent[0]!.ts).toBe(160);
    const alone = rig({ peer: () => undefined });
    alone.playout.start('CA2', alone.at());
    alone.move(1000);
    expect(alone.sent).toHaveLength(0);
  });

  it('waits for speech: frames due meanwhile go out once it lands, with the same content', () => {
    let landed: (() => void) | undefined;
    const r = rig({ prepare: (_t, l) => ((landed = l), false) });
    r.playout.start('CA1', r.at());
    r.move(1000);
    expect(r.sent).toHaveLength(0);
    landed!();
    expect(r.sent).toHaveLength(50);
    expect(r.sent[25]!.payload[0]).toBe(0x10);
  });

  it('stops at the end: what fell due goes out, nothing after; what it played is kept for the recording, cut at the last frame', () => {
    const r = rig();
    r.playout.start('CA1', r.at());
    r.move(500);
    r.playout.stop('CA1');
    expect(r.sent).toHaveLength(25);
    expect(r.playout.played('CA1')).toEqual([]); // the line would have started at frame 25
    const cut = rig();
    cut.playout.start('CA2', cut.at());
    cut.move(540);
    cut.playout.stop('CA2');
    cut.move(1000);
    expect(cut.sent).toHaveLength(27);
    expect(cut.playout.played('CA2')).toEqual([{ startFrame: 25, audio: Buffer.concat([frame(0x10), frame(0x10)]) }]);
  });
});

describe('the whole-call recording', () => {
  it('mixes both sides on the media clock, from the first sound to the last', () => {
    const played = [{ startFrame: 25, audio: frame(0x10) }];
    const wav = callRecording({ firstFrame: 30, audio: Buffer.concat([frame(0x20), frame(0x20)]) }, played)!;
    const pcm = wav.subarray(44);
    expect(pcm.length / 2).toBe((32 - 25) * 160);
    expect(pcm.readInt16LE(0)).toBe(decode(frame(0x10))[0]);
    expect(pcm.readInt16LE(160 * 2)).toBe(0); // frame 26: nobody spoke
    expect(pcm.readInt16LE(5 * 160 * 2)).toBe(decode(frame(0x20))[0]);
    const both = callRecording({ firstFrame: 25, audio: frame(0x10) }, played)!.subarray(44);
    expect(both.readInt16LE(0)).toBe(Math.max(-32768, 2 * decode(frame(0x10))[0]!));
    expect(callRecording(undefined, [])).toBeUndefined();
  });
});
