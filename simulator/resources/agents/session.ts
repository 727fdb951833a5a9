// A managed agent's call session on the virtual clock: the agent and the phone take turns (the
// agent speaks, then after a short silence the phone, then the agent answers what it heard,
// rewritten by the number's dictionary), the brain's actions become the call's actions, and a
// tool call is a real MCP tools/call whose answer the session picks up TOOL_WAIT_MS later (the
// clock waits for the call in flight, so the outcome is there whatever the network's speed).
// Times are the call's media position: text speech takes one second per ten characters.
import type { ScopeJobs } from '../../core/scope.ts';
import type { jobs } from './ports.ts';
import { utteranceOf } from '../../peers/phone-talk.ts';
import type { ToolCallOutcome } from '../../peers/mcp/tool-caller.ts';
import { INITIAL_BRAIN, step as brainStep, type BrainAction, type BrainContext, type BrainInput } from './brain.ts';
import { defaultLines, defaultWhisper } from './behaviour.ts';
import { speechMs, type Turn, type TurnDetail } from '../calls/conversation.ts';
import { unusableReason } from './bindings.ts';
import type { AgentsModel } from './model.ts';
import type { AnsweredCall, CallActions, ToolCallerPort, ToolTargetsPort } from './session-ports.ts';
import type { LegProgress } from '../calls/handlers.ts';
import { SessionTable, type SessionRow, type SessionStep } from './session-state.ts';

/** Silence between one side finishing and the other starting. */
export const TURN_GAP_MS = 1000;
/** Virtual time between asking a tool and hearing its answer. */
export const TOOL_WAIT_MS = 300;
/** How long the agent waits through the phone's silence before it answers it (as ""). */
export const SILENCE_MS = 5000;
/** How long pressing keys takes. */
export const KEYS_MS = 1000;

export interface SessionPorts {
  /** The virtual clock's time and the family's `agents.step` job (ports.ts). */
  kernel: { clock: { now(): number }; jobs: Pick<ScopeJobs<typeof jobs>, 'on' | 'schedule'> };
  agents: AgentsModel;
  call: () => CallActions;
  targets: () => ToolTargetsPort;
  tools: () => ToolCallerPort;
  /** The rewriter of the number's dictionary (dictionaries family). */
  hearing: (accountId: string, dictionaryId: string | null) => (text: string) => string;
}

const rule = (a: BrainAction): string => {
  const f = a.fired;
  if (f.kind === 'rule') return `rule ${f.index} (${f.heard})`;
  if (f.kind === 'toolFailed') return `fallback: tool failed (${f.error})`;
  return f.kind;
};

export class AgentSessions {
  readonly rows = new SessionTable(); // maps a call id to its agent session

  constructor(private readonly ports: SessionPorts) {
    ports.kernel.jobs.on('agents.step', (p) => this.onStep(p.callId, p.seq, p.step));
  }

  private get now(): number {
    return this.ports.kernel.clock.now();
  }

  /** The call was answered: the session starts (or fails at once under failureMode fail_session). */
  start(call: AnsweredCall): void {
    const agent = this.ports.agents.anyAccount(call.agentId);
    if (!agent) return this.ports.call().hangUp(call.callId, 'app_error');
    const required = this.ports.agents.bindings.of(agent.id).filter((b) => b.failureMode === 'fail_session');
    const broken = required.find((b) => unusableReason(this.ports.agents.connection(b.accountId, b.connectionId)) !== null);
    if (broken) return this.ports.call().hangUp(call.callId, 'app_error');
    const row: SessionRow = { id: call.callId, call, brain: INITIAL_BRAIN, seq: 0, agentSaid: [], tool: null, warm: null };
    this.rows.insert(row);
    this.advance(row, { kind: 'start' }, this.now);
  }

  /** The call ended (whoever ended it): the session goes; later steps and tool answers find nothing. */
  ended(callId: string): void {
    this.rows.delete(callId);
  }

  /**
   * A transfer leg the agent started. Warm: when the party answers it hears the whisper (the
   * caller still on hold), then the caller is bridged. Once the leg ends, a leg that connected
   * handed the caller over (the call ends with the leg: the party hung up); otherwise the phone
   * speaks again.
   */
  transferProgress(callId: string, progress: LegProgress): void {
    const row = this.rows.get(callId);
    if (!row) return;
    if (progress.phase === 'connected') return this.whisper(row);
    const connected = progress.connected;
    if (connected) {
      this.rows.replace({ ...row, warm: null, brain: { ...row.brain, transferring: false, done: true } });
      return this.ports.call().hangUp(row.id, 'party');
    }
    const ctx = this.context(row);
    if (!ctx) return;
    const r = brainStep(ctx, row.brain, { kind: 'transferEnded', connected });
    const next = this.rows.replace({ ...row, warm: null, brain: r.state });
    const at = this.now - row.call.answeredAt;
    this.turn(next, { speaker: 'agent', party: 0, text: null, startMs: at, endMs: at, detail: { rule: 'transfer did not connect', events: ['transferFailed'] } });
    this.schedule(next, this.now + TURN_GAP_MS, { kind: 'phone' });
  }

  /** A warm transfer's party answered: it hears the whisper; the caller is bridged when it is said. */
  private whisper(row: SessionRow): void {
    const warm = row.warm;
    if (!warm) return;
    const at = this.now - row.call.answeredAt;
    const end = at + speechMs(warm.whisper);
    this.turn(row, { speaker: 'agent', party: 0, text: warm.whisper, startMs: at, endMs: end, detail: { rule: `warm transfer: whisper to ${warm.to}`, events: ['whisper'] } });
    this.schedule(row, this.now + speechMs(warm.whisper), { kind: 'bridged' });
  }

  private bridged(row: SessionRow): void {
    if (!row.warm) return;
    const at = this.now - row.call.answeredAt;
    this.rows.replace({ ...row, warm: null });
    this.turn(row, { speaker: 'agent', party: 0, text: null, startMs: at, endMs: at, detail: { rule: `warm transfer: caller bridged to ${row.warm.to}`, events: ['bridged'] } });
  }

  private context(row: SessionRow): BrainContext | undefined {
    const agent = this.ports.agents.anyAccount(row.call.agentId);
    if (!agent) return undefined;
    const knowledge = agent.configuration.knowledge;
    return {
      behaviour: this.ports.agents.behaviourOf(agent),
      greet: agent.greeting,
      vars: row.call.variables,
      knowledge: knowledge.enabled ? (q) => this.ports.agents.knowledge.search(agent.id, q, knowledge.topK)[0]?.text ?? '' : null,
      goodbye: defaultLines(agent.configuration.language).goodbye,
      whisper: (utterance) => defaultWhisper(agent.configuration.language, utterance),
    };
  }

  private schedule(row: SessionRow, at: number, step: SessionStep): SessionRow {
    const next = this.rows.replace({ ...row, seq: row.seq + 1 });
    this.ports.kernel.jobs.schedule('agents.step', at, { callId: row.id, seq: next.seq, step });
    return next;
  }

  private onStep(callId: string, seq: number, step: SessionStep): void {
    const row = this.rows.get(callId);
    if (!row || row.seq !== seq) return;
    switch (step.kind) {
      case 'phone':
        return this.phoneSpeaks(row);
      case 'agent':
        return this.advance(row, { kind: 'heard', text: step.heard }, this.now, { spoken: step.spoken });
      case 'actions':
        return this.run(row, step.actions as unknown as BrainAction[], this.now);
      case 'tool':
        return this.toolDue(row);
      case 'bridged':
        return this.bridged(row);
    }
  }

  /** Feeds the brain and runs its actions from `at`. */
  private advance(row: SessionRow, input: BrainInput, at: number, detail: TurnDetail = {}): void {
    const ctx = this.context(row);
    if (!ctx) return this.ports.call().hangUp(row.id, 'app_error');
    const r = brainStep(ctx, row.brain, input);
    this.run(this.rows.replace({ ...row, brain: r.state }), r.actions, at, detail);
  }

  /**
   * Runs actions in order on the timeline: a line takes its speech time; opt-out, transfer and
   * hang-up happen once the line before them is said (a later step when that is in the future);
   * a tool call pauses the rest until its answer. With nothing left, the phone's turn follows.
   */
  private run(row: SessionRow, actions: readonly BrainAction[], at: number, detail: TurnDetail = {}): void {
    let t = at;
    let said = row.agentSaid;
    let pending: TurnDetail | null = Object.keys(detail).length > 0 ? detail : null; // shown on the first turn it leads to
    const mark = (a: BrainAction, text: string | null, end: number, events?: string[]) => {
      this.turn(row, { speaker: 'agent', party: 0, text, startMs: t - row.call.answeredAt, endMs: end - row.call.answeredAt, detail: { ...(pending ?? {}), rule: rule(a), ...(events ? { events } : {}) } });
      pending = null;
    };
    for (let i = 0; i < actions.length; i++) {
      const a = actions[i]!;
      if (a.type === 'say') {
        if (a.text === '') continue;
        const end = t + speechMs(a.text);
        mark(a, a.text, end);
        said = [...said, a.text];
        t = end;
        continue;
      }
      if (t > this.now) {
        this.schedule(this.rows.replace({ ...row, agentSaid: said }), t, { kind: 'actions', actions: actions.slice(i) });
        return;
      }
      row = this.rows.replace({ ...row, agentSaid: said });
      if (a.type === 'tool') return this.startTool(row, a, pending ?? {});
      if (a.type === 'optOut') {
        mark(a, null, t, [`optOut:${a.channel}`]);
        this.ports.call().optOut(row.id, a.channel);
      } else if (a.type === 'hangup') {
        mark(a, null, t, ['hangup']);
        return this.ports.call().hangUp(row.id, 'agent');
      } else {
        const started = this.ports.call().transfer(row.id, { to: a.to, mode: a.mode });
        // Warm: the caller waits on hold while the party rings and hears the whisper.
        const warm = started.started && a.mode === 'warm' && a.whisper !== null;
        mark(a, null, t, started.started ? [`transfer:${a.to}`, ...(warm ? ['hold'] : [])] : [`transferFailed:${a.to} (${started.reason})`]);
        if (warm) row = this.rows.replace({ ...row, warm: { to: a.to, whisper: a.whisper! } });
        if (started.started) return;
        // A transfer that cannot start is a transfer that did not connect: back to the agent.
        const r = brainStep(this.context(row)!, row.brain, { kind: 'transferEnded', connected: false });
        row = this.rows.replace({ ...row, brain: r.state });
      }
    }
    // A tool call whose rule says nothing still shows in the conversation.
    if (pending !== null && actions.length === 0 && (pending as TurnDetail).tool) this.turn(row, { speaker: 'agent', party: 0, text: null, startMs: t - row.call.answeredAt, endMs: t - row.call.answeredAt, detail: pending });
    row = this.rows.replace({ ...row, agentSaid: said });
    if (!row.brain.done && !row.brain.transferring) this.schedule(row, t + TURN_GAP_MS, { kind: 'phone' });
  }

  /** The phone hears what the agent said since its last turn and takes its turn. */
  private phoneSpeaks(row: SessionRow): void {
    const heard = row.agentSaid.join(' ');
    const fresh = this.rows.replace({ ...row, agentSaid: [] });
    const turn = this.ports.call().phoneTurn(row.id, heard);
    if (turn.kind === 'hangup') return this.ports.call().hangUp(row.id, 'phone');
    const spoken = utteranceOf(turn);
    const start = this.now;
    const length = turn.say !== null ? speechMs(turn.say) : turn.keys !== null ? KEYS_MS : SILENCE_MS;
    // The number's dictionary rewrites what the platform transcribes: the agent's rules and the
    // transcript see the rewritten words; the turn keeps what the phone said (the inspector shows both).
    const hear = this.ports.hearing(row.call.accountId, row.call.dictionaryId);
    if (turn.say !== null || turn.keys !== null) {
      const text = turn.say === null ? null : hear(turn.say);
      const detail: TurnDetail = { answer: turn.answer, ...(turn.keys !== null ? { dtmf: turn.keys } : {}), ...(text !== turn.say ? { spoken: turn.say! } : {}) };
      this.turn(fresh, { speaker: 'caller', party: 0, text, startMs: start - row.call.answeredAt, endMs: start + length - row.call.answeredAt, detail });
    }
    const heardByAgent = hear(spoken);
    const gap = turn.say !== null || turn.keys !== null ? TURN_GAP_MS : 0;
    this.schedule(fresh, start + length + gap, { kind: 'agent', heard: heardByAgent, spoken });
  }

  private turn(row: SessionRow, t: Turn): void {
    this.ports.call().speak(row.id, t);
  }

  private startTool(row: SessionRow, a: Extract<BrainAction, { type: 'tool' }>, detail: TurnDetail): void {
    const route = this.ports.agents.bindings.route(row.call.accountId, row.call.agentId, a.name);
    const started = this.now;
    const pending = { name: a.name, arguments: a.arguments, connectionId: route?.binding.connectionId ?? null, failureMode: route?.binding.failureMode ?? 'continue', startedAt: started, outcome: null as ToolCallOutcome | null, due: false, spoken: detail.spoken ?? null };
    const target = route && route.unusable === null ? this.ports.targets().target(row.call.accountId, route.binding.connectionId) : undefined;
    if (!route || route.unusable !== null || !target) {
      // Spec: only tested connections are used during calls; the tool fails by the binding's failureMode.
      const why = !route ? `no MCP binding allows ${a.name}` : (route.unusable ?? 'the MCP connection is gone');
      pending.outcome = { ok: false, reason: 'PROTOCOL_ERROR', detail: why };
    }
    const next = this.schedule(this.rows.replace({ ...row, tool: pending }), started + TOOL_WAIT_MS, { kind: 'tool' });
    if (pending.outcome !== null || !target) return;
    const { id, seq } = next;
    this.ports.tools().call({ ...target, name: a.name, arguments: a.arguments }, (outcome) => this.toolLanded(id, seq, outcome));
  }

  /**
   * After a restore: a tool call the snapshot had in flight is asked again (the answer of the
   * call that was in flight belongs to the state that was replaced).
   */
  afterRestore(): void {
    for (const row of this.rows.all()) {
      const t = row.tool;
      if (!t || t.outcome !== null || t.connectionId === null) continue;
      const target = this.ports.targets().target(row.call.accountId, t.connectionId);
      if (!target) {
        this.rows.replace({ ...row, tool: { ...t, outcome: { ok: false, reason: 'PROTOCOL_ERROR', detail: 'the MCP connection is gone' } } });
        continue;
      }
      const { id, seq } = row;
      this.ports.tools().call({ ...target, name: t.name, arguments: t.arguments }, (outcome) => this.toolLanded(id, seq, outcome));
    }
  }

  /** The tool's answer arrived (in wall time): kept with the session until its step is due. */
  private toolLanded(callId: string, seq: number, outcome: ToolCallOutcome): void {
    const row = this.rows.get(callId);
    if (!row || row.seq !== seq || !row.tool) return;
    const next = this.rows.replace({ ...row, tool: { ...row.tool, outcome } });
    if (row.tool.due) this.toolDue(next); // the realtime clock passed its step before the answer came
  }

  private toolDue(row: SessionRow): void {
    const tool = row.tool;
    if (!tool) return;
    if (tool.outcome === null) {
      this.rows.replace({ ...row, tool: { ...tool, due: true } });
      return;
    }
    const o = tool.outcome;
    const rest = this.rows.replace({ ...row, tool: null });
    const call = { name: tool.name, arguments: tool.arguments, connectionId: tool.connectionId, ok: o.ok, result: o.ok ? o.text : `${o.reason}: ${o.detail}`, latencyMs: this.now - tool.startedAt };
    const detail: TurnDetail = { tool: call, ...(tool.spoken === null ? {} : { spoken: tool.spoken }) };
    if (!o.ok && tool.failureMode === 'fail_session') {
      this.turn(rest, { speaker: 'agent', party: 0, text: null, startMs: this.now - row.call.answeredAt, endMs: this.now - row.call.answeredAt, detail: { ...detail, rule: 'tool failed: fail_session ends the call' } });
      return this.ports.call().hangUp(row.id, 'app_error');
    }
    const input: BrainInput = o.ok ? { kind: 'tool', ok: true, text: o.text } : { kind: 'tool', ok: false, error: o.reason };
    this.advance(rest, input, this.now, detail);
  }
}
