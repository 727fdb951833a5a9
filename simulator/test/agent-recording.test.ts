// The whole-call recording of a managed agent's call: its conversation spoken by the speech peer
// at each turn's place on the call's timeline (agent and phone lines, the phone's keys as DTMF),
// silence between, as long as the call; the same bytes on every download.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { harness } from './helpers.ts';
import { speechSynthesizer } from '../peers/speech/synthesizer.ts';
import { decode } from '../peers/speech/mulaw.ts';
import { WAV_HEADER_BYTES } from '../peers/speech/wav.ts';

type H = ReturnType<typeof harness>;
let h: H;
beforeEach(() => {
  h = harness();
});
afterEach(async () => {
  await h.sim.close();
});

const ctl = <T = any>(method: string, path: string, body?: unknown) => h.sim.control.request<T>(method, path, body);
const RATE = 8000;

/** The 16-bit samples of a WAV answer, from second `from` to second `to`. */
function samples(wav: Buffer, from: number, to: number): Int16Array {
  const all = new Int16Array(wav.buffer.slice(wav.byteOffset + WAV_HEADER_BYTES, wav.byteOffset + wav.byteLength));
  return all.slice(from * RATE, to * RATE);
}
const energy = (s: Int16Array) => Math.sqrt(s.reduce((a, x) => a + x * x, 0) / Math.max(1, s.length));

describe('recordings of managed-agent calls', () => {
  it('hold the conversation as speech on its timeline, keys as tones, silence between; byte-identical downloads', async () => {
    const r = await h.call('POST', h.acme('/agents'), { name: 'bot' });
    const agentId = r.json.agentId;
    await ctl('PUT', `/agents/${agentId}/behaviour`, { greeting: 'Hello there', rules: [{ heard: '^1$', say: 'You pressed one' }], fallback: 'Sorry' });
    await ctl('POST', '/carrier/scripts', { number: '010-3000-0071', outcome: 'delivered', types: ['call'], replies: [{ heard: 'Hello', keys: '1' }], lines: ['Thank you'] });
    const call = await h.call('POST', h.acme('/calls'), { To: '010-3000-0071', From: '07012340001', AgentId: agentId });
    expect(call.status, call.text).toBe(201);
    const callId = call.json.callId;
    await ctl('POST', '/clock/advance', { seconds: 60 });
    const view = await ctl('GET', `/calls/${callId}`);
    const timeline = view.conversation.map((t: { startMs: number; endMs: number; speaker: string; text: string | null; detail: { dtmf?: string } }) => `${t.startMs / 1000}-${t.endMs / 1000} ${t.speaker}: ${t.text ?? t.detail.dtmf}`);
    expect(timeline).toEqual(['0-2 agent: Hello there', '3-4 caller: 1', '5-7 agent: You pressed one', '8-9 caller: Thank you', '10-11 agent: Sorry']);
    expect(view.call.duration).toBe(12);

    const first = await h.call('GET', h.acme(`/recordings/${callId}`));
    expect(first.status).toBe(200);
    const wav = Buffer.from(first.bytes!);
    expect(wav.byteLength).toBe(WAV_HEADER_BYTES + 12 * RATE * 2);
    // Each line is the speech peer's utterance of its text, placed at the turn's start.
    const synth = await speechSynthesizer();
    for (const [text, at, slot] of [['Hello there', 0, 2], ['You pressed one', 5, 2], ['Thank you', 8, 1], ['Sorry', 10, 1]] as const) {
      const expected = decode(synth.speakWithin(text, slot * 1000).audio);
      expect(Array.from(samples(wav, at, at + slot).slice(0, expected.length)), text).toEqual(Array.from(expected));
      expect(energy(expected)).toBeGreaterThan(300);
    }
    // The gaps between turns are silent; the keys are a DTMF tone.
    expect(energy(samples(wav, 2, 3))).toBe(0);
    expect(energy(samples(wav, 4, 5))).toBe(0);
    expect(energy(samples(wav, 3, 4))).toBeGreaterThan(1000);
    // The same call downloads the same bytes (the inspector's route too).
    const again = await h.call('GET', h.acme(`/recordings/${callId}`));
    expect(Buffer.from(again.bytes!).equals(wav)).toBe(true);
    const inspector = await h.call('GET', `/_sim/calls/${callId}/recording`, undefined, { key: null });
    expect(Buffer.from(inspector.bytes!).equals(wav)).toBe(true);
  });
});
