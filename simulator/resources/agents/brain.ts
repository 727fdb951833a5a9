// The managed agent's "brain", the deterministic stand-in for its language model: a pure step
// function (behaviour, conversation state, input) -> (state, actions). The call that hosts the
// agent turns actions into effects on the virtual clock (speech, a real MCP tools/call, an
// opt-out, a transfer leg, a hang-up) and feeds back what came of them (the tool's result, the
// transfer's outcome) as further inputs. Nothing here reads the clock, the network or state.
import type { Behaviour, BehaviourRule } from './behaviour.ts';
import { render, renderArguments, toolValue, type TemplateScope, type ToolValue } from './templates.ts';

/** What the agent knows for one call. */
export interface BrainContext {
  behaviour: Behaviour;
  /** The agent's `greeting` setting: the behaviour's greeting is said first when true. */
  greet: boolean;
  /** CallContext variables ({{var.name}}). */
  vars: Readonly<Record<string, string>>;
  /** The best knowledge chunk for an utterance; null when knowledge search is off. */
  knowledge: ((query: string) => string) | null;
  /** Said after maxTurns, before the agent hangs up. */
  goodbye: string;
  /** A warm transfer's default whisper for the utterance that led to it (the party's briefing). */
  whisper: (utterance: string) => string;
}

/** Plain JSON, kept with the call between inputs. */
export interface BrainState {
  /** Utterances answered so far. */
  turns: number;
  /** A rule waiting for its tool's result. */
  pending: { rule: number; groups: (string | null)[]; utterance: string } | null;
  /** A transfer leg is under way: the agent waits for its outcome. */
  transferring: boolean;
  /** The agent hung up or handed the caller over: it does nothing more. */
  done: boolean;
}

export type BrainInput =
  | { kind: 'start' }
  | { kind: 'heard'; text: string }
  | { kind: 'tool'; ok: true; text: string }
  | { kind: 'tool'; ok: false; error: string }
  | { kind: 'transferEnded'; connected: boolean };

/** Why a line was said or an action taken: what the inspector shows as the rule that fired. */
export type Fired =
  | { kind: 'greeting' }
  | { kind: 'rule'; index: number; heard: string }
  | { kind: 'fallback' }
  | { kind: 'toolFailed'; index: number; error: string }
  | { kind: 'goodbye' };

export type BrainAction =
  | { type: 'say'; text: string; fired: Fired }
  | { type: 'tool'; name: string; arguments: Record<string, unknown>; fired: Fired }
  | { type: 'optOut'; channel: 'call' | 'message'; fired: Fired }
  /** whisper: what the party hears before the caller is bridged (warm), null for blind. */
  | { type: 'transfer'; to: string; mode: 'blind' | 'warm'; whisper: string | null; fired: Fired }
  | { type: 'hangup'; fired: Fired };

export interface BrainStep {
  state: BrainState;
  actions: BrainAction[];
}

export const INITIAL_BRAIN: BrainState = { turns: 0, pending: null, transferring: false, done: false };

/** Compiled patterns per behaviour object (behaviours are replaced, never changed). */
const compiled = new WeakMap<Behaviour, RegExp[]>();
function patterns(b: Behaviour): RegExp[] {
  let p = compiled.get(b);
  if (!p) {
    p = b.rules.map((r) => new RegExp(r.heard, 'i'));
    compiled.set(b, p);
  }
  return p;
}

function scope(ctx: BrainContext, groups: readonly (string | null)[], utterance: string, tool: ToolValue | null): TemplateScope {
  return {
    groups: groups.map((g) => g ?? undefined),
    tool,
    vars: ctx.vars,
    knowledge: () => (ctx.knowledge === null ? '' : ctx.knowledge(utterance)),
  };
}

export function step(ctx: BrainContext, state: BrainState, input: BrainInput): BrainStep {
  if (state.done) return { state, actions: [] };
  switch (input.kind) {
    case 'start':
      if (!ctx.greet || state.turns > 0) return { state, actions: [] };
      return { state, actions: [{ type: 'say', text: render(ctx.behaviour.greeting, scope(ctx, [], '', null)), fired: { kind: 'greeting' } }] };
    case 'heard':
      if (state.pending !== null || state.transferring) return { state, actions: [] };
      return heard(ctx, { ...state, turns: state.turns + 1 }, input.text);
    case 'tool':
      return toolDone(ctx, state, input);
    case 'transferEnded':
      if (!state.transferring) return { state, actions: [] };
      // Connected: the caller talks with the transfer party now and the agent has left.
      return { state: { ...state, transferring: false, done: input.connected }, actions: [] };
  }
}

function heard(ctx: BrainContext, state: BrainState, text: string): BrainStep {
  const rules = ctx.behaviour.rules;
  const compiledRules = patterns(ctx.behaviour);
  for (let i = 0; i < rules.length; i++) {
    const m = compiledRules[i]!.exec(text);
    if (!m) continue;
    const rule = rules[i]!;
    const groups = [...m].map((g) => g ?? null);
    const fired: Fired = { kind: 'rule', index: i, heard: rule.heard };
    if (rule.tool !== null) {
      const args = renderArguments(rule.tool.arguments, scope(ctx, groups, text, null)) as Record<string, unknown>;
      return { state: { ...state, pending: { rule: i, groups, utterance: text } }, actions: [{ type: 'tool', name: rule.tool.name, arguments: args, fired }] };
    }
    const sc = scope(ctx, groups, text, null);
    return finish(ctx, state, rule.say === null ? [] : [render(rule.say, sc)], rule, fired, sc, text);
  }
  return finish(ctx, state, [render(ctx.behaviour.fallback, scope(ctx, [], text, null))], null, { kind: 'fallback' }, null, text);
}

function toolDone(ctx: BrainContext, state: BrainState, input: Extract<BrainInput, { kind: 'tool' }>): BrainStep {
  const p = state.pending;
  if (p === null) return { state, actions: [] };
  const rule = ctx.behaviour.rules[p.rule];
  const rest = { ...state, pending: null };
  if (!rule) return { state: rest, actions: [] };
  if (!input.ok) {
    // failureMode continue: the agent goes on without the tool, as the model would, and says its fallback.
    const line = render(ctx.behaviour.fallback, scope(ctx, [], p.utterance, null));
    return finish(ctx, rest, [line], null, { kind: 'toolFailed', index: p.rule, error: input.error }, null, p.utterance);
  }
  const fired: Fired = { kind: 'rule', index: p.rule, heard: rule.heard };
  const sc = scope(ctx, p.groups, p.utterance, toolValue(input.text));
  const lines = rule.say === null ? [] : [render(rule.say, sc)];
  return finish(ctx, rest, lines, rule, fired, sc, p.utterance);
}

/** The rule's remaining actions in order (say, optOut, transfer, hangup), then the turn limit. */
function finish(ctx: BrainContext, state: BrainState, lines: string[], rule: BehaviourRule | null, fired: Fired, sc: TemplateScope | null, utterance: string): BrainStep {
  const actions: BrainAction[] = lines.map((text) => ({ type: 'say', text, fired }));
  let next = state;
  if (rule?.optOut) actions.push({ type: 'optOut', channel: rule.optOut, fired });
  if (rule?.transfer) {
    const t = rule.transfer;
    const whisper = t.mode !== 'warm' ? null : t.whisper != null && sc !== null ? render(t.whisper, sc) : ctx.whisper(utterance);
    actions.push({ type: 'transfer', to: t.to, mode: t.mode, whisper, fired });
    next = { ...next, transferring: true };
  }
  if (rule?.hangup) {
    actions.push({ type: 'hangup', fired });
    return { state: { ...next, done: true }, actions };
  }
  if (!next.transferring && next.turns >= ctx.behaviour.maxTurns) {
    const bye: Fired = { kind: 'goodbye' };
    actions.push({ type: 'say', text: ctx.goodbye, fired: bye }, { type: 'hangup', fired: bye });
    return { state: { ...next, done: true }, actions };
  }
  return { state: next, actions };
}
