// The speech peer: Korean and English text to 8 kHz μ-law in whole 20 ms frames, the same bytes
// for the same text whatever was said before, and a resampler that keeps speech frequencies and
// removes what the 8 kHz line cannot carry.
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EngineNotLoaded, speechSynthesizer, voiceRuns, Synthesizer } from '../peers/speech/synthesizer.ts';
import { espeakEngine } from '../peers/speech/espeak.ts';
import { utteranceStore } from '../peers/speech/utterance-store.ts';
import { resample } from '../peers/speech/resample.ts';
import { decode, MULAW_SILENCE } from '../peers/speech/mulaw.ts';

const KO = '안녕하세요, 예약을 확인하고 싶습니다';
const EN = 'Hello, I would like to check my booking';

/** Root mean square of the decoded audio. */
function rms(audio: Buffer): number {
  const s = decode(audio);
  return Math.sqrt(s.reduce((a, x) => a + x * x, 0) / s.length);
}

function tone(freq: number, rate: number, seconds: number): Int16Array {
  return Int16Array.from({ length: rate * seconds }, (_, n) => Math.round(10000 * Math.sin((2 * Math.PI * freq * n) / rate)));
}

/** Zero crossings per second of the middle half (away from the filter's edge effects). */
function crossingsPerSecond(s: Int16Array, rate: number): number {
  const from = Math.floor(s.length / 4);
  const to = Math.floor((3 * s.length) / 4);
  let n = 0;
  for (let i = from + 1; i < to; i++) if (s[i - 1]! < 0 !== s[i]! < 0) n++;
  return (n * rate) / (to - from);
}

describe('speech peer', () => {
  it('cuts mixed text into Korean and English runs, keeping digits and punctuation with their run', () => {
    expect(voiceRuns('1번을 눌러 주세요. Press one.')).toEqual([
      { voice: 'ko', text: '1번을 눌러 주세요. ' },
      { voice: 'en-us', text: 'Press one.' },
    ]);
    expect(voiceRuns('  ')).toEqual([]);
    expect(voiceRuns('42')).toEqual([{ voice: 'en-us', text: '42' }]);
  });

  it('speaks Korean and English as audible speech of a plausible length, in whole frames', async () => {
    const synth = await speechSynthesizer();
    for (const text of [KO, EN]) {
      const u = synth.speak(text);
      expect(u.audio.length % 160).toBe(0);
      expect(u.ms).toBe((u.audio.length / 160) * 20);
      // About 2 to 5 seconds for a sentence of this length; clearly louder than silence.
      expect(u.ms).toBeGreaterThan(1500);
      expect(u.ms).toBeLessThan(6000);
      expect(rms(u.audio)).toBeGreaterThan(500);
      // It ends in silence padding or quiet audio, never cut mid-word at full level.
      expect(u.audio.at(-1) === MULAW_SILENCE || Math.abs(decode(u.audio.subarray(-1))[0]!) < 4000).toBe(true);
    }
  });

  it('gives the same bytes for the same text whatever was said before (fresh engine state per utterance)', async () => {
    const engine = await espeakEngine();
    // Two synthesizers with separate caches, fed in different orders.
    const a = new Synthesizer(engine);
    const b = new Synthesizer(engine);
    const first = a.speak(KO).audio;
    a.speak(EN);
    b.speak(EN);
    b.speak('둘');
    const second = b.speak(KO).audio;
    expect(second.equals(first)).toBe(true);
    expect(new Synthesizer(engine).speak(EN).audio.equals(a.speak(EN).audio)).toBe(true);
  });

  it('is stable across runs and machines (pinned digest: a change here changes every SDK recording)', async () => {
    // The engine itself, not a kept utterance (the suite's shared synthesizer keeps them on disk).
    const u = new Synthesizer(await espeakEngine()).speak('Press one for bookings.');
    expect(createHash('sha256').update(u.audio).digest('hex').slice(0, 16)).toBe('26fcd027a60584c6');
  });

  it('fits a line into a slot: spoken faster when the default rate overruns it, cut only past the fastest rate', async () => {
    const synth = await speechSynthesizer();
    const line = '죄송합니다. 잘 이해하지 못했어요. 다시 한 번 말씀해 주시겠어요?';
    const natural = synth.speak(line);
    expect(synth.speakWithin(line, natural.ms + 1000)).toBe(natural); // it fits: the same utterance
    const slot = Math.round((natural.ms * 0.75) / 20) * 20;
    const faster = synth.speakWithin(line, slot);
    expect(faster.ms).toBeLessThanOrEqual(slot);
    expect(faster.ms).toBeGreaterThan(slot / 2); // spoken faster, not cut down to a fragment
    expect(rms(faster.audio)).toBeGreaterThan(500);
    expect(faster.audio.equals(synth.speakWithin(line, slot).audio)).toBe(true);
    const cut = synth.speakWithin(line, 200);
    expect(cut.ms).toBe(200);
    expect(cut.audio.length).toBe(10 * 160);
  });

  it('keeps utterances on disk for the next process, by text and rate, under the version of the code that made them', async () => {
    const engine = await espeakEngine();
    const SHORT = 'Yes, two.'; // short lines: what is tested is the store, not the speech
    const dir = mkdtempSync(path.join(os.tmpdir(), 'speech-store-'));
    const made = new Synthesizer(engine, utteranceStore(dir, 'v1')!);
    const hello = made.speak(SHORT);
    const fast = made.speak(SHORT, 300);
    expect(readdirSync(dir)).toHaveLength(2);
    // Another process (another synthesizer) with the same store reads them: its engine is never asked.
    const silent: typeof engine = { sampleRate: engine.sampleRate, synthesize: () => { throw new Error('the engine was asked'); } };
    const kept = new Synthesizer(silent, utteranceStore(dir, 'v1')!);
    expect(kept.speak(SHORT)).toEqual(hello);
    expect(kept.speak(SHORT, 300).audio.equals(fast.audio)).toBe(true);
    expect(() => kept.speak(KO)).toThrow(/the engine was asked/);
    // Other code (another version) never reads them: it synthesises, and gets what the engine gives.
    const changed = new Synthesizer(engine, utteranceStore(dir, 'v2')!);
    expect(changed.speak(SHORT).audio.equals(new Synthesizer(engine).speak(SHORT).audio)).toBe(true);
    expect(readdirSync(dir)).toHaveLength(3);
    // Without an engine loaded, kept lines are spoken; a line not kept asks for it (withSpeech loads it then).
    const unloaded = new Synthesizer(undefined, utteranceStore(dir, 'v1')!);
    expect(unloaded.speak(SHORT)).toEqual(hello);
    expect(() => unloaded.speak('No.')).toThrow(EngineNotLoaded);
    expect((await unloaded.withEngine()).speak('No.').audio.equals(new Synthesizer(engine).speak('No.').audio)).toBe(true);
    // The version of the sources as they are: a hash, found from this folder.
    expect(utteranceStore(dir)).toBeDefined();
  });

  it('refuses a line longer than 1000 characters', async () => {
    const synth = await speechSynthesizer();
    expect(() => synth.speak('a'.repeat(1001))).toThrow(/at most 1000 characters/);
  });

  it('resamples 22.05 kHz to 8 kHz keeping a 1 kHz tone and removing a 6 kHz one', () => {
    const kept = resample(tone(1000, 22050, 1), 22050, 8000);
    expect(kept.length).toBe(8000);
    expect(crossingsPerSecond(kept, 8000)).toBeCloseTo(2000, -1);
    const keptRms = Math.sqrt(kept.reduce((a, x) => a + x * x, 0) / kept.length);
    expect(keptRms).toBeGreaterThan(6500); // 10000 / √2 ≈ 7071, minus a little passband loss
    const removed = resample(tone(6000, 22050, 1), 22050, 8000);
    const removedRms = Math.sqrt(removed.slice(400, -400).reduce((a, x) => a + x * x, 0) / (removed.length - 800));
    expect(removedRms).toBeLessThan(100);
  });
});
