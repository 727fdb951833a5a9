// Runs one scenario: isolate the target, set up the names (accounts, vars), then every step in
// order. A step that cannot run (missing capability, a value an earlier step did not produce)
// is skipped with the reason, and so are the steps after it, which build on its effects.
import type { StepResult, UnitResult } from '../result.ts';
import { skippedResult, unitVerdict } from '../result.ts';
import { hashString, Scope, SeededRandom, Unavailable, UnresolvedError } from './interpolate.ts';
import { lackReason, type SavedState } from '../target.ts';
import { readGivenAccounts, remakeGivenAccounts, type GivenAccounts } from '../given-accounts.ts';
import { runStep } from './step.ts';
import type { RunContext } from './run-context.ts';
import { closeAgentSockets } from '../agent/steps.ts';
import type { Scenario, Step } from './types.ts';

/** The names every scenario starts with: main, alt (when configured) and seed. */
export function newScope(ctx: RunContext, unitId: string): Scope {
  const scope = new Scope(new SeededRandom(ctx.seed ^ hashString(unitId)));
  scope.set('seed', ctx.seed);
  for (const [name, creds] of ctx.target.accounts) scope.set(name, { ...creds });
  if (!ctx.target.accounts.has('alt')) scope.set('alt', new Unavailable('no second account is configured (--alt-account and --alt-key, or accounts.alt in the target file)'));
  // Each unit gets its own URL on the kit's webhook receiver, so it never sees another's webhooks.
  const id = (hashString(`${ctx.seed}:${unitId}`) >>> 0).toString(36);
  scope.set('receiver', ctx.receiver ? { url: ctx.receiver.scopeUrl(id), id } : new Unavailable(lackReason(['receiver'])));
  return scope;
}

/**
 * A step, or a request step with `repeat` sent that many times. Every round is sent even after
 * one fails, so the traffic (and what later steps see) does not depend on a verdict; the first
 * round that does not pass stands for the step (named with its round), else the last. A skipped
 * round (a name not available) skips the rest. Times add up.
 */
async function runRepeated(ctx: RunContext, step: Step, i: number, scope: Scope, clauses: string[], requires: string[]): Promise<StepResult> {
  if (step.kind !== 'request' || !step.repeat) return runStep(ctx, step, i, scope, clauses, requires);
  const { times, as } = step.repeat;
  let ms = 0;
  let last: StepResult | undefined;
  let firstBad: { r: StepResult; round: number } | undefined;
  for (let round = 0; round < times; round++) {
    if (as) scope.set(as, round);
    last = await runStep(ctx, step, i, scope, clauses, requires);
    ms += last.ms;
    if (last.status !== 'passed' && !firstBad) firstBad = { r: last, round };
    if (last.status === 'skipped') break;
  }
  if (firstBad) return { ...firstBad.r, name: `${firstBad.r.name} (round ${firstBad.round + 1} of ${times})`, ms };
  return { ...last!, name: `${last!.name} (x${times})`, ms };
}

/** After a reset: the accounts the run was given are there again, or the reset step fails saying why. */
async function keepGivenAccounts(ctx: RunContext, given: GivenAccounts, r: StepResult): Promise<void> {
  const why = await remakeGivenAccounts(ctx, given).catch((e: Error) => `the accounts the run was given could not be made again after the reset: ${e.message}`);
  if (!why) return;
  r.assertions.push({ id: 'reset:given-accounts', level: 'spec', clauses: [], outcome: 'fail', message: ctx.secrets.redact(why) });
  r.status = 'failed';
}

/** Puts the state saved before a resetting scenario back, as a teardown step (a failure fails the scenario). */
async function putBack(ctx: RunContext, saved: SavedState, index: number): Promise<StepResult> {
  const started = performance.now();
  const base = { index, name: 'teardown: put back the state the scenario found', line: 0, teardown: true };
  try {
    await ctx.target.restoreState!(saved);
    return { ...base, status: 'passed', ms: performance.now() - started, assertions: [] };
  } catch (e) {
    const message = ctx.secrets.redact(`the target's state could not be put back after the reset: ${(e as Error).message}`);
    return { ...base, status: 'failed', ms: performance.now() - started, assertions: [{ id: 'teardown:restore-state', level: 'spec', clauses: [], outcome: 'fail', message }] };
  }
}

export type StepListener = (unit: string, step: UnitResult['steps'][number]) => void;

export async function runScenario(ctx: RunContext, scenario: Scenario, onStep?: StepListener): Promise<UnitResult> {
  const started = performance.now();
  const result: UnitResult = {
    kind: 'scenario',
    id: scenario.id,
    file: scenario.file,
    description: scenario.description,
    clauses: scenario.clauses,
    tags: scenario.tags,
    status: 'passed',
    ms: 0,
    seed: ctx.seed,
    steps: [],
  };
  // Where the target may not be written to, a scenario with read-only steps runs those instead;
  // the scenario's requirements are its writing steps', a read-only step names its own.
  const readingOnly = scenario.readOnly !== undefined && !ctx.capabilities.has('writes');
  const steps = readingOnly ? scenario.readOnly! : scenario.steps;
  const teardown = readingOnly ? [] : scenario.teardown;
  const requires = readingOnly ? [] : scenario.requires;
  const missing = requires.filter((c) => !ctx.capabilities.has(c));
  if (missing.length > 0) {
    return { ...result, status: 'skipped', skipReason: lackReason(missing) };
  }
  await ctx.target.isolate(ctx.seed);
  // A scenario that resets the whole target puts back what it found, so the accounts the run
  // was given (perhaps made through the control plane, which a reset forgets) keep working.
  let saved: SavedState | undefined;
  let given: GivenAccounts | undefined;
  if (requires.includes('reset')) {
    try {
      saved = await ctx.target.saveState!();
      given = await readGivenAccounts(ctx);
    } catch (e) {
      return { ...result, status: 'skipped', skipReason: `the scenario resets the target, and its state or the accounts the run was given could not be read to put back after: ${(e as Error).message}` };
    }
  }
  const scope = newScope(ctx, scenario.id);
  for (const [name, value] of Object.entries(scenario.vars)) {
    try {
      scope.set(name, scope.resolve(value));
    } catch (e) {
      if (!(e instanceof UnresolvedError)) throw e;
      scope.set(name, new Unavailable(e.message));
    }
  }
  let skippedAt: { index: number; reason: string } | undefined;
  try {
    for (const [i, step] of steps.entries()) {
      // Steps build on the state earlier steps made, so once one is skipped the rest are too
      // (unless the scenario says its steps stand alone).
      const r: StepResult = skippedAt
        ? skippedResult({ index: i, name: step.name ?? `step ${i + 1}`, line: step.line }, `step ${skippedAt.index + 1} was skipped (${skippedAt.reason})`)
        : await runRepeated(ctx, step, i, scope, scenario.clauses, requires);
      if (given && step.kind === 'control' && step.control.reset && r.status !== 'skipped') await keepGivenAccounts(ctx, given, r);
      if (!skippedAt && !scenario.independent && r.status === 'skipped') skippedAt = { index: i, reason: r.skipReason ?? 'skipped' };
      result.steps.push(r);
      onStep?.(scenario.id, r);
    }
  } finally {
    await closeAgentSockets(scope); // the agent sockets the scenario opened
    // What the scenario created goes away whatever happened, so the next scenario on a shared
    // target starts from the same state; each teardown step stands alone.
    for (const [j, step] of teardown.entries()) {
      const r = await runStep(ctx, step, steps.length + j, scope, scenario.clauses, requires);
      r.teardown = true;
      r.name = `teardown: ${r.name}`;
      result.steps.push(r);
      onStep?.(scenario.id, r);
    }
    if (saved) {
      const r = await putBack(ctx, saved, steps.length + teardown.length);
      result.steps.push(r);
      onStep?.(scenario.id, r);
    }
  }
  const verdict = unitVerdict(result.steps.filter((st) => !st.teardown));
  const teardownFailed = result.steps.some((st) => st.teardown && st.status === 'failed');
  result.status = teardownFailed ? 'failed' : verdict.status;
  if (!teardownFailed && verdict.skipReason) result.skipReason = verdict.skipReason;
  result.ms = performance.now() - started;
  return result;
}
