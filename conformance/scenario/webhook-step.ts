// Steps on the kit's webhook receiver (docs/scenario-format.md "Webhooks"):
// - `webhook` waits for the webhooks this scenario's receiver URL got, selected by event, path,
//   fields and the receiver's own answer, within a bound in virtual time (the kit advances the
//   target's clock) or wall-clock time; then asserts how many arrived and what each carries, and
//   runs the webhook checks (form encoding, X-Signature, the callflow.ended field table) on each.
// - `receiver` scripts the receiver's answers for this scenario (non-2xx for the next N requests).
import { checkWebhook, type ReceivedWebhook } from '../checks/webhooks.ts';
import { outcomeFor, skippedResult, stepStatus, type AssertionResult, type StepBase, type StepResult } from '../result.ts';
import { merged } from '../merged.ts';
import type { WebhookReceiver } from '../webhook-receiver.ts';
import { Scope, Unavailable, UnresolvedError } from './interpolate.ts';
import { lackReason } from '../target.ts';
import { match, show, statusMatches, type Mismatch } from './matchers.ts';
import { controlRequest } from './request.ts';
import type { RunContext } from './run-context.ts';
import type { Level, ReceiverStep, WebhookExpectation, WebhookSpec, WebhookStep } from './types.ts';

/** Wall-clock wait after a virtual advance, for targets that cannot say when deliveries settled. */
export const DEFAULT_WEBHOOK_GRACE_MS = 2000;

/** The value of `{{ receiver }}` in a scenario: its own base URL on the kit's receiver. */
export interface ReceiverName {
  url: string;
  id: string;
}

function receiverOf(ctx: RunContext, scope: Scope): { receiver: WebhookReceiver; id: string } {
  const name = scope.get('receiver');
  if (!ctx.receiver || !name || name instanceof Unavailable) throw new UnresolvedError('receiver', name instanceof Unavailable ? name.reason : 'the run has no webhook receiver');
  return { receiver: ctx.receiver, id: (name as ReceiverName).id };
}

/** Why a webhook is not selected by the step (empty when it is). */
function selectionMismatches(w: ReceivedWebhook, spec: WebhookSpec): Mismatch[] {
  const out: Mismatch[] = [];
  if (spec.event !== undefined && w.event !== spec.event && w.fields.Event !== spec.event) out.push({ path: 'event', message: `is ${w.event ?? '(unknown)'}, expected ${spec.event}` });
  if (spec.path !== undefined) {
    if (typeof spec.path === 'string') {
      if (w.route !== spec.path) out.push({ path: 'path', message: `is ${w.route}, expected ${spec.path}` });
    } else out.push(...match(spec.path, w.route, 'path'));
  }
  if (spec.fields !== undefined) out.push(...match(spec.fields, w.fields, 'fields'));
  if (spec.answered !== undefined) out.push(...statusMatches(spec.answered, w.answered).map((m) => ({ ...m, path: 'answered' })));
  return out;
}

function describeSelection(spec: WebhookSpec): string {
  const parts = [spec.event ?? 'any event'];
  if (spec.path !== undefined) parts.push(`at ${show(spec.path)}`);
  if (spec.fields !== undefined) parts.push(`with ${show(spec.fields)}`);
  if (spec.answered !== undefined) parts.push(`answered ${show(spec.answered)}`);
  return parts.join(' ');
}

function closest(all: ReceivedWebhook[], spec: WebhookSpec): string {
  if (all.length === 0) return 'the receiver got nothing for this scenario';
  const near = all.filter((w) => spec.event === undefined || w.event === spec.event || w.fields.Event === spec.event);
  const shown = (near.length ? near : all).slice(-3).map((w) => `${w.method} ${w.route}: ${selectionMismatches(w, spec).map((m) => `${m.path} ${m.message}`).join('; ')}`);
  return `${all.length} received for this scenario; closest: ${shown.join(' | ')}`;
}

function headerMismatches(expected: Record<string, unknown>, w: ReceivedWebhook, at: string): Mismatch[] {
  return Object.entries(expected).flatMap(([name, e]) => {
    const key = name.toLowerCase();
    return match(e, w.headers[key], `${at}.headers.${key}`, key in w.headers);
  });
}

/** Reads a saved path from a webhook: fields(.Name), headers.name, body, path, method, count. */
function selectFromWebhook(w: ReceivedWebhook | undefined, count: number, path: string): { found: boolean; value?: unknown } {
  if (path === 'count') return { found: true, value: count };
  if (!w) return { found: false };
  if (path === 'fields') return { found: true, value: { ...w.fields } };
  if (path.startsWith('fields.')) {
    const name = path.slice(7);
    return name in w.fields ? { found: true, value: w.fields[name] } : { found: false };
  }
  if (path.startsWith('headers.')) {
    const name = path.slice(8).toLowerCase();
    return name in w.headers ? { found: true, value: w.headers[name] } : { found: false };
  }
  if (path === 'body') return { found: true, value: w.body };
  if (path === 'path') return { found: true, value: w.route };
  if (path === 'method') return { found: true, value: w.method };
  return { found: false };
}

async function control(ctx: RunContext, method: string, path: string, body?: unknown) {
  return ctx.target.send(controlRequest({ method, path, body, capability: 'control' }, ctx.target.controlToken));
}

/** The account's signing key: from the control plane when it has one, else as configured. */
async function signingKeyFor(ctx: RunContext, scope: Scope, account: string): Promise<string | undefined> {
  const creds = scope.has(account) ? (scope.get(account) as { accountId?: string }) : undefined;
  if (creds?.accountId && ctx.capabilities.has('webhooks') && ctx.capabilities.has('control')) {
    const res = await control(ctx, 'GET', `/_sim/accounts/${encodeURIComponent(creds.accountId)}/signing-key`);
    const key = (res.json as { signingKey?: unknown } | undefined)?.signingKey;
    if (res.status === 200 && typeof key === 'string') {
      ctx.secrets.add(key);
      return key;
    }
  }
  return ctx.signingKeys?.get(account);
}

/** Holds for `n` and would still hold with more arrivals: waiting longer cannot change the verdict. */
function settledCount(matchers: unknown[], n: number): boolean {
  return matchers.every((m) => match(m, n, 'count').length === 0 && match(m, n + 1, 'count').length === 0);
}

export async function runWebhookStep(ctx: RunContext, step: WebhookStep, base: StepBase, scope: Scope, clauses: string[], needs: string[]): Promise<StepResult> {
  let spec: WebhookSpec;
  let expect: WebhookExpectation | undefined;
  let expectSim: WebhookExpectation | undefined;
  let where: { receiver: WebhookReceiver; id: string };
  needs.push('receiver');
  try {
    spec = scope.resolve(step.webhook);
    expect = scope.resolve(step.expect);
    expectSim = scope.resolve(step.expectSim);
    const missing = [...new Set(needs)].filter((c) => !ctx.capabilities.has(c));
    if (missing.length) return skippedResult(base, lackReason(missing));
    where = receiverOf(ctx, scope);
  } catch (e) {
    if (e instanceof UnresolvedError) return skippedResult(base, `needs ${e.message}`);
    throw e;
  }
  const within = spec.within ?? { seconds: 0 };
  const canAdvance = ctx.capabilities.has('clock') && ctx.capabilities.has('control') && ctx.capabilities.has('writes');
  const virtual = within.seconds !== undefined && (canAdvance || (within.seconds === 0 && within.realSeconds === undefined));
  if (!virtual && within.realSeconds === undefined) return skippedResult(base, `${lackReason(['clock'])}: the bound is in virtual time only (give realSeconds too)`);
  const settles = ctx.capabilities.has('webhooks') && ctx.capabilities.has('control');
  const grace = ctx.webhookGraceMs ?? DEFAULT_WEBHOOK_GRACE_MS;

  const started = performance.now();
  const assertions: AssertionResult[] = [];
  const { receiver, id } = where;
  const selected = () => receiver.inScope(id).filter((w) => selectionMismatches(w, spec).length === 0);
  const counts = [expect?.count, expectSim?.count].filter((c) => c !== undefined);
  const waitFor = counts.length ? counts : [{ $gte: 1 }];
  const done = () => settledCount(waitFor, selected().length);
  const settle = async () => {
    if (settles) await control(ctx, 'POST', '/_sim/webhooks/settle');
  };

  let bound: string;
  try {
    if (!done()) await settle();
    if (virtual) {
      bound = `${within.seconds} s of virtual time`;
      if (!done() && within.seconds! > 0) {
        const res = await control(ctx, 'POST', '/_sim/clock/advance', { seconds: within.seconds });
        if (res.status >= 300) assertions.push({ id: 'webhook.advance', level: 'sim', clauses, outcome: outcomeFor('sim', false, ctx.simLevel), message: ctx.secrets.redact(`advancing the clock answered ${res.status}: ${res.text.slice(0, 200)}`) });
        await settle();
      }
      if (!settles && !done()) await receiver.waitUntil(done, grace);
    } else {
      bound = `${within.realSeconds} s`;
      if (!done()) await receiver.waitUntil(done, within.realSeconds! * 1000);
    }
    // The target records its answers before the next step reads its logs.
    await settle();
  } catch (e) {
    const message = ctx.secrets.redact(`no answer from the control plane: ${(e as Error).message}`);
    return merged(base, { status: 'failed' as const, ms: performance.now() - started, assertions: [{ id: 'transport', level: 'sim' as const, clauses, outcome: 'fail' as const, message }] });
  }

  const matched = selected();
  const n = matched.length;
  const what = describeSelection(spec);
  const judgeCount = (level: Level, expected: unknown, part: string) => {
    const ok = match(expected, n, 'count').length === 0;
    const why = ok ? undefined : `${n} webhook(s) ${what} within ${bound}, expected ${show(expected)} (${closest(receiver.inScope(id), spec)})`;
    assertions.push({ id: part, level, clauses, outcome: outcomeFor(level, ok, ctx.simLevel), message: why && ctx.secrets.redact(why) });
  };
  if (counts.length === 0) judgeCount('sim', { $gte: 1 }, 'expect.count');
  if (expect?.count !== undefined) judgeCount('spec', expect.count, 'expect.count');
  if (expectSim?.count !== undefined) judgeCount('sim', expectSim.count, 'expectSim.count');
  const judgeEach = (level: Level, e: WebhookExpectation | undefined, prefix: string) => {
    if (!e || n === 0) return;
    const parts: [string, (w: ReceivedWebhook, at: string) => Mismatch[]][] = [];
    if (e.fields !== undefined) parts.push(['fields', (w, at) => match(e.fields, w.fields, `${at}.fields`)]);
    if (e.headers !== undefined) parts.push(['headers', (w, at) => headerMismatches(e.headers!, w, at)]);
    if (e.method !== undefined) parts.push(['method', (w, at) => match(e.method, w.method, `${at}.method`)]);
    for (const [part, fn] of parts) {
      const mismatches = matched.flatMap((w, i) => fn(w, `webhook[${i}]`));
      const message = mismatches.length ? ctx.secrets.redact(mismatches.map((m) => `${m.path}: ${m.message}`).join('; ')) : undefined;
      assertions.push({ id: `${prefix}.${part}`, level, clauses, outcome: outcomeFor(level, !message, ctx.simLevel), message });
    }
  };
  judgeEach('spec', expect, 'expect');
  judgeEach('sim', expectSim, 'expectSim');

  // Every webhook a step selected goes through the checks once per run.
  const unchecked = matched.filter((w) => !ctx.webhooksChecked.has(w));
  if (unchecked.length > 0) {
    const signingKey = await signingKeyFor(ctx, scope, spec.account ?? 'main');
    const collectedVariablesBytes = spec.variablesBytes === undefined ? undefined : Number(spec.variablesBytes);
    for (const w of unchecked) {
      ctx.webhooksChecked.add(w);
      for (const r of checkWebhook(w, { signingKey, collectedVariablesBytes })) {
        assertions.push({ id: `webhook-check:${r.id}`, level: r.level, clauses: r.clauses, outcome: outcomeFor(r.level, r.passed, ctx.simLevel), message: r.message && ctx.secrets.redact(`${w.method} ${w.route}: ${r.message}`) });
      }
    }
  }

  for (const [name, path] of Object.entries(step.save ?? {})) {
    const got = selectFromWebhook(matched[0], n, path);
    scope.set(name, got.found ? got.value : new Unavailable(`step ${base.index + 1} ("${base.name}") matched ${n} webhook(s), without ${path}`));
  }
  for (const name of step.secrets ?? []) if (scope.has(name)) ctx.secrets.add(String(scope.get(name)));
  return merged(base, { request: ctx.secrets.redact(`webhook ${what}`), ms: performance.now() - started, status: stepStatus(assertions), assertions });
}

export function runReceiverStep(ctx: RunContext, step: ReceiverStep, base: StepBase, scope: Scope, needs: string[]): StepResult {
  needs.push('receiver');
  try {
    const missing = [...new Set(needs)].filter((c) => !ctx.capabilities.has(c));
    if (missing.length) return skippedResult(base, lackReason(missing));
    const spec = scope.resolve(step.receiver);
    const { receiver, id } = receiverOf(ctx, scope);
    receiver.script(id, { status: spec.status, times: spec.times, route: spec.path, body: spec.body });
    const shown = `receiver answers ${spec.status}${spec.times === undefined ? '' : ` ${spec.times} time(s)`}${spec.path ? ` at ${spec.path}` : ''}`;
    return merged(base, { request: shown, status: 'passed' as const, ms: 0, assertions: [] });
  } catch (e) {
    if (e instanceof UnresolvedError) return skippedResult(base, `needs ${e.message}`);
    throw e;
  }
}
