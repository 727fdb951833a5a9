// The speech peer: what a phone says, as telephone audio (8 kHz mono μ-law, whole 20 ms frames),
// offline and deterministic (espeak.ts). Korean and English: the text is cut into runs of Hangul
// and of other letters, each spoken with its language's voice (digits, spaces and punctuation
// stay with the run they follow), so "1번을 눌러 주세요. Press one." speaks both parts properly.
// Utterances are kept in a bounded cache: phones in many calls say the same lines; with a folder
// named (utterance-store.ts), also on disk between processes, and then the engine (about 0.26 s of
// CPU to load) is loaded only when a line is not kept (withSpeech).
import { DEFAULT_RATE, espeakEngine, MAX_RATE, MAX_UTTERANCE_BYTES, type Engine, type Voice } from './espeak.ts';
import { encode, MULAW_SILENCE } from './mulaw.ts';
import { resample } from './resample.ts';
import { storeFromEnvironment, type UtteranceStore } from './utterance-store.ts';

export const LINE_RATE = 8000;
export const FRAME_BYTES = 160;
/** Longest text one utterance may hold, in characters (a phone line is a sentence or two). */
export const MAX_TEXT_CHARS = 1000;
const CACHE_ENTRIES = 512;

const HANGUL = /[\u1100-\u11ff\u3130-\u318f\uac00-\ud7af]/;
/** Any letter: made at the first speech, since a Unicode property class costs about 0.3 ms of start-up CPU to build. */
let letter: RegExp | undefined;

/** The text cut into runs by voice, in order. */
export function voiceRuns(text: string): { voice: Voice; text: string }[] {
  const runs: { voice: Voice; text: string }[] = [];
  let voice: Voice | undefined;
  let current = '';
  for (const ch of text) {
    const v: Voice | undefined = HANGUL.test(ch) ? 'ko' : (letter ??= /\p{L}/u).test(ch) ? 'en-us' : undefined;
    if (v !== undefined && voice !== undefined && v !== voice) {
      runs.push({ voice, text: current });
      current = '';
    }
    if (v !== undefined) voice = v;
    current += ch;
  }
  if (current.trim() !== '') runs.push({ voice: voice ?? 'en-us', text: current });
  return runs;
}

export interface Utterance {
  text: string;
  /** μ-law bytes, a whole number of 160-byte frames (the last one padded with silence). */
  audio: Buffer;
  /** Length in milliseconds (frames × 20). */
  ms: number;
}

/** A line neither cached nor kept, asked of a synthesiser whose engine is not loaded yet. */
export class EngineNotLoaded extends Error {}

export class Synthesizer {
  private readonly cache = new Map<string, Utterance>();

  /**
   * `engine`: undefined until withEngine() loads it (lines kept in `store` are spoken without it).
   * `store`: utterances kept between processes (same text and rate, same bytes), read before the engine is asked.
   */
  constructor(
    private engine?: Engine,
    private readonly store?: UtteranceStore,
  ) {}

  /** This synthesiser with its engine loaded (once). */
  async withEngine(): Promise<this> {
    this.engine ??= await espeakEngine();
    return this;
  }

  /** Whether the text's utterance at the default rate is cached (speaking it costs nothing then). */
  has(text: string): boolean {
    return this.cache.has(text);
  }

  /**
   * Whether the text can be spoken now without waiting: its engine is loaded, or the line is
   * cached or kept on disk (so a caller that must answer synchronously loads the engine first
   * when this says no).
   */
  speakableNow(text: string): boolean {
    return this.engine !== undefined || this.cache.has(text) || this.store?.has(text) === true;
  }

  /** The utterance of the text (at `rate` words per minute); the same text always gives the same bytes. */
  speak(text: string, rate = DEFAULT_RATE): Utterance {
    const key = rate === DEFAULT_RATE ? text : `${rate}\u0000${text}`;
    const hit = this.cache.get(key);
    if (hit) {
      // Least recently used goes first: re-insert on use.
      this.cache.delete(key);
      this.cache.set(key, hit);
      return hit;
    }
    if ([...text].length > MAX_TEXT_CHARS) throw new RangeError(`a phone line holds at most ${MAX_TEXT_CHARS} characters`);
    const kept = this.store?.read(key);
    const audio = kept ?? this.synthesize(text, rate);
    if (!kept) this.store?.write(key, audio);
    const u: Utterance = { text, audio, ms: (audio.length / FRAME_BYTES) * 20 };
    this.cache.set(key, u);
    if (this.cache.size > CACHE_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
    return u;
  }

  /** The engine's samples for the text, at the line's rate, μ-law, padded with silence to whole frames. */
  private synthesize(text: string, rate: number): Buffer {
    const engine = this.engine;
    if (!engine) throw new EngineNotLoaded(`the speech engine is not loaded to say "${text.slice(0, 40)}"`);
    const parts = voiceRuns(text).map((r) => resample(engine.synthesize(r.voice, r.text, rate), engine.sampleRate, LINE_RATE));
    const samples = parts.reduce((n, p) => n + p.length, 0);
    const frames = Math.ceil(samples / FRAME_BYTES);
    const audio = Buffer.alloc(frames * FRAME_BYTES, MULAW_SILENCE);
    let at = 0;
    for (const p of parts) {
      encode(p).copy(audio, at);
      at += p.length;
    }
    return audio;
  }

  /**
   * The utterance of the text in at most `maxMs` (a slot the call's timeline gives it): spoken
   * faster when the default rate overruns (up to eSpeak's fastest), and cut to the slot if even
   * that is too long. Deterministic: the rate is a function of the text and the slot.
   */
  speakWithin(text: string, maxMs: number): Utterance {
    const fits = (u: Utterance) => u.ms <= maxMs;
    let u = this.speak(text);
    if (fits(u)) return u;
    u = this.speak(text, Math.min(MAX_RATE, Math.ceil((DEFAULT_RATE * u.ms) / Math.max(20, maxMs))));
    if (fits(u)) return u;
    const frames = Math.max(0, Math.floor(maxMs / 20));
    return { text, audio: u.audio.subarray(0, frames * FRAME_BYTES), ms: frames * 20 };
  }
}

// UTF-8 of MAX_TEXT_CHARS characters fits one engine utterance (at most 4 bytes each).
if (MAX_TEXT_CHARS * 4 > MAX_UTTERANCE_BYTES) throw new Error('MAX_TEXT_CHARS exceeds what one utterance holds');

let shared: Synthesizer | undefined;

/** The process-wide synthesiser, its engine not loaded until a line needs it (withEngine). */
export function sharedSynthesizer(): Synthesizer {
  shared ??= new Synthesizer(undefined, storeFromEnvironment());
  return shared;
}

/** The process-wide synthesiser with its engine loaded (once, on first use). */
export function speechSynthesizer(): Promise<Synthesizer> {
  return sharedSynthesizer().withEngine();
}

/**
 * What `use` makes with the process-wide synthesiser: first without loading the engine (every line
 * it says is cached or kept on disk), else again once the engine is loaded. `use` must do nothing
 * but answer (it may run twice); the answer is the same either way, as a kept line's bytes are
 * the engine's.
 */
export async function withSpeech<T>(use: (synth: Synthesizer) => T): Promise<T> {
  const synth = sharedSynthesizer();
  try {
    return use(synth);
  } catch (e) {
    if (!(e instanceof EngineNotLoaded)) throw e;
  }
  return use(await synth.withEngine());
}
