// Runs one step: skip it when the target lacks what it needs, send it, then judge the answer:
// the step's expectations (level spec for `expect`, sim for `expectSim`), every check, and the
// probes that apply. Values named under `save` are kept for later steps.
import { readWav } from './wav.ts';
import { followRedirect } from './download.ts';
import { CHECKS, HEAD_CHECKS, PROBES } from '../checks/index.ts';
import { levelOf, type Exchange } from '../checks/types.ts';
import type { ContractOperation } from '../contract/contract.ts';
import { outcomeFor, skippedResult, stepStatus, type AssertionResult, type StepBase, type StepResult } from '../result.ts';
import { merged } from '../merged.ts';
import { lackReason, type WireRequest, type WireResponse } from '../target.ts';
import { Scope, selectFromResponse, Unavailable, UnresolvedError } from './interpolate.ts';
import { match, statusMatches, type Mismatch } from './matchers.ts';
import { buildApiRequest, controlCall, controlRequest, invalidKeyFor } from './request.ts';
import { missingOperation } from './missing-operation.ts';
import { noteAnswer, presenceNotShown } from './operation-presence.ts';
import type { Expectation, Level, Step } from './types.ts';
import type { RunContext } from './run-context.ts';
import { runReceiverStep, runWebhookStep } from './webhook-step.ts';
import { agentStepName, runAgentStep } from '../agent/step-runner.ts';


function headerMatches(expected: Record<string, unknown>, res: WireResponse): Mismatch[] {
  return Object.entries(expected).flatMap(([name, e]) => {
    const key = name.toLowerCase();
    return match(e, res.headers[key], `headers.${key}`, key in res.headers);
  });
}

function judge(e: Expectation | undefined, level: Level, res: WireResponse, clauses: string[], prefix: string, simLevel: 'fail' | 'observe'): AssertionResult[] {
  if (!e) return [];
  const out: AssertionResult[] = [];
  const add = (part: string, mismatches: Mismatch[]) =>
    out.push({
      id: `${prefix}.${part}`,
      level,
      clauses,
      outcome: outcomeFor(level, mismatches.length === 0, simLevel),
      message: mismatches.length ? mismatches.map((m) => `${m.path}: ${m.message}`).join('; ') : undefined,
    });
  if (e.status !== undefined) add('status', statusMatches(e.status, res.status));
  if (e.headers) add('headers', headerMatches(e.headers, res));
  if (e.body !== undefined) {
    add('body', res.json === undefined && res.text !== '' ? [{ path: 'body', message: `is not JSON: ${res.text.slice(0, 80)}` }] : match(e.body, res.json, 'body'));
  }
  if (e.wav !== undefined) {
    const facts = res.bytes ? readWav(res.bytes) : `the answer (${res.status}, ${res.headers['content-type'] ?? 'no content-type'}) has no binary body`;
    add('wav', typeof facts === 'string' ? [{ path: 'wav', message: facts }] : match(e.wav, facts, 'wav'));
  }
  return out;
}

function exchangeOf(ctx: RunContext, request: WireRequest, response: WireResponse): Exchange {
  const q = request.path.indexOf('?');
  const matched = ctx.contract.match(request.method, request.path);
  return {
    request,
    response,
    op: matched?.op,
    params: matched?.params ?? {},
    query: new URLSearchParams(q === -1 ? '' : request.path.slice(q + 1)),
    contract: ctx.contract,
    secrets: ctx.secrets,
  };
}

function runChecks(ctx: RunContext, ex: Exchange, prefix = 'check'): AssertionResult[] {
  const out: AssertionResult[] = [];
  for (const check of ex.request.method.toUpperCase() === 'HEAD' ? HEAD_CHECKS : CHECKS) {
    if (!check.applies(ex)) continue;
    const level = levelOf(check, ex);
    const message = check.run(ex);
    out.push({ id: `${prefix}:${check.id}`, level, clauses: check.clauses, outcome: outcomeFor(level, message === undefined, ctx.simLevel), message: message && ctx.secrets.redact(message) });
  }
  return out;
}

async function runProbes(ctx: RunContext, ex: Exchange, scope: Scope): Promise<AssertionResult[]> {
  const out: AssertionResult[] = [];
  const alt = scope.has('alt') ? (scope.get('alt') as { accountId: string; key: string }) : undefined;
  const probeContext = { alt, invalidKey: invalidKeyFor(scope) };
  for (const probe of PROBES) {
    // A probe made once per operation is looked up before it is planned: a plan copies the
    // request, and on most reads the probe is done already (plans have no effects; a probe
    // that plans needs the exchange's operation).
    const key = probe.onceKey && ex.op !== undefined ? `${probe.id}:${probe.onceKey(ex)}` : undefined;
    if (key && ctx.probesDone.has(key)) continue;
    const planned = probe.plan(ex, probeContext);
    if (!planned) continue;
    if (key) ctx.probesDone.add(key);
    let res: WireResponse;
    try {
      res = await ctx.target.send(planned.request);
    } catch (e) {
      out.push({ id: `probe:${probe.id}`, level: probe.level, clauses: probe.clauses, outcome: 'fail', message: `no answer: ${(e as Error).message}` });
      continue;
    }
    const probeEx = exchangeOf(ctx, planned.request, res);
    const message = probe.verdict(planned, res, probeEx);
    out.push({ id: `probe:${probe.id}`, level: probe.level, clauses: probe.clauses, outcome: outcomeFor(probe.level, message === undefined, ctx.simLevel), message });
    // The probe's answer is a response like any other: it must not be a 5xx, leak a key, ...
    out.push(...runChecks(ctx, probeEx, `probe:${probe.id}:check`).filter((a) => a.outcome !== 'pass'));
  }
  return out;
}

function stepName(step: Step): string {
  if (step.name) return step.name;
  if (step.kind === 'request') return step.request.operationId ?? `${step.request.method} ${step.request.path}`;
  if (step.kind === 'webhook') return `webhook: ${step.webhook.event ?? step.webhook.path ?? 'any'}`;
  if (step.kind === 'receiver') return `receiver: answer ${step.receiver.status}`;
  if (step.kind === 'agent') return agentStepName(step.agent);
  const c = step.control;
  const what = c.advance ? 'advance' : c.createAccount ? 'createAccount' : c.reset ? 'reset' : c.foreign ? 'foreign' : `${c.method} ${c.path}`;
  return `control: ${what}`;
}

function isEmpty(got: { found: boolean; value?: unknown }): boolean {
  return !got.found || got.value === null || got.value === undefined || (Array.isArray(got.value) && got.value.length === 0);
}

/** What a request or control step sends, and how its answer is judged. */
interface Planned {
  request: WireRequest;
  /** The level of a 2xx-only expectation of an API request: spec for operations the spec shows. */
  defaultLevel: Level;
  isControl: boolean;
  sentBody: unknown;
  requestOp: ContractOperation | undefined;
  expect: Expectation | undefined;
  expectSim: Expectation | undefined;
}

/** The steps that send a request of their own. */
type SentStep = Extract<Step, { kind: 'request' | 'control' }>;

/**
 * The request a step sends, or its result when it is skipped (an unresolved name, an operation the
 * target lacks, a capability it lacks). Apart from runStep so that the runner's optimised code
 * stays small: V8 compiled the whole step runner again on each change of what it saw (runStep
 * was about a tenth of a kit run's optimising-compiler time).
 */
function planStep(ctx: RunContext, step: SentStep, base: StepBase, scope: Scope, needs: string[]): Planned | StepResult {
  let request: WireRequest;
  let defaultLevel: Level = 'sim';
  let isControl = false;
  let sentBody: unknown;
  let requestOp: ContractOperation | undefined;
  let expect: Expectation | undefined;
  let expectSim: Expectation | undefined;
  try {
    expect = scope.resolve(step.expect);
    expectSim = scope.resolve(step.expectSim);
    if (step.kind === 'request') {
      const built = buildApiRequest(step.request, scope, ctx.contract);
      request = built.wire;
      sentBody = built.body;
      requestOp = built.op;
      if (built.op && ctx.contract.isUnsupported(built.op)) return skippedResult(base, `the target file marks ${built.op.operationId} unsupported`);
      const missing = built.op && ctx.missingOperations.get(built.op.operationId);
      if (missing) return skippedResult(base, `operation-missing: ${built.op!.operationId} is not at this target (${missing})`);
      if (built.op?.auth === 'control' || request.path.startsWith('/_sim')) isControl = true;
      if (request.method !== 'GET' && request.method !== 'HEAD') needs.push('writes');
      if (built.op?.origin === 'spec') defaultLevel = 'spec';
    } else {
      const call = controlCall(step.control, scope);
      needs.push('control', call.capability);
      if (call.method !== 'GET') needs.push('writes');
      request = controlRequest(call, ctx.target.controlToken);
      sentBody = call.body;
      isControl = true;
    }
  } catch (e) {
    if (e instanceof UnresolvedError) return skippedResult(base, `needs ${e.message}`);
    throw e;
  }
  const missing = [...new Set(needs)].filter((c) => !ctx.capabilities.has(c));
  if (missing.length > 0) return skippedResult(base, lackReason(missing));
  return { request, defaultLevel, isControl, sentBody, requestOp, expect, expectSim };
}

/** The step's own expectations judged on the answer (secrets redacted from their messages). */
function expectationResults(ctx: RunContext, step: SentStep, planned: Planned, res: WireResponse, clauses: string[]): AssertionResult[] {
  const { expect, expectSim, isControl, defaultLevel } = planned;
  const assertions: AssertionResult[] = [];
  const hasStatus = expect?.status !== undefined || expectSim?.status !== undefined;
  if (!hasStatus) {
    // A step without a status expectation expects success; for control steps and operations the
    // spec does not show, that is the simulator's promise rather than the spec's.
    const level = isControl ? 'sim' : defaultLevel;
    const ok = res.status >= 200 && res.status < 300;
    // A control step without expectations only prepares state, and a step that only finds data
    // (`found`) only finds it: their success is no verdict of the unit and covers no clause.
    const setup = step.kind === 'control' || step.found !== undefined;
    assertions.push({ id: setup ? 'setup:status' : 'expect.status', level, clauses: setup ? [] : clauses, outcome: outcomeFor(level, ok, ctx.simLevel), message: ok ? undefined : ctx.secrets.redact(`expected 2xx, got ${res.status}: ${res.text.slice(0, 2000)}`) });
  }
  assertions.push(...judge(expect, isControl ? 'sim' : 'spec', res, clauses, 'expect', ctx.simLevel));
  assertions.push(...judge(expectSim, 'sim', res, clauses, 'expectSim', ctx.simLevel));
  for (const a of assertions) if (a.message) a.message = ctx.secrets.redact(a.message);
  return assertions;
}

/** What later steps may use of the answer: values named under `save`, new secrets, a created account. */
function keepFromAnswer(ctx: RunContext, step: SentStep, index: number, name: string, scope: Scope, res: WireResponse, isControl: boolean): void {
  for (const [saved, path] of Object.entries(step.save ?? {})) {
    const got = selectFromResponse(res, path);
    scope.set(saved, got.found ? got.value : new Unavailable(`step ${index + 1} ("${name}") answered ${res.status} without ${path}`));
  }
  for (const secret of step.secrets ?? []) if (scope.has(secret)) ctx.secrets.add(String(scope.get(secret)));
  // Keys the control plane hands out (new accounts, new keys) are secrets from now on.
  if (isControl) ctx.secrets.addFromBody(res.json);
  if (step.kind === 'control' && step.control.createAccount && res.status < 300) {
    const created = res.json as { accountId?: string; apiKey?: string; numbers?: string[] };
    if (step.control.as) scope.set(step.control.as, { accountId: created?.accountId, key: created?.apiKey, numbers: created?.numbers ?? [] });
  } else if (step.kind === 'control' && step.control.as) {
    scope.set(step.control.as, new Unavailable(`the account "${step.control.as}" was not created (status ${res.status})`));
  }
}

/** The step a 404/405 shows to be an operation the target does not serve, or undefined. */
async function missingOperationResult(ctx: RunContext, base: StepBase, request: WireRequest, res: WireResponse, scope: Scope, shown: string): Promise<StepResult | undefined> {
  const op = ctx.contract.match(request.method, request.path)?.op;
  const why = op && !ctx.missingOperations.has(op.operationId) ? await missingOperation(ctx, op, request, res, scope) : undefined;
  if (!op || !why) return undefined;
  const fix = `map it in the target file (operations: { ${op.operationId}: { path: "/the/path/it/has" } }) or mark it unsupported (operations: { ${op.operationId}: { unsupported: true } })`;
  const message = `operation ${op.operationId} (${op.method} ${ctx.contract.pathOf(op)}) is not at this target: ${why}. Fix: ${fix}`;
  ctx.missingOperations.set(op.operationId, why);
  const level: Level = op.origin === 'spec' ? 'spec' : 'sim';
  const missingAssertion: AssertionResult = { id: 'operation-missing', level, clauses: [], outcome: outcomeFor(level, false, ctx.simLevel), message: ctx.secrets.redact(message) };
  return merged(base, { request: shown, responseStatus: res.status, ms: res.ms, status: stepStatus([missingAssertion]), assertions: [missingAssertion] });
}

/** Runs one step of a scenario (or of a property's generated scenario). */
export async function runStep(ctx: RunContext, step: Step, index: number, scope: Scope, scenarioClauses: string[], inherited: string[]): Promise<StepResult> {
  const base = { index, name: stepName(step), line: step.line };
  const clauses = step.clauses ?? scenarioClauses;
  const unknown = ctx.knownClause ? clauses.filter((c) => !ctx.knownClause!(c)) : [];
  if (unknown.length) throw new Error(`step "${base.name}" names clauses the catalogue lacks: ${unknown.join(', ')}`);
  const needs = [...inherited, ...(step.requires ?? [])];
  if (step.kind === 'webhook') return runWebhookStep(ctx, step, base, scope, clauses, needs);
  if (step.kind === 'receiver') return runReceiverStep(ctx, step, base, scope, needs);
  if (step.kind === 'agent') return runAgentStep(ctx, step, base, scope, clauses, needs);

  const planned = planStep(ctx, step, base, scope, needs);
  if (!('isControl' in planned)) return planned;
  const { request, isControl, expect, expectSim } = planned;

  ctx.secrets.addFromBody(planned.sentBody);
  const shown = ctx.secrets.redact(`${request.method} ${request.path}`);
  let res: WireResponse;
  try {
    res = await ctx.target.send(request);
    // A download may redirect (recordings); the WAV is judged where it lands.
    if (expect?.wav !== undefined || expectSim?.wav !== undefined) res = await followRedirect(ctx.target, request, res);
  } catch (e) {
    const message = ctx.secrets.redact(`no answer: ${(e as Error).message}`);
    return merged(base, { request: shown, status: 'failed' as const, ms: 0, assertions: [{ id: 'transport', level: 'spec' as const, clauses, outcome: 'fail' as const, message }] });
  }

  // Data the step was to read is not on the target: nothing to judge (an $each over nothing asserts nothing).
  if (step.found && res.status >= 200 && res.status < 300 && isEmpty(selectFromResponse(res, step.found))) {
    return merged(skippedResult(base, `no data on the target to read: ${shown} answered ${res.status} with nothing at ${step.found}`), { request: shown, responseStatus: res.status });
  }

  const assertions = expectationResults(ctx, step, planned, res, clauses);

  // What an operation answers may show that the target serves it; a 404/405 that the step
  // wanted shows nothing of the kind, so its passing expectations count only once that is shown.
  const answered = step.kind === 'request' && !isControl ? (planned.requestOp ?? ctx.contract.match(request.method === 'HEAD' ? 'GET' : request.method, request.path)?.op) : undefined;
  noteAnswer(ctx, answered, res.status);
  if (answered && (res.status === 404 || res.status === 405) && assertions.some((a) => a.outcome === 'pass')) {
    const why = await presenceNotShown(ctx, answered, request, res, scope);
    if (why) return merged(skippedResult(base, why), { request: shown, responseStatus: res.status });
  }

  // A 404/405 where another status was expected may mean the target does not serve the
  // operation at all: say that once, rather than blaming auth or validation on every step.
  const statusFailed = assertions.some((a) => a.id.endsWith('.status') && a.outcome !== 'pass');
  if (step.kind === 'request' && statusFailed && !isControl) {
    const missing = await missingOperationResult(ctx, base, request, res, scope, shown);
    if (missing) return missing;
  }

  if (!isControl) {
    const ex = exchangeOf(ctx, request, res);
    assertions.push(...runChecks(ctx, ex));
    assertions.push(...(await runProbes(ctx, ex, scope)));
  }

  keepFromAnswer(ctx, step, index, base.name, scope, res, isControl);

  const recorded = ctx.recordResponses && !isControl ? { responseBody: ctx.secrets.redactValue(res.json ?? (res.text ? res.text.slice(0, 2000) : undefined)) } : {};
  // Key by key (the keys of base, then the rest): the result of every step sent takes this shape.
  return { index: base.index, name: base.name, line: base.line, request: shown, responseStatus: res.status, ...recorded, ms: res.ms, status: stepStatus(assertions), assertions };
}
