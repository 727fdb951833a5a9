// The eSpeak NG engine (WebAssembly build from npm, GPL-3.0: docs/decisions.md "Speech synthesis"),
// loaded on first use so a simulator that never speaks never pays its 24 MB data file.
//
// Determinism: eSpeak keeps state between utterances (its pitch flutter index, the C library's
// random generator), so the same text synthesised twice in one engine differs by a few samples.
// The engine's whole linear memory is therefore snapshotted once, after warming up every voice,
// and put back before each utterance: every utterance starts from the same bytes, so the same
// text always gives the same samples, whatever was said before and in whatever order. The text
// goes through a buffer allocated before the snapshot (not the binding's string cache, whose
// JavaScript-side pointers would not follow a memory restore).
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The voices the peer speaks with: eSpeak NG's Korean and American English. */
export type Voice = 'ko' | 'en-us';
export const VOICES: readonly Voice[] = ['ko', 'en-us'];

/** eSpeak NG's speaking rates in words per minute: its default and the fastest it takes. */
export const DEFAULT_RATE = 175;
export const MAX_RATE = 450;

/** Longest text, in UTF-8 bytes, one utterance may hold (longer texts are split by the caller). */
export const MAX_UTTERANCE_BYTES = 4096;

interface Worker {
  readonly samplerate: number;
  set_voice(name: string): number;
  set_rate(wordsPerMinute: number): number;
  synthesize(text: { ptr: number }, onAudio: (samples: Int16Array, events: unknown[]) => boolean): void;
}

interface EspeakModule {
  HEAPU8: Uint8Array;
  _malloc(bytes: number): number;
  eSpeakNGWorker: new () => Worker;
}

type Factory = (options: { locateFile(path: string): string; print(): void; printErr(): void }) => Promise<EspeakModule>;

const PACKAGE = '@echogarden/espeak-ng-emscripten';

export interface Engine {
  /** Samples per second of what synthesize returns (eSpeak NG: 22050). */
  readonly sampleRate: number;
  /** 16-bit mono samples of the text spoken with the voice (at `rate` words per minute); the same arguments always give the same samples. */
  synthesize(voice: Voice, text: string, rate?: number): Int16Array;
}

async function load(): Promise<Engine> {
  const require = createRequire(import.meta.url);
  const dir = dirname(require.resolve(PACKAGE));
  const factory = ((await import(PACKAGE)) as { default: Factory }).default;
  const m = await factory({ locateFile: (p) => join(dir, p), print() {}, printErr() {} });
  const worker = new m.eSpeakNGWorker();
  const textAt = m._malloc(MAX_UTTERANCE_BYTES + 1);
  const run = (voice: Voice, text: string, rate = DEFAULT_RATE): Int16Array => {
    const bytes = Buffer.from(text, 'utf8');
    if (bytes.length > MAX_UTTERANCE_BYTES) throw new RangeError(`an utterance holds at most ${MAX_UTTERANCE_BYTES} bytes of UTF-8`);
    m.HEAPU8.set(bytes, textAt);
    m.HEAPU8[textAt + bytes.length] = 0;
    if (worker.set_voice(voice) !== 0) throw new Error(`eSpeak NG has no voice "${voice}"`);
    worker.set_rate(Math.max(DEFAULT_RATE, Math.min(MAX_RATE, Math.round(rate))));
    const chunks: Int16Array[] = [];
    worker.synthesize({ ptr: textAt }, (samples) => {
      if (samples.length > 0) chunks.push(Int16Array.from(samples));
      return false; // false: go on
    });
    const out = new Int16Array(chunks.reduce((n, c) => n + c.length, 0));
    let at = 0;
    for (const c of chunks) {
      out.set(c, at);
      at += c.length;
    }
    return out;
  };
  // Warm up: load every voice's dictionary and let the binding allocate its buffers, then freeze.
  for (const v of VOICES) run(v, v === 'ko' ? '가' : 'a');
  const frozen = m.HEAPU8.slice();
  return {
    sampleRate: worker.samplerate,
    synthesize(voice, text, rate) {
      m.HEAPU8.set(frozen);
      return run(voice, text, rate);
    },
  };
}

let loading: Promise<Engine> | undefined;

/** The process-wide engine, loaded once (about 200 ms and 40 MB the first time). */
export function espeakEngine(): Promise<Engine> {
  loading ??= load();
  return loading;
}
