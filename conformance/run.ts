// A whole run: probe the target's capabilities, pick the units (scenarios and properties) the
// filters select, run them in order, and summarise. The CLI and the test suite both call this.
import { matchesPattern, type ClauseCatalogue } from './clauses.ts';
import type { Contract } from './contract/contract.ts';
import type { PropertyDef } from './properties/types.ts';
import { summarize, type RunReport, type StepResult, type UnitResult } from './result.ts';
import { runScenario } from './scenario/run.ts';
import type { RunContext } from './scenario/run-context.ts';
import type { Scenario } from './scenario/types.ts';
import { SecretSet } from './secrets.ts';
import { probeCapabilities, type Target } from './target.ts';
import { WebhookReceiver } from './webhook-receiver.ts';
import { guardedTarget } from './target-guard.ts';
import { besideRefusal, runUnitsInOrder, type LaneJob } from './unit-lanes.ts';

export interface ProgressListener {
  start?(info: { target: string; capabilities: string[]; units: number; seed: number; receiver?: { publicUrl: string; localUrl: string } }): void;
  step?(unit: string, step: StepResult): void;
  unit?(result: UnitResult): void;
}

export interface RunOptions {
  target: Target;
  contract: Contract;
  scenarios: readonly Scenario[];
  properties?: readonly PropertyDef[];
  seed: number;
  readOnly?: boolean;
  /** Default: `fail` for the in-process simulator, `observe` for any other target. */
  simLevel?: 'fail' | 'observe';
  bail?: boolean;
  /** Clause ids or prefixes ending in `*`; a unit runs when one of its clauses matches. */
  clauseFilter?: readonly string[];
  tagFilter?: readonly string[];
  /** Capabilities to assume beyond what the target reports (from a target file). */
  extraCapabilities?: readonly string[];
  /** Whether scenarios that reset the whole target may run (capability `reset`; default: only on the in-process simulator). */
  allowReset?: boolean;
  /** The clause catalogue: every clause a step names must be in it. */
  clauses?: ClauseCatalogue;
  /** Where properties write the shrunk scenario of a failure. */
  replayDir?: string;
  /** Options that point a replay at the same target (the CLI passes its --target or --target-file). */
  replayArgs?: string;
  /** The command that runs the kit, as the user typed it (`npx platform-conformance`), for replay commands. */
  program?: string;
  progress?: ProgressListener;
  webhooks?: WebhookOptions;
  /** Keep every API answer's body in the step results (for `diff`). */
  recordResponses?: boolean;
  /** Run only shard `index` (1-based) of `count`: the selected units dealt round-robin in their order. */
  shard?: { index: number; count: number };
  /**
   * When the run began, as a `performance.now()` reading (default: when runConformance is
   * called). The CLI passes its own start, so the reported duration is the command's wall time,
   * loading included.
   */
  startedAt?: number;
  /**
   * How many units may run beside the main sequence at once (conformance/unit-lanes.ts), where
   * the target has lanes; 0 (the default) runs every unit in order, one at a time. The CLI gives
   * DEFAULT_LANES for the in-process simulator and the target file's `lanes` elsewhere.
   */
  lanes?: number;
}

/** Lanes of the in-process simulator: its Agent SDK scenarios wait about 5 s in all on real media pacing, less than the rest takes. */
export const DEFAULT_LANES = 1;

/** The units of shard `index` of `count`: every count-th of the selected units, so shards are disjoint, cover all, and balance. */
export function inShard<T>(units: readonly T[], shard: { index: number; count: number } | undefined): T[] {
  if (!shard) return [...units];
  return units.filter((_, i) => i % shard.count === shard.index - 1);
}

/** The kit's webhook receiver, started for runs whose scenarios need it (capability `receiver`). */
export interface WebhookOptions {
  /** Where it listens: default 127.0.0.1, any free port. */
  listen?: { host?: string; port?: number };
  /** The URL the target reaches it at; without it only a target on this machine can. */
  publicUrl?: string;
  /** Signing keys by account name (main, alt) for a target without the webhooks control plane. */
  signingKeys?: Map<string, string>;
  /** Wall-clock wait for deliveries after a virtual advance, when the target cannot say they settled (default 2000). */
  graceMs?: number;
  /** A receiver already started (the kit's tests put a wrong sender in front of it); the run leaves it open. */
  receiver?: WebhookReceiver;
}

/** The in-process simulator, or a URL on this machine: the receiver's own address reaches it. */
export function isLocalTarget(label: string): boolean {
  if (label === 'sim') return true;
  try {
    const host = new URL(label).hostname.replace(/^\[|\]$/g, '');
    return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
  } catch {
    return false;
  }
}

function stepClauses(s: Scenario): string[] {
  return [...s.clauses, ...s.steps.flatMap((st) => st.clauses ?? [])];
}

function selected(clauses: string[], tags: string[], opts: RunOptions): boolean {
  if (opts.clauseFilter?.length && !clauses.some((c) => matchesPattern(c, opts.clauseFilter!))) return false;
  if (opts.tagFilter?.length && !tags.some((t) => opts.tagFilter!.includes(t))) return false;
  return true;
}

/**
 * The context of a lane: its own target, and what the lane's own units learnt (probes done,
 * operations found missing or served, webhooks checked), never what units running at the same
 * time did, so what a unit asserts never depends on which unit got somewhere first.
 */
function laneContext(ctx: RunContext, target: Target): RunContext {
  return { ...ctx, target, probesDone: new Set(), missingOperations: new Map(), operationPresence: new Map(), webhooksChecked: new Set() };
}

export async function runConformance(options: RunOptions): Promise<RunReport> {
  const opts = { ...options, target: guardedTarget(options.target) };
  const started = opts.startedAt ?? performance.now();
  const startedAt = new Date(performance.timeOrigin + started).toISOString();
  const capabilities = await probeCapabilities(opts.target, { readOnly: Boolean(opts.readOnly), extra: [...(opts.extraCapabilities ?? [])] });
  const simLevel = opts.simLevel ?? (opts.target.label === 'sim' ? 'fail' : 'observe');
  // A reset wipes what the run was given; the kit allows one only where it can put the state back.
  if ((opts.allowReset ?? opts.target.label === 'sim') && capabilities.has('state') && opts.target.saveState && opts.target.restoreState) capabilities.add('reset');
  const secrets = new SecretSet();
  for (const creds of opts.target.accounts.values()) secrets.add(creds.key);
  secrets.add(opts.target.controlToken);
  for (const key of opts.webhooks?.signingKeys?.values() ?? []) secrets.add(key);
  const ctx: RunContext = {
    target: opts.target,
    contract: opts.contract,
    capabilities,
    simLevel,
    secrets,
    probesDone: new Set(),
    missingOperations: new Map(),
    operationPresence: new Map(),
    seed: opts.seed,
    knownClause: opts.clauses && ((id) => opts.clauses!.has(id)),
    webhooksChecked: new Set(),
    signingKeys: opts.webhooks?.signingKeys,
    webhookGraceMs: opts.webhooks?.graceMs,
    recordResponses: opts.recordResponses,
  };

  // Scenarios and properties are dealt to shards as one sequence, in run order.
  const chosen: (Scenario | PropertyDef)[] = inShard([...opts.scenarios.filter((s) => selected(stepClauses(s), s.tags, opts)), ...(opts.properties ?? []).filter((p) => selected(p.clauses, p.tags, opts))], opts.shard);
  const scenarios = chosen.filter((u): u is Scenario => 'steps' in u);
  const properties = chosen.filter((u): u is PropertyDef => !('steps' in u));

  // The receiver is there for a target that can reach it (capability `receiver`); it runs only
  // when a scenario that will run needs it.
  let receiver = opts.webhooks?.receiver;
  const reachable = Boolean(receiver) || isLocalTarget(opts.target.label) || Boolean(opts.webhooks?.publicUrl);
  const needs = (requires: readonly string[]) => requires.includes('receiver') && requires.every((c) => c === 'receiver' || capabilities.has(c));
  const wanted = scenarios.some((s) => needs(s.requires)) || properties.some((p) => needs(p.requires));
  const owned = !receiver && reachable && wanted;
  if (owned) receiver = await WebhookReceiver.start({ ...opts.webhooks?.listen, publicUrl: opts.webhooks?.publicUrl });
  if (reachable) capabilities.add('receiver');
  ctx.receiver = receiver;
  const units: UnitResult[] = [];
  try {
    const shown = receiver && { publicUrl: receiver.publicUrl, localUrl: receiver.localUrl };
    opts.progress?.start?.({ target: opts.target.label, capabilities: [...capabilities].sort(), units: scenarios.length + properties.length, seed: opts.seed, receiver: shown });
    const lanes = opts.target.lanes ? (opts.lanes ?? 0) : 0;
    const laneContexts: Promise<RunContext>[] = [];
    // Steps reach the listener with their unit, in catalogue order, when units run beside each other.
    const heldSteps = new Map<string, StepResult[]>();
    const onStep = opts.progress?.step && (lanes > 0 ? (unit: string, r: StepResult) => void heldSteps.set(unit, [...(heldSteps.get(unit) ?? []), r]) : opts.progress.step.bind(opts.progress));
    const stops = (u: UnitResult) => Boolean(opts.bail) && u.status === 'failed';
    try {
      const jobs: LaneJob<UnitResult>[] = [
        ...scenarios.map((s) => ({
          beside: lanes > 0 && besideRefusal(s, opts.target.lanes!.shared) === undefined,
          run: async (lane: number | undefined) => runScenario(lane === undefined ? ctx : await (laneContexts[lane] ??= opts.target.lanes!.open().then((t) => laneContext(ctx, t))), s, onStep),
        })),
        ...properties.map((p) => ({ beside: false, run: () => p.run(ctx, { replayDir: opts.replayDir, replayArgs: opts.replayArgs, program: opts.program }) })),
      ];
      await runUnitsInOrder(jobs, {
        lanes,
        stops,
        emit: (u) => {
          for (const r of heldSteps.get(u.id) ?? []) opts.progress?.step?.(u.id, r);
          units.push(u);
          opts.progress?.unit?.(u);
          return stops(u);
        },
      });
    } finally {
      await Promise.all(laneContexts.map(async (c) => (await c).target.close()));
    }
  } finally {
    if (owned) await receiver!.close();
  }

  const report: RunReport = {
    tool: 'conformance-kit',
    version: 1,
    target: { label: opts.target.label, capabilities: [...capabilities].sort(), simLevel, readOnly: Boolean(opts.readOnly) },
    ...(opts.shard ? { shard: `${opts.shard.index}/${opts.shard.count}` } : {}),
    seed: opts.seed,
    startedAt,
    ms: 0,
    units,
    summary: summarize(units),
  };
  const redacted = secrets.redactValue(report);
  // The duration is the run's wall time up to a finished report: nothing left to do after it.
  redacted.ms = performance.now() - started;
  return redacted;
}
