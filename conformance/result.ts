// What a run produces: per unit (a scenario or a property) its steps, and per step the
// assertions with their level and clauses. Reports and coverage are computed from this only.
import type { Level } from './scenario/types.ts';

/** `observation`: a `sim` assertion that failed against a target that is not the simulator. */
export type Outcome = 'pass' | 'fail' | 'observation';

export interface AssertionResult {
  /** What was asserted: expect.status, expect.body, check:<id>, probe:<id>, property:<id>, ... */
  id: string;
  level: Level;
  clauses: string[];
  outcome: Outcome;
  message?: string;
}

export interface StepResult {
  index: number;
  name: string;
  /** Line of the step in its scenario file. */
  line?: number;
  status: 'passed' | 'failed' | 'skipped';
  skipReason?: string;
  /** A teardown step (it undoes what the scenario created; it never makes a unit pass). */
  teardown?: boolean;
  /** Method and path as sent (secrets redacted). */
  request?: string;
  responseStatus?: number;
  /** The answer's body, kept only when the run records responses (`diff` compares them). */
  responseBody?: unknown;
  ms: number;
  assertions: AssertionResult[];
}

/** What every step result begins with: its place in the scenario, its name and its line. */
export type StepBase = Pick<StepResult, 'index' | 'name' | 'line'>;

/**
 * A step that did not run, and why. Written key by key: every skipped step of every kind takes
 * this one shape (conformance/merged.ts says why shapes matter to the runner's speed).
 */
export function skippedResult(base: StepBase, reason: string): StepResult {
  return { index: base.index, name: base.name, line: base.line, status: 'skipped', skipReason: reason, ms: 0, assertions: [] };
}

export interface UnitResult {
  kind: 'scenario' | 'property';
  id: string;
  file?: string;
  description: string;
  clauses: string[];
  tags: string[];
  status: 'passed' | 'failed' | 'skipped';
  skipReason?: string;
  ms: number;
  seed: number;
  steps: StepResult[];
  /** A property failure's shrunk, replayable scenario. */
  replayFile?: string;
  /** The command that replays it against the same target. */
  replayCommand?: string;
}

export interface RunSummary {
  units: { passed: number; failed: number; skipped: number };
  steps: { passed: number; failed: number; skipped: number };
  assertions: { spec: { pass: number; fail: number }; sim: { pass: number; fail: number; observation: number } };
  /** 0 only when no counted assertion failed (spec always; sim against the simulator). */
  exitCode: 0 | 1;
}

export interface RunReport {
  tool: 'conformance-kit';
  version: 1;
  target: { label: string; capabilities: string[]; simLevel: 'fail' | 'observe'; readOnly: boolean };
  seed: number;
  /** "i/n" when the run was one shard of n (`run --shard`); `merge` joins the shards' reports. */
  shard?: string;
  /** The shard reports a merged report was made from. */
  mergedFrom?: string[];
  startedAt: string;
  ms: number;
  units: UnitResult[];
  summary: RunSummary;
}

export function outcomeFor(level: Level, passed: boolean, simLevel: 'fail' | 'observe'): Outcome {
  if (passed) return 'pass';
  return level === 'sim' && simLevel === 'observe' ? 'observation' : 'fail';
}

export function stepStatus(assertions: readonly AssertionResult[]): 'passed' | 'failed' {
  return assertions.some((a) => a.outcome === 'fail') ? 'failed' : 'passed';
}

/**
 * The unit's own expectations (`expect`, `expectSim`, a property's verdict), not the checks and
 * probes every response gets, nor the 2xx a control step that only prepares state expects.
 */
export function isOwnAssertion(a: AssertionResult): boolean {
  return !/^(check|probe|webhook-check|setup):/.test(a.id);
}

/**
 * A unit passes only when an assertion of its own ran and passed: one that only skipped steps,
 * or whose expectations were all sim-level observations, asserted nothing and is `skipped`
 * with the reason, never passed.
 */
export function unitVerdict(steps: readonly StepResult[]): { status: 'passed' | 'failed' | 'skipped'; skipReason?: string } {
  if (steps.some((s) => s.status === 'failed')) return { status: 'failed' };
  const own = steps.flatMap((s) => s.assertions.filter(isOwnAssertion));
  if (own.some((a) => a.outcome === 'pass')) return { status: 'passed' };
  const skippedStep = steps.find((s) => s.status === 'skipped');
  if (skippedStep) return { status: 'skipped', skipReason: skippedStep.skipReason ?? 'skipped' };
  const observation = own.find((a) => a.outcome === 'observation');
  if (observation) return { status: 'skipped', skipReason: `only sim-level observations, nothing this target is held to (${observation.id}: ${observation.message ?? 'differs'})` };
  return { status: 'skipped', skipReason: 'no assertion ran' };
}

export function summarize(units: readonly UnitResult[]): RunSummary {
  const s: RunSummary = {
    units: { passed: 0, failed: 0, skipped: 0 },
    steps: { passed: 0, failed: 0, skipped: 0 },
    assertions: { spec: { pass: 0, fail: 0 }, sim: { pass: 0, fail: 0, observation: 0 } },
    exitCode: 0,
  };
  for (const u of units) {
    s.units[u.status]++;
    for (const st of u.steps) {
      s.steps[st.status]++;
      for (const a of st.assertions) {
        if (a.level === 'spec') s.assertions.spec[a.outcome === 'pass' ? 'pass' : 'fail']++;
        else s.assertions.sim[a.outcome]++;
        if (a.outcome === 'fail') s.exitCode = 1;
      }
    }
  }
  return s;
}

/** Every assertion of a run with the unit and step it belongs to. */
export function* allAssertions(units: readonly UnitResult[]): Generator<{ unit: UnitResult; step: StepResult; assertion: AssertionResult }> {
  for (const unit of units) for (const step of unit.steps) for (const assertion of step.assertions) yield { unit, step, assertion };
}
