// The phone's voice on calls over the wire: the speech peer (eSpeak, loaded on first use) makes
// its lines into μ-law. Loading is local work whose end is the wall clock's, so it goes through
// the I/O barrier's localOutcome (a durable state dir's replay lands it where it landed live) and
// counts as pending I/O, so a clock advance waits for it before moving. Once loaded, every line
// is spoken synchronously (the peer caches them).
import { InFlight, type IoBarrier, type PendingIo } from '../../core/io.ts';
import { speechSynthesizer, type Synthesizer } from '../../peers/speech/synthesizer.ts';

export class PhoneSpeech implements PendingIo {
  private synth: Synthesizer | undefined;
  private readonly loading = new InFlight();
  private waiting: (() => void)[] = [];

  constructor(private readonly io: IoBarrier) {
    io.register(this);
  }

  get busy(): boolean {
    return this.loading.busy;
  }

  whenIdle(): Promise<void> {
    return this.loading.whenIdle();
  }

  /** True when `texts` can be spoken now (nothing to say, or the engine is loaded); else `landed` runs once it is. */
  prepare(texts: readonly string[], landed: () => void): boolean {
    if (texts.length === 0 || this.synth) return true;
    this.waiting.push(landed);
    if (this.waiting.length === 1) {
      this.loading.track(
        this.io.localOutcome('sipServer.speech', () => speechSynthesizer()).catch(() => undefined),
        (synth) => {
          this.synth = synth;
          const ready = this.waiting;
          this.waiting = [];
          if (synth) for (const f of ready) f();
        },
      );
    }
    return false;
  }

  audio(text: string): Buffer {
    if (!this.synth) throw new Error('the phone spoke before its speech was prepared');
    return this.synth.speak(text).audio;
  }
}
