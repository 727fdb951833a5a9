// The phone side of an Agent SDK call over the media engine: it answers after the agent's audio
// has played out and 700 ms of quiet, speaks up after 3 s when the agent says nothing, presses its
// keys as dtmf, hangs up with nothing left to say, and logs the turns on the media clock; the
// call's recording mixes both sides on that clock.
import { describe, expect, it } from 'vitest';
import { MediaEngine } from '../resources/agent-sdk/media/engine.ts';
import { PATIENCE_FRAMES, PhoneSide, TURN_SILENCE_FRAMES, type PhoneMove } from '../resources/agent-sdk/phone-side.ts';
import { mixSamples, recordingWav } from '../resources/agent-sdk/recording-mix.ts';
import { decodeSample, encodeSample } from '../peers/speech/mulaw.ts';

function call(moves: PhoneMove[]) {
  const sent: any[] = [];
  const engine = new MediaEngine({ streamId: 'MZ1', callId: 'CA1', accountId: 'AC1' }, (t) => sent.push(JSON.parse(t)));
  let hungUpAt: number | undefined;
  const heard: string[] = [];
  const phone = new PhoneSide(engine, {
    nextMove: (h) => (heard.push(h), moves.shift() ?? { hangup: true }),
    speak: (text) => Buffer.alloc(160 * text.length, 0x22), // one frame per character
    hangUp: () => (hungUpAt = engine.position),
  });
  const run = (frames: number) => {
    for (let i = 0; i < frames && hungUpAt === undefined; i++) {
      engine.tick();
      phone.afterTick();
    }
  };
  const agentSays = (frames: number) => engine.receive({ event: 'media', audio: Buffer.alloc(160 * frames, 0x11) });
  return { engine, phone, run, agentSays, sent, heard, hungUp: () => hungUpAt };
}

describe('the phone side of an SDK call', () => {
  it('answers after the agent has finished speaking and a short silence, with nothing heard', () => {
    const c = call([{ say: 'hello' }]);
    c.agentSays(50);
    c.run(50 + TURN_SILENCE_FRAMES + 10);
    expect(c.heard).toEqual(['']);
    expect(c.phone.turns).toEqual([
      { speaker: 'agent', text: null, startFrame: 0, endFrame: 50 },
      { speaker: 'caller', text: 'hello', startFrame: 50 + TURN_SILENCE_FRAMES, endFrame: 50 + TURN_SILENCE_FRAMES + 5 },
    ]);
    // The phone's audio reaches the agent in the frames after its turn began.
    const media = c.sent.filter((m) => m.event === 'media');
    expect(Buffer.from(media[50 + TURN_SILENCE_FRAMES].media.payload, 'base64')[0]).toBe(0x22);
  });

  it('does not talk while the agent is still speaking, however long', () => {
    const c = call([{ say: 'hi' }]);
    c.agentSays(400);
    c.run(400);
    expect(c.phone.turns.filter((t) => t.speaker === 'caller')).toEqual([]);
  });

  it('speaks up after 3 s when the agent says nothing', () => {
    const c = call([{ say: 'anyone?' }]);
    c.run(PATIENCE_FRAMES + 1);
    expect(c.phone.turns).toEqual([{ speaker: 'caller', text: 'anyone?', startFrame: PATIENCE_FRAMES, endFrame: PATIENCE_FRAMES + 7 }]);
  });

  it('presses its keys as dtmf and then waits for the agent again', () => {
    const c = call([{ keys: '12' }, { say: 'bye' }]);
    c.agentSays(10);
    c.run(10 + TURN_SILENCE_FRAMES + 30);
    expect(c.sent.filter((m) => m.event === 'dtmf').map((m) => m.dtmf.digit)).toEqual(['1', '2']);
    expect(c.phone.turns.at(-1)).toMatchObject({ speaker: 'caller', text: null, keys: '12' });
    expect(c.heard).toEqual(['']); // the second move waits for the agent
  });

  it('hangs up when it has nothing left to say', () => {
    const c = call([{ say: 'ok' }]);
    c.agentSays(20);
    c.run(1000);
    // Turn 1 after the greeting; turn 2 (nothing left) after 3 s of quiet: the phone hangs up.
    expect(c.hungUp()).toBe(20 + TURN_SILENCE_FRAMES + 2 + PATIENCE_FRAMES);
  });

  it('an agent that speaks over the phone (barge-in) starts a new agent turn', () => {
    const c = call([{ say: 'a long sentence here' }, { say: 'x' }]);
    c.agentSays(5);
    c.run(5 + TURN_SILENCE_FRAMES + 3);
    c.agentSays(4); // while the phone talks
    c.run(4);
    expect(c.phone.turns.map((t) => t.speaker)).toEqual(['agent', 'caller', 'agent']);
    expect(c.phone.turns[2]).toMatchObject({ startFrame: 5 + TURN_SILENCE_FRAMES + 3, endFrame: 5 + TURN_SILENCE_FRAMES + 7 });
  });
});

describe('the recording of an SDK call', () => {
  it('mixes what the agent played and what the phone said on the media clock, as a WAV of the whole call', () => {
    const agentFrame = Buffer.alloc(160, encodeSample(1000));
    const phoneAudio = Buffer.alloc(320, encodeSample(-2000));
    const input = { frames: 10, agent: [{ at: 1, frames: [agentFrame, agentFrame] }], phone: [{ at: 2, audio: phoneAudio }, { at: 9, audio: phoneAudio }] };
    const s = mixSamples(input);
    expect(s).toHaveLength(1600);
    const at = (frame: number) => s[frame * 160 + 80];
    const [a, b] = [decodeSample(agentFrame[0]!), decodeSample(phoneAudio[0]!)];
    expect([at(0), at(1), at(2), at(3), at(4), at(9)]).toEqual([0, a, a + b, b, 0, b]);
    const wav = recordingWav(input);
    expect(wav.toString('ascii', 0, 4)).toBe('RIFF');
    expect(wav.readUInt32LE(24)).toBe(8000);
    expect(wav.readUInt32LE(40)).toBe(3200); // 10 frames × 160 samples × 2 bytes: the phone's audio past the end is cut
  });
});
