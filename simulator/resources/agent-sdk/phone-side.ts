// The phone in an Agent SDK call, frame by frame: when it takes its turn, what it says (speech
// audio), the keys it presses, and when it hangs up; and the conversation as it happened, on the
// call's media clock. The phone has no speech recognition in SDK calls: each turn asks the
// phone's script for its next move with nothing heard (the phone-turn rule belongs to the calls
// family's carrier peer; this file only decides *when*, from the media).
// When: after the agent's audio has played out and TURN_SILENCE_FRAMES of quiet followed; or, when
// the agent has said nothing since the phone's last turn, after PATIENCE_FRAMES of quiet (a caller
// who hears nothing speaks up). Never while the phone is still talking or pressing keys, nor while
// the caller is away from the agent (a transfer in return mode: on hold or with the target).
import { DTMF_GAP_FRAMES, type MediaEngine } from './media/engine.ts';

/** Quiet after the agent's audio before the phone answers (700 ms). */
export const TURN_SILENCE_FRAMES = 35;
/** Quiet with nothing from the agent before the phone speaks anyway (3 s). */
export const PATIENCE_FRAMES = 150;

/** The phone's next move, from its script (the carrier peer's phone-turn rule). */
export interface PhoneMove {
  say?: string | null;
  keys?: string | null;
  /** Nothing left to say: the phone hangs up. */
  hangup?: boolean;
}

export interface PhoneSidePorts {
  /** The script's next move, given what the phone heard since its last turn ("" in SDK calls). */
  nextMove(heard: string): PhoneMove;
  /** The utterance's μ-law audio, whole frames (the speech peer; ready before the call's media). */
  speak(text: string): Buffer;
  /** The phone hangs up now (the call ends, hang-up source: the caller). */
  hangUp(): void;
}

/** A turn of the conversation on the media clock (frames from `start`). */
export interface Turn {
  speaker: 'agent' | 'caller';
  /** What the phone said; null for the agent's audio (the simulator does not recognise it). */
  text: string | null;
  startFrame: number;
  endFrame: number;
  keys?: string;
}

export class PhoneSide {
  readonly turns: Turn[] = [];
  private agentSpokeSinceTurn = false;
  private playedSeen = 0;
  private hungUp = false;
  private away = false;

  constructor(
    private readonly engine: MediaEngine,
    private readonly ports: PhoneSidePorts,
  ) {}

  /** Call after each engine tick: notes the agent's speech and takes the phone's turn when due. */
  afterTick(): void {
    if (this.hungUp || this.away) return;
    this.noteAgentSpeech();
    if (this.engine.phoneBusy || this.engine.agentSpeaking) return;
    const quiet = this.engine.agentQuietFrames;
    const due = this.agentSpokeSinceTurn ? quiet >= TURN_SILENCE_FRAMES : quiet >= PATIENCE_FRAMES && this.phoneQuietFrames() >= PATIENCE_FRAMES;
    if (due) this.takeTurn();
  }

  /** The caller leaves the agent (a transfer in return mode): no turns until it comes back. */
  leave(): void {
    this.away = true;
  }

  /** The caller is back with the agent: what the agent played meanwhile was not heard. */
  comeBack(): void {
    if (!this.away) return;
    this.away = false;
    this.playedSeen = this.engine.stats.framesPlayed;
    this.agentSpokeSinceTurn = false;
  }

  /** The agent's played audio grouped into turns (a turn runs until the phone's next turn). */
  private noteAgentSpeech(): void {
    const fresh = this.engine.stats.framesPlayed - this.playedSeen;
    if (fresh === 0) return;
    this.playedSeen = this.engine.stats.framesPlayed;
    this.agentSpokeSinceTurn = true;
    const runs = this.engine.played;
    const last = runs.at(-1)!;
    const end = last.at + last.frames.length;
    // The first of the fresh frames: walk back over the runs they fill.
    let left = fresh;
    let first = end;
    for (let i = runs.length - 1; i >= 0 && left > 0; i--) {
      const take = Math.min(left, runs[i]!.frames.length);
      first = runs[i]!.at + runs[i]!.frames.length - take;
      left -= take;
    }
    const open = this.turns.at(-1);
    if (open?.speaker === 'agent') open.endFrame = end;
    else this.turns.push({ speaker: 'agent', text: null, startFrame: first, endFrame: end });
  }

  private phoneQuietFrames(): number {
    const lastCaller = [...this.turns].reverse().find((t) => t.speaker === 'caller');
    return this.engine.position - (lastCaller?.endFrame ?? 0);
  }

  private takeTurn(): void {
    this.agentSpokeSinceTurn = false;
    const move = this.ports.nextMove('');
    if (move.hangup || (!move.say && !move.keys)) {
      this.hungUp = true;
      this.ports.hangUp();
      return;
    }
    let start = this.engine.position;
    let end = start;
    if (move.say) {
      const audio = this.ports.speak(move.say);
      start = this.engine.phoneSays(audio);
      end = start + audio.length / 160;
    }
    if (move.keys) {
      this.engine.phonePresses(move.keys);
      end = Math.max(end, this.engine.position + move.keys.length * DTMF_GAP_FRAMES);
    }
    this.turns.push({ speaker: 'caller', text: move.say ?? null, startFrame: start, endFrame: end, ...(move.keys ? { keys: move.keys } : {}) });
  }
}
