// Runs an `agent` step inside a scenario (steps.ts does the protocol): skips it when the target
// lacks `agent-sdk` or a socket origin, resolves the step's names, judges its expectations at
// level sim (the spec does not show this protocol), and saves values from the matched message.
import { outcomeFor, skippedResult, stepStatus, type AssertionResult, type StepBase, type StepResult } from '../result.ts';
import { lackReason } from '../target.ts';
import { fieldAt } from '../scenario/matchers.ts';
import { Unavailable, UnresolvedError, type Scope } from '../scenario/interpolate.ts';
import type { RunContext } from '../scenario/run-context.ts';
import type { AgentStep } from '../scenario/types.ts';
import { runAgentAction, type AgentAction, type AgentExpectation } from './steps.ts';
import type { ControlTarget } from './client.ts';

/** The step's name in reports. */
export function agentStepName(a: AgentAction): string {
  if (a.connect) return `agent: connect ${a.connect.as}`;
  if (a.media) return `agent: media ${a.media.as}`;
  const what = a.send ? `send ${String(a.send.event ?? '')}` : a.audio ? 'audio' : a.mark !== undefined ? `mark ${a.mark}` : a.clear ? 'clear' : a.dtmf !== undefined ? `dtmf ${a.dtmf}` : a.hangup ? 'hang up' : a.close ? 'close' : 'expect';
  return `agent ${a.on ?? ''}: ${what}`;
}

export async function runAgentStep(ctx: RunContext, step: AgentStep, base: StepBase, scope: Scope, clauses: string[], needs: string[]): Promise<StepResult> {
  const missing = [...new Set([...needs, 'agent-sdk'])].filter((c) => !ctx.capabilities.has(c));
  if (missing.length > 0) return skippedResult(base, lackReason(missing));
  const origin = await ctx.target.socketBase?.();
  if (!origin) return skippedResult(base, 'the target has no WebSocket origin for the Agent SDK');
  let action: AgentAction;
  let expect: AgentExpectation | undefined;
  try {
    action = scope.resolve(step.agent);
    expect = scope.resolve(step.expect);
  } catch (e) {
    if (e instanceof UnresolvedError) return skippedResult(base, `needs ${e.message}`);
    throw e;
  }
  const account = (name: string | undefined): ControlTarget => {
    const who = name ?? 'main';
    const creds = (scope.has(who) ? scope.get(who) : ctx.target.accounts.get(who)) as { accountId?: string; key?: string } | undefined;
    return { socketBase: origin, accountId: creds?.accountId ?? '', apiKey: creds?.key ?? 'sk_unknown' };
  };
  const started = performance.now();
  let outcome;
  try {
    outcome = await runAgentAction(action, expect, scope, account);
  } catch (e) {
    const message = ctx.secrets.redact((e as Error).message);
    return { ...base, status: 'failed', ms: performance.now() - started, assertions: [{ id: 'agent', level: 'sim', clauses, outcome: outcomeFor('sim', false, ctx.simLevel), message }] };
  }
  const assertions: AssertionResult[] = outcome.judged.map((j) => ({
    id: `expect.${j.part}`,
    level: 'sim',
    clauses,
    outcome: outcomeFor('sim', j.mismatches.length === 0, ctx.simLevel),
    message: j.mismatches.length ? ctx.secrets.redact(j.mismatches.map((m) => `${m.path}: ${m.message}`).join('; ')) : undefined,
  }));
  // `body` is the matched message (or the open or close result): body.mediaUrl, body.start.streamId.
  for (const [name, path] of Object.entries(step.save ?? {})) {
    const inner = path.replace(/^body\.?/, '');
    const value = outcome.subject === undefined ? undefined : inner === '' ? outcome.subject : fieldAt(outcome.subject, inner);
    scope.set(name, value === undefined ? new Unavailable(`step ${base.index + 1} ("${base.name}") matched nothing with ${path}`) : value);
  }
  return { ...base, request: outcome.did, ms: performance.now() - started, status: stepStatus(assertions), assertions };
}
