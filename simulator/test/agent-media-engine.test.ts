// The Agent SDK media engine as a deterministic unit: the wire shapes it sends, one 160-byte frame
// per tick with integer-string timestamps, client audio of any size paced out, marks fenced in
// order and echoed after playout, clear, DTMF both ways, stop; and a property over random message
// sequences (fixed seed): every mark echoed once in order after its audio, every byte accounted for.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { MediaEngine, DTMF_GAP_FRAMES } from '../resources/agent-sdk/media/engine.ts';
import { parseClientMediaMessage, type ClientMediaMessage } from '../resources/agent-sdk/media/client-messages.ts';
import { MAX_QUEUED_BYTES, TAIL_WAIT_FRAMES } from '../resources/agent-sdk/media/outbound-queue.ts';

const IDS = { streamId: 'MZ0001', callId: 'CA0001', accountId: 'AC0001' };

function engine() {
  const sent: any[] = [];
  const e = new MediaEngine(IDS, (t) => sent.push(JSON.parse(t)));
  return { e, sent, events: (name: string) => sent.filter((m) => m.event === name) };
}

const audio = (n: number, byte = 0x10): ClientMediaMessage => ({ event: 'media', audio: Buffer.alloc(n, byte) });
const mark = (name: string): ClientMediaMessage => ({ event: 'mark', name });

describe('media engine: wire shapes', () => {
  it('opens with connected then start carrying streamId, callId, accountId, tracks, mediaFormat, customParameters', () => {
    const { e, sent } = engine();
    e.open();
    expect(sent).toEqual([
      { event: 'connected', protocol: 'Call', version: '1.0.0' },
      {
        event: 'start',
        sequenceNumber: '1',
        streamId: 'MZ0001',
        start: { streamId: 'MZ0001', callId: 'CA0001', accountId: 'AC0001', tracks: ['inbound'], mediaFormat: { encoding: 'audio/x-mulaw', sampleRate: 8000, channels: 1 }, customParameters: {} },
      },
    ]);
  });

  it('sends one 160-byte media frame per tick, chunk from 1 and timestamp 20 ms apart as integer strings', () => {
    const { e, sent } = engine();
    e.open();
    for (let i = 0; i < 5; i++) e.tick();
    const media = sent.slice(2);
    expect(media).toHaveLength(5);
    media.forEach((m, i) => {
      expect(m).toMatchObject({ event: 'media', sequenceNumber: String(i + 2), media: { track: 'inbound', chunk: String(i + 1), timestamp: String(i * 20) } });
      expect(Number.isInteger(Number(m.media.timestamp))).toBe(true);
      expect(Buffer.from(m.media.payload, 'base64')).toEqual(Buffer.alloc(160, 0xff)); // the phone is quiet: μ-law silence
    });
    expect(e.position).toBe(5);
  });

  it('plays the phone audio frame by frame, then silence, and reports where it starts', () => {
    const { e, events } = engine();
    e.tick();
    const speech = Buffer.concat([Buffer.alloc(160, 1), Buffer.alloc(160, 2)]);
    expect(e.phoneSays(speech)).toBe(1);
    expect(e.phoneSays(Buffer.alloc(160, 3))).toBe(3);
    for (let i = 0; i < 4; i++) e.tick();
    expect(events('media').map((m) => Buffer.from(m.media.payload, 'base64')[0])).toEqual([0xff, 1, 2, 3, 0xff]);
    expect(e.phoneBusy).toBe(false);
  });

  it('sends the phone keys as dtmf with inbound_track, one every 200 ms', () => {
    const { e, sent } = engine();
    e.phonePresses('1#');
    for (let i = 0; i < DTMF_GAP_FRAMES + 1; i++) e.tick();
    const dtmf = sent.map((m, i) => ({ m, i })).filter(({ m }) => m.event === 'dtmf');
    expect(dtmf.map(({ m }) => m.dtmf)).toEqual([
      { digit: '1', track: 'inbound_track' },
      { digit: '#', track: 'inbound_track' },
    ]);
    // The first key follows frame 0, the second frame 10.
    expect(sent[dtmf[0]!.i - 1].media.chunk).toBe('1');
    expect(sent[dtmf[1]!.i - 1].media.chunk).toBe(String(DTMF_GAP_FRAMES + 1));
  });

  it('sends stop with accountId and callId, then nothing more', () => {
    const { e, sent } = engine();
    e.tick();
    e.stop();
    e.tick();
    e.receive(mark('late'));
    expect(sent.at(-1)).toEqual({ event: 'stop', sequenceNumber: '2', streamId: 'MZ0001', stop: { accountId: 'AC0001', callId: 'CA0001' } });
    expect(sent).toHaveLength(2);
  });
});

describe('media engine: the agent audio', () => {
  it('keeps audio that arrives before the stream has started and plays it from the first frame', () => {
    const { e, sent } = engine();
    e.receive(audio(320));
    e.open();
    e.tick();
    e.tick();
    expect(e.played).toEqual([{ at: 0, frames: [Buffer.alloc(160, 0x10), Buffer.alloc(160, 0x10)] }]);
    expect(sent.map((m) => m.event)).toEqual(['connected', 'start', 'media', 'media']);
  });

  it('paces audio of any size out one frame per tick, whatever the message sizes', () => {
    const { e } = engine();
    for (let i = 0; i < 100; i++) e.receive(audio(7, i)); // 700 bytes in 7-byte pieces
    e.receive(audio(260)); // 960 bytes: 6 frames exactly
    for (let i = 0; i < 10; i++) e.tick();
    expect(e.stats.framesPlayed).toBe(6);
    expect(e.played).toHaveLength(1);
    expect(e.played[0]!.at).toBe(0);
    expect(Buffer.concat(e.played[0]!.frames).subarray(0, 7)).toEqual(Buffer.alloc(7, 0));
  });

  it('pads a tail shorter than a frame once it has waited 40 ms with nothing more arriving', () => {
    const { e } = engine();
    e.receive(audio(200)); // one frame and 40 bytes
    e.tick();
    expect(e.stats.framesPlayed).toBe(1);
    for (let i = 1; i < TAIL_WAIT_FRAMES; i++) e.tick();
    expect(e.stats.framesPlayed).toBe(1); // the tail waits
    e.tick();
    expect(e.stats.framesPlayed).toBe(2);
    const tail = e.played.at(-1)!.frames.at(-1)!;
    expect(e.played.at(-1)!.at).toBe(TAIL_WAIT_FRAMES); // a silent frame between: the tail waited
    expect(tail.subarray(0, 40)).toEqual(Buffer.alloc(40, 0x10));
    expect(tail.subarray(40)).toEqual(Buffer.alloc(120, 0xff));
  });

  it('a tail that more audio completes is not padded', () => {
    const { e } = engine();
    e.receive(audio(100));
    e.tick();
    e.receive(audio(60));
    e.tick();
    expect(e.stats.framesPlayed).toBe(1);
    expect(e.played[0]!.frames[0]).toEqual(Buffer.alloc(160, 0x10));
  });

  it('echoes a mark once all audio queued before it has played, in order, and pads the tail it closes', () => {
    const { e, sent } = engine();
    e.receive(audio(320));
    e.receive(mark('m1'));
    e.receive(audio(100));
    e.receive(mark('m2'));
    const echoAfter = (name: string) => {
      const i = sent.findIndex((m) => m.event === 'mark' && m.mark.name === name);
      return i < 0 ? undefined : sent.slice(0, i).filter((m) => m.event === 'media').length;
    };
    e.tick();
    expect(echoAfter('m1')).toBeUndefined();
    e.tick();
    expect(echoAfter('m1')).toBe(2); // after frame 2, the last of the 320 bytes
    e.tick();
    expect(echoAfter('m2')).toBe(3); // the 100-byte tail played padded in frame 3
    expect(e.played[0]!.frames[2]!.subarray(100)).toEqual(Buffer.alloc(60, 0xff));
    expect(sent.filter((m) => m.event === 'mark').map((m) => m.mark.name)).toEqual(['m1', 'm2']);
  });

  it('echoes a mark with nothing queued before it at once', () => {
    const { e, sent } = engine();
    e.receive(mark('now'));
    expect(sent).toEqual([{ event: 'mark', sequenceNumber: '1', streamId: 'MZ0001', mark: { name: 'now' } }]);
  });

  it('clear drops the unplayed audio and echoes every pending mark at once, in order', () => {
    const { e, sent } = engine();
    e.receive(audio(1600));
    e.receive(mark('a'));
    e.receive(audio(1600));
    e.receive(mark('b'));
    e.tick();
    e.receive({ event: 'clear' });
    expect(sent.filter((m) => m.event === 'mark').map((m) => m.mark.name)).toEqual(['a', 'b']);
    e.tick();
    e.tick();
    expect(e.stats.framesPlayed).toBe(1);
    expect(e.agentSpeaking).toBe(false);
    expect(e.events.map((v) => v.kind)).toEqual(['mark', 'mark', 'clear', 'mark-echo', 'mark-echo']);
  });

  it('refuses audio beyond five minutes queued, logging why, and keeps what was queued', () => {
    const { e } = engine();
    e.receive(audio(MAX_QUEUED_BYTES));
    e.receive(audio(160));
    expect(e.stats.refused).toBe(1);
    expect(e.events.at(-1)).toMatchObject({ kind: 'refused', detail: expect.stringContaining('5 minutes') });
    expect(e.agentSpeaking).toBe(true);
  });

  it('logs the agent dtmf and counts the quiet frames since it last spoke', () => {
    const { e } = engine();
    e.receive({ event: 'dtmf', digit: '5' });
    e.receive(audio(160));
    e.tick();
    expect(e.agentQuietFrames).toBe(0);
    e.tick();
    e.tick();
    expect(e.agentQuietFrames).toBe(2);
    expect(e.events[0]).toEqual({ at: 0, kind: 'agent-dtmf', detail: '5' });
  });
});

describe('media engine: client message parsing', () => {
  it('reads media, mark, clear and dtmf, and refuses the rest with a reason', () => {
    expect(parseClientMediaMessage(JSON.stringify({ event: 'media', media: { payload: Buffer.from([1, 2, 3]).toString('base64') } }))).toEqual({ event: 'media', audio: Buffer.from([1, 2, 3]) });
    expect(parseClientMediaMessage('{"event":"mark","mark":{"name":"hangup-1"}}')).toEqual({ event: 'mark', name: 'hangup-1' });
    expect(parseClientMediaMessage('{"event":"clear"}')).toEqual({ event: 'clear' });
    expect(parseClientMediaMessage('{"event":"dtmf","dtmf":{"digit":"#"}}')).toEqual({ event: 'dtmf', digit: '#' });
    const refusals: [string, RegExp][] = [
      ['{not json', /not JSON/],
      ['[1]', /not a JSON object/],
      ['{"event":"hello"}', /unknown event "hello"/],
      ['{}', /no event/],
      ['{"event":"media","media":{}}', /payload must be a base64 string/],
      ['{"event":"media","media":{"payload":"@@@@"}}', /not valid base64/],
      ['{"event":"mark","mark":{"name":""}}', /non-empty/],
      ['{"event":"dtmf","dtmf":{"digit":"w"}}', /0-9, \* and #/],
      [JSON.stringify({ event: 'media', media: { payload: Buffer.alloc(80_004).toString('base64') } }), /more than 80000 bytes/],
    ];
    for (const [text, reason] of refusals) {
      const m = parseClientMediaMessage(text);
      expect(m.event).toBe('refused');
      expect(m.event === 'refused' && m.reason).toMatch(reason);
    }
  });
});

type Step = { kind: 'audio'; n: number } | { kind: 'mark' } | { kind: 'clear' } | { kind: 'tick'; n: number };

const steps = fc.array(
  fc.oneof(
    fc.record({ kind: fc.constant('audio' as const), n: fc.integer({ min: 1, max: 700 }) }),
    fc.record({ kind: fc.constant('mark' as const) }),
    fc.record({ kind: fc.constant('clear' as const) }),
    fc.record({ kind: fc.constant('tick' as const), n: fc.integer({ min: 1, max: 6 }) }),
  ),
  { maxLength: 60 },
);

/** Runs the steps, then ticks until the queue is drained; returns the engine and what it sent. */
function run(plan: Step[]) {
  const { e, sent } = engine();
  let marks = 0;
  let queued = 0;
  const markPosition = new Map<string, number>(); // bytes received before the mark, not cleared
  let cleared = 0;
  for (const s of plan) {
    if (s.kind === 'audio') {
      e.receive(audio(s.n));
      queued += s.n;
    } else if (s.kind === 'mark') {
      const name = `m${marks++}`;
      markPosition.set(name, queued);
      e.receive(mark(name));
    } else if (s.kind === 'clear') {
      e.receive({ event: 'clear' });
      cleared++;
    } else for (let i = 0; i < s.n; i++) e.tick();
  }
  for (let i = 0; i < 5000 && e.agentSpeaking; i++) e.tick();
  e.tick();
  e.tick();
  return { e, sent, marks, cleared };
}

describe('media engine: properties', () => {
  it('every mark is echoed exactly once, in the order sent; one media frame per tick; nothing plays after the queue drains', () => {
    fc.assert(
      fc.property(steps, (plan) => {
        const { e, sent, marks } = run(plan);
        const echoed = sent.filter((m) => m.event === 'mark').map((m) => m.mark.name);
        expect(echoed).toEqual(Array.from({ length: marks }, (_, i) => `m${i}`));
        const media = sent.filter((m) => m.event === 'media');
        expect(media).toHaveLength(e.position);
        media.forEach((m, i) => expect(m.media.timestamp).toBe(String(i * 20)));
        // sequence numbers count every server message from 1
        sent.forEach((m, i) => expect(m.sequenceNumber).toBe(String(i + 1)));
        expect(e.agentSpeaking).toBe(false);
      }),
    );
  });

  it('without clear, every byte received plays, in order, and a mark echoes only after the frame holding its last byte', () => {
    fc.assert(
      fc.property(
        steps.map((p) => p.filter((s) => s.kind !== 'clear')),
        (plan) => {
          const { e, sent } = run(plan);
          const received = e.stats.bytesReceived;
          const playedBytes = e.played.flatMap((r) => r.frames);
          expect(playedBytes.length).toBeGreaterThanOrEqual(Math.ceil(received / 160));
          // The played audio, padding removed, is exactly what was received (0x10 bytes).
          const audible = Buffer.concat(playedBytes).filter((b) => b === 0x10).length;
          expect(audible).toBe(received);
          // Each echo comes after the frame that holds the last byte queued before its mark.
          const audibleUpTo = (t: number) => e.played.flatMap((r) => r.frames.filter((_, k) => r.at + k <= t)).reduce((n, f) => n + f.filter((b) => b === 0x10).length, 0);
          let bytesBefore = 0;
          let marksSeen = 0;
          for (const s of plan) {
            if (s.kind === 'audio') bytesBefore += s.n;
            if (s.kind !== 'mark') continue;
            const name = `m${marksSeen++}`;
            const i = sent.findIndex((m) => m.event === 'mark' && m.mark.name === name);
            const lastTick = sent.slice(0, i).filter((m) => m.event === 'media').length - 1;
            expect(audibleUpTo(lastTick)).toBeGreaterThanOrEqual(bytesBefore);
          }
        },
      ),
    );
  });

  it('the same messages at the same positions give the same messages out and the same log', () => {
    fc.assert(
      fc.property(steps, (plan) => {
        const a = run(plan);
        const b = run(plan);
        expect(b.sent).toEqual(a.sent);
        expect(b.e.events).toEqual(a.e.events);
        expect(b.e.played).toEqual(a.e.played);
      }),
    );
  });
});
