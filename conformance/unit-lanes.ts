// Runs a run's units with some of them beside the main sequence, and hands the results back in
// catalogue order. A unit that mostly waits on real time (an Agent SDK scenario paces its media
// at 20 ms a frame) may run in a lane while the main sequence keeps the one thread busy; the
// printed report, the verdicts and a bail stay those of the serial run (docs/decisions.md
// "Conformance kit": units beside the others).
import type { Scenario, Step } from './scenario/types.ts';

/** One unit to run, and whether it may run beside the others. */
export interface LaneJob<R> {
  beside: boolean;
  run(lane: number | undefined): Promise<R>;
}

export interface LaneOptions<R> {
  /** How many units may run beside the main sequence at once (0: all in order, one at a time). */
  lanes: number;
  /** Called with each result in catalogue order; true stops the run after it (bail). */
  emit(result: R, index: number): boolean;
  /** Whether a result stops the run once emitted, known as soon as it is there (so no later unit starts). */
  stops(result: R): boolean;
}

/**
 * Runs `jobs`: the beside ones in `lanes` lanes (dealt in turn; each lane one unit at a time, in order),
 * the others one after another in order. Results are emitted in the jobs' order; after an emit
 * that stops, nothing more is emitted and no unit starts, and the call returns once the units
 * already running have ended (their results unused), so a lane's target can be closed after.
 */
export async function runUnitsInOrder<R>(jobs: readonly LaneJob<R>[], opts: LaneOptions<R>): Promise<void> {
  const lanes = Math.max(0, Math.floor(opts.lanes));
  const results: (R | undefined)[] = new Array(jobs.length);
  const done: boolean[] = new Array(jobs.length).fill(false);
  let next = 0;
  let stopped = false;
  /** The first index whose result stops the run: no unit after it starts. */
  let stopAt = Infinity;
  const flush = () => {
    while (!stopped && next < jobs.length && done[next]) {
      const i = next++;
      if (opts.emit(results[i] as R, i)) stopped = true;
    }
  };
  const finish = (i: number, r: R) => {
    results[i] = r;
    done[i] = true;
    if (opts.stops(r)) stopAt = Math.min(stopAt, i);
    flush();
  };
  const runsBeside = (i: number) => lanes > 0 && jobs[i]!.beside;
  const mayStart = (i: number) => !stopped && i <= stopAt;
  // Dealt to the lanes in turn, not taken by whichever lane is free: which lane runs a unit (and
  // what that lane learnt before it) never depends on timing.
  const beside = jobs.map((_, i) => i).filter(runsBeside);
  const lane = async (id: number) => {
    for (const i of beside.filter((_, k) => k % lanes === id)) {
      if (!mayStart(i)) return;
      finish(i, await jobs[i]!.run(id));
    }
  };
  const main = async () => {
    for (let i = 0; i < jobs.length; i++) {
      if (runsBeside(i)) continue;
      if (!mayStart(i)) return;
      finish(i, await jobs[i]!.run(undefined));
    }
  };
  await Promise.all([main(), ...Array.from({ length: Math.min(lanes, beside.length) }, (_, id) => lane(id))]);
  flush();
}

/** A scenario that waits on real time: an agent step paces audio and waits for the target's socket messages. */
export function waitsOnRealTime(s: Scenario): boolean {
  return s.steps.some((st) => st.kind === 'agent');
}

/** Control calls that act on the whole target (its clock, its whole state, another tenant): never beside a shared target's other units. */
function actsOnWholeTarget(step: Step): boolean {
  if (step.kind !== 'control') return false;
  const c = step.control;
  return Boolean(c.advance || c.reset || c.foreign) || /^\/?(state|clock)\b/.test(String(c.path ?? '').replace(/^\/_sim/, ''));
}

/** The accounts a step acts for: a request's key and path account, an agent socket's account (`main` unless named). */
function speaksAs(step: Step): string[] {
  if (step.kind === 'request') {
    const who = step.request.as ?? 'main';
    const keyless = who === 'none' || who === 'invalid';
    return [...(keyless ? [] : [who]), step.request.account ?? (keyless ? 'main' : who)];
  }
  if (step.kind !== 'agent') return [];
  const opens = step.agent as { connect?: { account?: string }; media?: { account?: string } };
  const socket = opens.connect ?? opens.media;
  return socket ? [socket.account ?? 'main'] : [];
}

/**
 * Why `s` may not run beside other units, or undefined when it may. On its own copy of the target
 * (the in-process simulator gives each lane its own) a scenario only needs to wait on real time
 * to be worth a lane. On a target the lanes share, it must also be provably on its own: no reset
 * or clock advance or whole-state call, and every request and socket in the name of an account
 * the scenario created itself (never the accounts the run was given).
 */
export function besideRefusal(s: Scenario, sharedTarget: boolean): string | undefined {
  if (!waitsOnRealTime(s)) return 'it does not wait on real time';
  if (!sharedTarget) return undefined;
  const all = [...s.steps, ...s.teardown];
  if (s.requires.includes('reset')) return 'it resets the target';
  if (all.some(actsOnWholeTarget)) return 'it acts on the whole target (reset, clock, state or another tenant)';
  const own = new Set(all.flatMap((st) => (st.kind === 'control' && st.control.createAccount && st.control.as ? [st.control.as] : [])));
  const foreign = all.flatMap(speaksAs).find((who) => !own.has(who));
  if (foreign) return `it speaks as "${foreign}", an account it did not create`;
  return undefined;
}
