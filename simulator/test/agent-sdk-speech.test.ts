// The Agent SDK's speech port (resources/agent-sdk/speech.ts): prepared lines become the speech
// peer's audio (the same bytes as the peer's), and preparing a script lets the event loop turn
// between new lines, so other calls' frames are not held up behind a whole script's synthesis.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { IoBarrier } from '../core/io.ts';
import { SdkSpeech } from '../resources/agent-sdk/speech.ts';
import { speechSynthesizer, Synthesizer } from '../peers/speech/synthesizer.ts';
import { utteranceStore } from '../peers/speech/utterance-store.ts';

describe('Agent SDK speech', () => {
  it('prepares each new line in a turn of its own: other work runs between them; the audio is the peer\'s', async () => {
    const synth = await speechSynthesizer(); // loaded first: what is measured below is the lines alone
    const speech = new SdkSpeech(new IoBarrier());
    expect(speech.ready()).toBe(false); // nothing prepared through this port yet: its callers fall back to text speech time
    const lines = ['Yielding line one.', 'Yielding line two.', '세 번째 줄입니다.'];
    expect(lines.some((l) => synth.has(l))).toBe(false);
    // Other work: a callback of every turn of the event loop (the suite's synthesizer may read a
    // line kept on disk in well under a millisecond, before any timer is due, so a timer would not
    // show the turns; a script spoken in one go shows no turn between its lines either way).
    const seen: number[] = [];
    let probing = true;
    const probe = () => {
      seen.push(lines.filter((l) => synth.has(l)).length);
      if (probing) setImmediate(probe);
    };
    setImmediate(probe);
    const ready = speech.prepare(lines);
    expect(speech.busy).toBe(true);
    await ready;
    probing = false;
    expect(lines.every((l) => synth.has(l))).toBe(true);
    expect(speech.ready()).toBe(true);
    // Other work ran while the script was being prepared, between its lines.
    expect(seen.some((n) => n > 0 && n < lines.length)).toBe(true);
    expect(speech.audio(lines[2]!)).toEqual(synth.speak(lines[2]!).audio);
    // Lines already cached cost nothing and need no turn.
    await speech.prepare(lines);
    await speech.whenIdle();
    expect(speech.busy).toBe(false);
  });

  it('says ready only when every prepared line can be spoken at once: the engine loads first when one is not kept', async () => {
    // A fresh clone's cold store: the first line is kept on disk, the second is not. Once ready()
    // says yes, a call may ask for the audio of any prepared line synchronously (sdk-calls.ts), the
    // second before this port's loop has spoken it.
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sdk-speech-'));
    const store = utteranceStore(dir, 'test-version')!;
    const KEPT = 'Kept on the disk.';
    const NEW = 'Never said before.';
    await new Synthesizer(undefined, store).withEngine().then((s) => s.speak(KEPT));
    const cold = new Synthesizer(undefined, store);
    expect(cold.speakableNow(KEPT)).toBe(true);
    expect(cold.speakableNow(NEW)).toBe(false);
    const speech = new SdkSpeech(new IoBarrier(), () => cold);
    const done = speech.prepare([KEPT, NEW]);
    while (!speech.ready()) await new Promise((r) => setImmediate(r));
    expect(speech.audio(NEW)).toEqual((await speechSynthesizer()).speak(NEW).audio);
    await done;
    // Every line kept: ready without loading the engine.
    const warm = new Synthesizer(undefined, store);
    const kept = new SdkSpeech(new IoBarrier(), () => warm);
    await kept.prepare([KEPT]);
    expect(kept.ready()).toBe(true);
    expect(warm.speakableNow('Not kept, and no engine.')).toBe(false);
  });
});
