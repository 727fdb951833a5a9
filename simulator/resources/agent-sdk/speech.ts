// The speech peer as the Agent SDK family uses it: texts are synthesised ahead (the engine loads at
// the first line not kept on disk, then each text once: peers/speech), tracked by the I/O barrier so a clock advance
// waits for them, and read back synchronously while frames flow. Audio of a text that was never
// prepared is a defect of the caller (the family prepares every line before the call's media).
// Preparing is local work whose end is the wall clock's (the engine loading): it enters through
// the barrier's localOutcome, so a durable state dir's replay lands it where it landed live.
// Synthesis runs on the main thread (about 100 ms a new line), so prepare lets the event loop turn
// between new lines: other calls' frames go out between them rather than after the whole script.
import { InFlight, type IoBarrier, type PendingIo } from '../../core/io.ts';
import { sharedSynthesizer, type Synthesizer } from '../../peers/speech/synthesizer.ts';
import type { SpeechPort } from './call-ports.ts';

/** Resolves after the event loop's pending timers and I/O have had their turn. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export class SdkSpeech implements SpeechPort, PendingIo {
  private synth: Synthesizer | undefined;
  private readonly inFlight = new InFlight();

  /** `synthesizer`: the process-wide one (a test hands its own). */
  constructor(
    private readonly io: IoBarrier,
    private readonly synthesizer: () => Synthesizer = sharedSynthesizer,
  ) {}

  get busy(): boolean {
    return this.inFlight.busy;
  }

  whenIdle(): Promise<void> {
    return this.inFlight.whenIdle();
  }

  prepare(texts: readonly string[]): Promise<void> {
    // Nothing to say: the engine (40 MB, a few hundred ms) is not loaded for it.
    if (texts.every((t) => t === '')) return Promise.resolve();
    const work = this.io.localOutcome('speech.prepare', async () => {
      // The engine loads only for a line not kept on disk (peers/speech), and before `ready()`
      // says yes: from then on `audio()` may be asked, synchronously, for any of these lines,
      // the later ones not yet spoken by this loop.
      const synth = this.synthesizer();
      if (!texts.every((t) => t === '' || synth.speakableNow(t))) await synth.withEngine();
      this.synth = synth;
      for (const t of texts) {
        if (t === '' || synth.has(t)) continue;
        if (!synth.speakableNow(t)) await synth.withEngine(); // a kept line gone from the disk since
        synth.speak(t);
        await nextTurn();
      }
    });
    this.inFlight.track(
      work.catch(() => undefined),
      () => {},
    );
    return work;
  }

  ready(): boolean {
    return this.synth !== undefined;
  }

  audio(text: string): Buffer {
    if (!this.synth) throw new Error('speech was not prepared before it was needed');
    return this.synth.speak(text).audio;
  }
}
