// Replaying a journal: each entry is handed to the deterministic core as it was live, one per
// turn of the event loop, so the work an entry sets off within its turn (handlers, the webhook
// dispatcher's microtask, a clock advance resuming after an outcome) is done before the next
// entry, as it was live (the outcome gate lands live outcomes one per turn too). Requests are not
// awaited: a handler waiting for I/O resumes when the journal hands back that I/O's outcome.
// Nothing goes out while replaying; the outcome gate holds every piece of I/O that starts.
import type { SimRequest, SimResponse } from '../core/operation.ts';
import type { OutcomeGate } from '../core/outcome-gate.ts';
import { entryRequest, entrySettled, type Entry } from './entries.ts';
import { journalName, StateDirError } from './files.ts';
import type { LiveSettings } from './settings.ts';

export interface ReplayTarget {
  /** The pipeline without the checks options decide (control token, body limits: journal.ts leaves out what they refused) and without the realtime catch-up (its moves are entries). */
  dispatch(req: SimRequest): SimResponse | Promise<SimResponse>;
  gate: OutcomeGate;
  /** Moves virtual time as the realtime driver did. */
  moveClock(to: number): void;
  applySettings(s: LiveSettings): void;
  /** One turn of the event loop (setImmediate). */
  turn(): Promise<void>;
}

export interface Segment {
  generation: number;
  entries: Entry[];
}

/** Applies every entry of every segment, in order. */
export async function replay(dir: string, segments: readonly Segment[], target: ReplayTarget): Promise<void> {
  for (const seg of segments) {
    // Each journal numbers its outcomes from 0: it starts at a quiet moment (compaction) or at the first start.
    if (target.gate.busy) throw misfit(dir, seg.generation, 0, 'I/O from the previous journal is still waiting for its outcome');
    target.gate.restartNumbering();
    for (let i = 0; i < seg.entries.length; i++) {
      const e = seg.entries[i]!;
      switch (e.t) {
        case 'q':
          void target.dispatch(entryRequest(e));
          break;
        case 'o':
          if (!target.gate.land(e.i, entrySettled(e))) throw misfit(dir, seg.generation, i + 1, `an outcome of ${e.k} for I/O #${e.i}, which the replay has not started`);
          break;
        case 'c':
          target.moveClock(e.to);
          break;
        case 's':
          target.applySettings(e.v);
          break;
      }
      await target.turn();
    }
  }
}

function misfit(dir: string, generation: number, line: number, what: string): StateDirError {
  return new StateDirError(
    `state dir ${dir}: ${journalName(generation)}${line > 0 ? ` line ${line}` : ''} does not fit this simulator (${what}); was it written by another version? Start it with the version that wrote it, or move the dir aside to start empty.`,
  );
}
