// Replaying a journal: each entry is handed to the deterministic core as it was live, and the
// work it sets off (a handler answering later, the webhook dispatcher's microtask, a clock
// advance resuming after an outcome) is done before the next entry, as it was live (the outcome
// gate lands live outcomes one per turn of the event loop too): after an outcome, a request
// answered later, or whenever I/O is pending, the next entry waits for a turn of the event loop.
// An entry done at once with nothing pending (most requests) goes straight on to the next, a
// turn every TURN_EVERY entries. Requests are not awaited: a handler waiting for I/O resumes when
// the journal hands back that I/O's outcome. Nothing goes out while replaying; the outcome gate
// holds every piece of I/O that starts. (The rule this leans on: a change a model defers to a
// microtask keeps the I/O barrier busy until it is made, as the webhook dispatcher does.)
import type { SimRequest, SimResponse } from '../core/operation.ts';
import type { OutcomeGate } from '../core/outcome-gate.ts';
import { entryRequest, entrySettled, type Entry, type SocketEntry } from './entries.ts';
import { journalName, StateDirError } from './files.ts';
import type { LiveSettings } from './settings.ts';

export interface ReplayTarget {
  /** The pipeline without the checks options decide (control token, body limits: journal.ts leaves out what they refused) and without the realtime catch-up (its moves are entries). */
  dispatch(req: SimRequest): SimResponse | Promise<SimResponse>;
  gate: OutcomeGate;
  /** A socket entry (live-sockets.ts); false for a socket the replay does not know. */
  socket(e: SocketEntry): boolean;
  /** Makes a recorded effect again (core/io.ts); false for an unknown kind. */
  replayEffect(kind: string, arg: string): boolean;
  /** Moves virtual time as the realtime driver did. */
  moveClock(to: number): void;
  applySettings(s: LiveSettings): void;
  /** One turn of the event loop (setImmediate). */
  turn(): Promise<void>;
  /** Whether I/O is pending or queued (the I/O barrier). */
  busy(): boolean;
}

export interface Segment {
  generation: number;
  entries: Entry[];
}

/** Applies every entry of every segment, in order. */
/** Entries replayed at most between two turns of the event loop (signals and timers get their turn). */
const TURN_EVERY = 2000;

export async function replay(dir: string, segments: readonly Segment[], target: ReplayTarget): Promise<void> {
  let sinceTurn = 0;
  for (const seg of segments) {
    // Each journal numbers its outcomes from 0: it starts at a quiet moment (compaction) or at the first start.
    if (target.gate.busy) throw misfit(dir, seg.generation, 0, 'I/O from the previous journal is still waiting for its outcome');
    target.gate.restartNumbering();
    for (let i = 0; i < seg.entries.length; i++) {
      const e = seg.entries[i]!;
      let later = false;
      switch (e.t) {
        case 'q':
          later = target.dispatch(entryRequest(e)) instanceof Promise;
          break;
        case 'o': {
          const landed = target.gate.land(e.i, entrySettled(e));
          if (landed === false) throw misfit(dir, seg.generation, i + 1, `an outcome of ${e.k} for I/O #${e.i}, which the replay has not started`);
          if (landed instanceof Promise) await landed; // local work done again: it lands once done
          later = true; // the model it lands in goes on in microtasks
          break;
        }
        case 'e':
          if (!target.replayEffect(e.k, e.a)) throw misfit(dir, seg.generation, i + 1, `an effect of unknown kind ${e.k}`);
          break;
        case 'u':
        case 'm':
        case 'x':
          if (!target.socket(e)) throw misfit(dir, seg.generation, i + 1, `an event of socket ${e.s}, which the replay has not opened`);
          break;
        case 'c':
          target.moveClock(e.to);
          break;
        case 's':
          target.applySettings(e.v);
          break;
      }
      if (later || target.busy() || ++sinceTurn >= TURN_EVERY) {
        sinceTurn = 0;
        await target.turn();
      }
    }
  }
}

function misfit(dir: string, generation: number, line: number, what: string): StateDirError {
  return new StateDirError(
    `state dir ${dir}: ${journalName(generation)}${line > 0 ? ` line ${line}` : ''} does not fit this simulator (${what}); was it written by another version? Start it with the version that wrote it, or move the dir aside to start empty.`,
  );
}
