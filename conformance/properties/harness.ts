// Runs a fast-check property whose cases are small generated scenarios. Each case drives steps
// through the scenario step runner (so every check and probe applies), and the steps of the
// last failing case (fast-check's shrunk counterexample: shrinking only ever moves to a failing
// case) are written out as a YAML scenario that replays the failure.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { stringify } from 'yaml';
import type { AssertionResult, StepResult, UnitResult } from '../result.ts';
import { outcomeFor } from '../result.ts';
import { stepFromRaw } from '../scenario/load.ts';
import { hashString } from '../scenario/interpolate.ts';
import { newScope } from '../scenario/run.ts';
import { runStep } from '../scenario/step.ts';
import type { RunContext } from '../scenario/run-context.ts';
import { lackReason } from '../target.ts';
import type { Level } from '../scenario/types.ts';
import type { PropertyDef, PropertyRunOptions } from './types.ts';

/** A step as written in a scenario file. */
export type RawStep = Record<string, unknown>;

/** Runs one generated step and returns its result (the case fails if any assertion of it fails). */
export type Exec = (step: RawStep) => Promise<StepResult>;

export interface CaseContext {
  exec: Exec;
  /** Fresh, distinct mobile numbers for this case (domestic notation). */
  number(slot: number): string;
  /** Whether the target has a capability (e.g. `accounts` to work in a fresh account). */
  can(capability: string): boolean;
  /** The last saved value of a name. */
  saved(name: string): unknown;
  /** Sets a name for later steps; it becomes one of the replay scenario's `vars`. */
  set(name: string, value: unknown): void;
  /** Says this case could not reach its verdict (it proves nothing either way); returns undefined for `return c.inconclusive(...)`. */
  inconclusive(reason: string): undefined;
  /** A step that undoes what the case made (a carrier script): run after the case whatever happened, as a scenario's teardown. */
  afterCase(step: RawStep): void;
}

export interface GeneratedPropertySpec<T> {
  id: string;
  description: string;
  clauses: string[];
  tags: string[];
  requires: string[];
  /** The level of the property's own cross-step verdict. */
  level: Level;
  numRuns: number;
  arbitrary: fc.Arbitrary<T>;
  /**
   * Which failed assertions fail a case. Default: the generated steps' own expectations. Checks
   * and probes on property steps are left to the scenarios (they see the same responses), except
   * where a property exists for them (the fuzz counts the body and status checks).
   */
  counts?: (assertion: AssertionResult) => boolean;
  /** Where the target may not be written to: the capabilities the property needs then (default: `requires`, which names `writes`). */
  readOnlyRequires?: string[];
  /** Drives one case; returns a message when a fact across steps does not hold. */
  drive(value: T, c: CaseContext): Promise<string | undefined>;
  /**
   * The body of a fresh account the property works in, as its `main`, when the target can make
   * one (`accounts`, `writes`): what its cases create stays out of the accounts the run was given.
   */
  ownAccount?: Record<string, unknown>;
}

interface CaseRecord {
  vars: Record<string, unknown>;
  steps: RawStep[];
  teardown: RawStep[];
  results: StepResult[];
  verdict?: string;
  /** Why the case proved nothing, when it did not reach its verdict. */
  inconclusive?: string;
}

/**
 * Why a case that did not fail still proves nothing: a step was skipped (an operation marked
 * unsupported, a missing capability), a counted expectation was only a sim-level observation,
 * or no counted assertion ran at all (e.g. the target never answered).
 */
function whyInconclusive(record: CaseRecord, counts: (a: AssertionResult) => boolean): string | undefined {
  if (record.inconclusive) return record.inconclusive;
  const skipped = record.results.find((r) => r.status === 'skipped');
  if (skipped) return `step "${skipped.name}" was skipped: ${skipped.skipReason ?? 'skipped'}`;
  const counted = record.results.flatMap((r) => r.assertions.filter(counts));
  const observation = counted.find((a) => a.outcome === 'observation');
  if (observation) return `only a sim-level observation where the verdict needs an answer this target is held to (${observation.id}: ${observation.message ?? 'differs'})`;
  if (!counted.some((a) => a.outcome === 'pass')) return 'no assertion of the property ran';
  return undefined;
}

const MAX_FAILURE_LINES = 6;

/** Where a generated step puts expectations of a given level. */
export function expectKey(level: Level): 'expect' | 'expectSim' {
  return level === 'spec' ? 'expect' : 'expectSim';
}

function failuresOf(results: readonly StepResult[]): string[] {
  return results.flatMap((r) => r.assertions.filter((a) => a.outcome === 'fail').map((a) => `step ${r.index + 1} "${r.name}": ${a.id}: ${a.message ?? ''}`));
}

/** The command that replays a scenario file against the same target (credentials come from the same CONFORMANCE_* variables or target file). */
export function replayCommand(file: string, seed: number, replayArgs = '', program = 'npm run conformance --'): string {
  return `${program} run ${file} --seed ${seed}${replayArgs ? ` ${replayArgs}` : ''}`;
}

export function replayYaml(spec: { id: string; description: string; clauses: string[]; requires: string[] }, seed: number, record: CaseRecord, counterexample: string, replayArgs = '', program?: string): string {
  const header = [
    `# Shrunk counterexample of property "${spec.id}" (seed ${seed}), written by the conformance kit.`,
    `# Replay: ${replayCommand('<this file>', seed, replayArgs, program)}`,
    `# Counterexample: ${counterexample.replace(/\n/g, ' ')}`,
    ...(record.verdict ? [`# Property verdict: ${record.verdict.replace(/\n/g, ' ')}`] : []),
    ...failuresOf(record.results).slice(0, MAX_FAILURE_LINES).map((f) => `# Failed: ${f.replace(/\n/g, ' ')}`),
  ];
  const doc = { description: `Replay of property ${spec.id}: ${spec.description}`, clauses: spec.clauses, tags: ['replay'], requires: spec.requires, ...(Object.keys(record.vars).length ? { vars: record.vars } : {}), steps: record.steps, ...(record.teardown.length ? { teardown: record.teardown } : {}) };
  return `${header.join('\n')}\n${stringify(doc, { lineWidth: 0 })}`;
}

/** The fresh account a property with `ownAccount` works in, made once per run; undefined where the target cannot make one. */
async function homeAccount<T>(ctx: RunContext, spec: GeneratedPropertySpec<T>): Promise<{ account: Record<string, unknown> } | { failed: StepResult } | undefined> {
  if (!spec.ownAccount || !ctx.capabilities.has('accounts') || !ctx.capabilities.has('writes')) return undefined;
  const scope = newScope(ctx, `${spec.id}#account`);
  const step = stepFromRaw({ name: 'the property\'s own account', control: { createAccount: spec.ownAccount, as: 'home' } }, '/steps/0', 0);
  const made = await runStep(ctx, step, 0, scope, spec.clauses, []);
  if (made.status !== 'passed') return { failed: made };
  return { account: scope.get('home') as Record<string, unknown> };
}

/** A case's record as a replay runs it: the property's own account first, as `main`. */
function withHome(record: CaseRecord, body: Record<string, unknown>): CaseRecord {
  return { ...record, steps: [{ name: 'the property\'s own account', control: { createAccount: body, as: 'main' } }, ...record.steps] };
}

/** A PropertyDef from a generated-scenario property. */
export function generatedProperty<T>(spec: GeneratedPropertySpec<T>): PropertyDef {
  return {
    id: spec.id,
    description: spec.description,
    clauses: spec.clauses,
    tags: spec.tags,
    requires: spec.requires,
    async run(ctx: RunContext, opts: PropertyRunOptions): Promise<UnitResult> {
      const started = performance.now();
      const unit: UnitResult = { kind: 'property', id: spec.id, description: spec.description, clauses: spec.clauses, tags: spec.tags, status: 'passed', ms: 0, seed: ctx.seed, steps: [] };
      const needs = !ctx.capabilities.has('writes') && spec.readOnlyRequires ? spec.readOnlyRequires : spec.requires;
      const missing = needs.filter((c) => !ctx.capabilities.has(c));
      if (missing.length > 0) return { ...unit, status: 'skipped', skipReason: lackReason(missing) };

      await ctx.target.isolate(ctx.seed);
      const home = await homeAccount(ctx, spec);
      if (home && 'failed' in home) return { ...unit, status: 'failed', steps: [home.failed], ms: performance.now() - started };
      const own = spec.counts ?? ((a: AssertionResult) => a.id.startsWith('expect'));
      // A request that got no answer at all fails the case whatever the property counts.
      const counts = (a: AssertionResult) => a.id === 'transport' || own(a);
      let caseIndex = 0;
      let lastFailure: CaseRecord | undefined;
      let earned = 0;
      let firstInconclusive: string | undefined;
      // Each property draws its numbers from its own region, so properties never meet each
      // other's rows on a target that keeps state between them.
      const base = (hashString(`${ctx.seed}:${spec.id}`) >>> 0) % 9_000_000;
      const predicate = async (value: T): Promise<boolean> => {
        caseIndex++;
        const record: CaseRecord = { vars: {}, steps: [], teardown: [], results: [] };
        const scope = newScope(ctx, `${spec.id}#${caseIndex}`);
        if (home) scope.set('main', { ...home.account });
        const c: CaseContext = {
          exec: async (raw) => {
            record.steps.push(raw);
            const step = stepFromRaw(raw, `/steps/${record.steps.length - 1}`, 0);
            const r = await runStep(ctx, step, record.results.length, scope, spec.clauses, []);
            record.results.push(r);
            return r;
          },
          // 0109 + 7 digits: distinct per case and slot, so cases never see each other's entries.
          number: (slot) => `0109${String((base + caseIndex * 64 + slot) % 10_000_000).padStart(7, '0')}`,
          can: (cap) => ctx.capabilities.has(cap),
          saved: (name) => (scope.has(name) ? scope.get(name) : undefined),
          set: (name, value) => {
            record.vars[name] = value;
            scope.set(name, value);
          },
          inconclusive: (reason) => {
            record.inconclusive ??= reason;
            return undefined;
          },
          afterCase: (raw) => void record.teardown.push(raw),
        };
        try {
          record.verdict = await spec.drive(value, c);
        } catch (e) {
          record.verdict = (e as Error).message;
        } finally {
          // What the case made goes away, so the target is left as the case found it.
          for (const [i, raw] of record.teardown.entries()) {
            const r = await runStep(ctx, stepFromRaw(raw, `/teardown/${i}`, 0), record.results.length, scope, spec.clauses, []);
            // As for any step of the case, only what the property counts fails it (checks are the scenarios' job).
            if (r.assertions.some((x) => x.outcome === 'fail' && counts(x))) record.verdict ??= `teardown "${r.name}" failed: ${failuresOf([r])[0] ?? 'failed'}`;
          }
        }
        const failed = record.verdict !== undefined || record.results.some((r) => r.assertions.some((a) => a.outcome === 'fail' && counts(a)));
        if (failed) lastFailure = record;
        else {
          const why = whyInconclusive(record, counts);
          if (why === undefined) earned++;
          else firstInconclusive ??= why;
        }
        return !failed;
      };

      const details = await fc.check(fc.asyncProperty(spec.arbitrary, predicate), { seed: ctx.seed, numRuns: spec.numRuns });
      const summary: AssertionResult = { id: `property:${spec.id}`, level: spec.level, clauses: spec.clauses, outcome: 'pass' };
      if (details.failed && lastFailure) {
        // A failed step expectation already names its clauses; the property's own clauses fail
        // only when its verdict across steps fails.
        const stepFailed = lastFailure.results.some((r) => r.assertions.some((a) => a.outcome === 'fail' && counts(a)));
        if (stepFailed) summary.clauses = [];
        const counterexample = fc.stringify(details.counterexample);
        const file = path.join(opts.replayDir ?? 'reports/replay', `${spec.id}-seed${ctx.seed}.yaml`);
        mkdirSync(path.dirname(file), { recursive: true });
        writeFileSync(file, ctx.secrets.redact(replayYaml(spec, ctx.seed, home ? withHome(lastFailure, spec.ownAccount!) : lastFailure, counterexample, opts.replayArgs, opts.program)));
        unit.replayFile = file;
        unit.replayCommand = replayCommand(file, ctx.seed, opts.replayArgs, opts.program);
        const why = lastFailure.verdict ?? failuresOf(lastFailure.results)[0] ?? 'failed';
        summary.outcome = outcomeFor(spec.level, false, ctx.simLevel);
        summary.message = ctx.secrets.redact(`failed after ${details.numRuns} case(s), seed ${ctx.seed}, path ${details.counterexamplePath}; shrunk counterexample ${counterexample}: ${why}`);
        unit.steps = lastFailure.results;
        if (summary.outcome === 'fail' || lastFailure.results.some((r) => r.status === 'failed')) unit.status = 'failed';
      } else if (details.failed) {
        summary.outcome = 'fail';
        summary.message = `fast-check failed without a recorded case: ${details.errorInstance ? String(details.errorInstance) : 'unknown'}`;
        unit.status = 'failed';
      } else if (earned === 0) {
        // Every case stopped before its verdict: the property asserted nothing, so it claims nothing.
        unit.ms = performance.now() - started;
        return { ...unit, status: 'skipped', skipReason: ctx.secrets.redact(`none of ${details.numRuns} generated case(s) reached the verdict: ${firstInconclusive ?? 'no case ran'}`) };
      }
      unit.steps.push({ index: unit.steps.length, name: `${details.numRuns} generated case(s)`, status: summary.outcome === 'fail' ? 'failed' : 'passed', ms: 0, assertions: [summary] });
      unit.ms = performance.now() - started;
      return unit;
    },
  };
}
