// The call-flow interpreter: a pure step function (graph, state, input) -> (state, effects)
// (DESIGN "voice"). It walks blocks that need nothing from outside (setvar, condition, message,
// optout) at once and stops at the first block that waits for time, the callee or the network;
// the calls model performs the effects on the virtual clock and feeds the answer back as the
// next input. No clock, no I/O, no randomness here: the same inputs give the same walk.
import { BLOCK_DEFAULTS, type FlowBlock, type FlowGraph, type Link } from './flow-graph.ts';
import type { WalkInput } from './walk-input.ts';
import { render } from './templates.ts';
import { setMember } from '../../core/own-member.ts';

export { render, variableNames } from './templates.ts';

export type WaitingFor = 'timer' | 'hangup' | 'keys' | 'recording' | 'http' | 'dial';

export interface WalkState {
  at: string | null; // the block waiting for input; null before the start and once ended
  waiting: WaitingFor | null;
  vars: Record<string, string>; // every variable: start variables, caller/callee, collected values
  ended: 'completed' | 'abandoned' | null; // completed: reached an end; abandoned: dropped earlier
  visited: number; // blocks entered so far
}

export type { WalkInput };

export type Effect =
  | { type: 'say'; blockId: string; text: string }
  | { type: 'play'; blockId: string; url: string }
  | { type: 'wait'; seconds: number }
  | { type: 'listen'; blockId: string; prompt: string; maxDigits: number; timeoutSec: number }
  | { type: 'record'; blockId: string; name: string; prompt: string; maxLengthSec: number; playBeep: boolean; finishKey: string }
  | { type: 'message'; blockId: string; to: string | null; body: string; subject: string | null }
  | { type: 'optout'; blockId: string; number: string; channel: 'call' | 'message'; note: string | null }
  | { type: 'http'; blockId: string; method: string; url: string; headers: Record<string, string>; body: string | null }
  | { type: 'dial'; blockId: string; kind: 'number' | 'sip'; value: string; callerId: string | null; timeoutSec: number }
  | { type: 'stream'; blockId: string; url: string; name: string | null } // VoiceML only
  | { type: 'end'; status: 'completed' | 'abandoned'; reason: string | null };

/**
 * What one step did to the graph, for the walk trace (walk-trace.ts): each block entered, in
 * order, with the variables it set; `resumed` is the block that was waiting and got its input
 * (a menu's keys, a recording, an http answer, a dial outcome), `outcome` how that input was
 * taken (menu: branch, invalid, timeout; http: ok, error).
 */
export interface StepTrace {
  blockId: string;
  type: string;
  resumed: boolean;
  outcome: string | null;
  set: Record<string, string>;
}

export interface StepResult {
  state: WalkState;
  effects: Effect[];
  trace: StepTrace[];
}

/** Blocks one step may enter without waiting; past it the graph loops on itself (setvar <-> condition). */
export const MAX_BLOCKS_PER_STEP = 1000;
/** Seconds a `play` block's audio lasts (the simulator fetches no audio). */
export const PLAY_SECONDS = 5;

/** Seconds it takes to speak `text`: one per ten characters, at least one (docs/decisions.md "Calls"). */
export function speechSeconds(text: string): number {
  return Math.max(1, Math.ceil(codePoints(text) / 10));
}

/** The characters of `text` as its iterator counts them (a surrogate pair is one), without an array of them. */
function codePoints(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++, n++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
  }
  return n;
}

/** A walk not started yet, holding `vars` itself (not a copy): a walk's variables are never changed in place (a step copies them before it sets one). */
export function initialState(vars: Record<string, string>): WalkState {
  return { at: null, waiting: null, vars, ended: null, visited: 0 };
}

/** One step of the walk. An input that does not fit what the walk waits for changes nothing. */
export function step(graph: FlowGraph, state: WalkState, input: WalkInput): StepResult {
  if (state.ended) return { state, effects: [], trace: [] };
  const walk = new Walk(graph, state);
  if (input.kind === 'dropped') return walk.end('abandoned', 'the call ended before the flow');
  if (input.kind === 'start') {
    if (state.at !== null || state.visited > 0) return { state, effects: [], trace: [] };
    return walk.go(graph.start);
  }
  const block = state.at === null ? undefined : graph.nodes[state.at];
  if (!block) return { state, effects: [], trace: [] };
  switch (input.kind) {
    case 'elapsed':
      if (state.waiting === 'hangup') return walk.end('completed', null);
      if (state.waiting !== 'timer') break;
      return walk.go(nextOf(block));
    case 'keys':
      if (state.waiting !== 'keys' || block.type !== 'menu') break;
      return walk.menuAnswered(block, state.at!, input.keys);
    case 'recorded':
      if (state.waiting !== 'recording' || block.type !== 'record') break;
      return walk.recorded(block, state.at!, input.seconds, input.url);
    case 'http':
      if (state.waiting !== 'http' || block.type !== 'http') break;
      return walk.httpAnswered(block, state.at!, input.status, input.body);
    case 'dialed':
      if (state.waiting !== 'dial' || block.type !== 'dial') break;
      walk.resume(state.at!, 'dial', input.outcome);
      return walk.go(block.next ?? null);
  }
  return { state, effects: [], trace: [] };
}

function nextOf(block: FlowBlock): Link {
  return 'next' in block ? (block.next ?? null) : null;
}

/** One step's working copy: variables are copied on the first write only, effects collected in order. */
class Walk {
  private vars: Record<string, string>;
  private copied = false;
  private readonly effects: Effect[] = [];
  private readonly trace: StepTrace[] = [];
  private visited: number;

  constructor(
    private readonly graph: FlowGraph,
    state: WalkState,
  ) {
    this.vars = state.vars;
    this.visited = state.visited;
  }

  private set(name: string, value: string): void {
    if (!this.copied) {
      this.vars = { ...this.vars };
      this.copied = true;
    }
    setMember(this.vars, name, value);
    const current = this.trace.at(-1);
    if (current) setMember(current.set, name, value);
  }

  /** The waiting block takes its input; what it sets from it is traced on it. */
  resume(blockId: string, type: string, outcome: string): void {
    this.trace.push({ blockId, type, resumed: true, outcome, set: {} });
  }

  private r(template: string | undefined): string {
    return template === undefined ? '' : render(template, this.vars);
  }

  end(status: 'completed' | 'abandoned', reason: string | null): StepResult {
    this.effects.push({ type: 'end', status, reason });
    return { state: { at: null, waiting: null, vars: this.vars, ended: status, visited: this.visited }, effects: this.effects, trace: this.trace };
  }

  private wait(at: string, waiting: WaitingFor): StepResult {
    return { state: { at, waiting, vars: this.vars, ended: null, visited: this.visited }, effects: this.effects, trace: this.trace };
  }

  /** Enters `link` and runs until a block waits or the flow ends. */
  go(link: Link): StepResult {
    for (let entered = 0; ; entered++) {
      if (link === null) return this.end('completed', null);
      if (entered >= MAX_BLOCKS_PER_STEP) return this.end('abandoned', `more than ${MAX_BLOCKS_PER_STEP} blocks without waiting (a loop)`);
      const id = link;
      const block = Object.hasOwn(this.graph.nodes, id) ? this.graph.nodes[id] : undefined;
      if (!block) return this.end('abandoned', `block ${id} does not exist`);
      this.visited++;
      this.trace.push({ blockId: id, type: block.type, resumed: false, outcome: null, set: {} });
      switch (block.type) {
        case 'say': {
          const text = this.r(block.text);
          this.effects.push({ type: 'say', blockId: id, text }, { type: 'wait', seconds: speechSeconds(text) });
          return this.wait(id, 'timer');
        }
        case 'play':
          this.effects.push({ type: 'play', blockId: id, url: this.r(block.url) }, { type: 'wait', seconds: PLAY_SECONDS });
          return this.wait(id, 'timer');
        case 'pause':
          this.effects.push({ type: 'wait', seconds: block.seconds });
          return this.wait(id, 'timer');
        case 'message':
          this.effects.push({
            type: 'message',
            blockId: id,
            to: block.to === undefined ? null : this.r(block.to),
            body: this.r(block.body),
            subject: block.subject === undefined ? null : this.r(block.subject),
          });
          link = block.next ?? null;
          continue;
        case 'menu':
          this.effects.push({
            type: 'listen',
            blockId: id,
            prompt: this.r(block.prompt),
            maxDigits: block.maxDigits ?? BLOCK_DEFAULTS.menuMaxDigits,
            timeoutSec: block.timeoutSec ?? BLOCK_DEFAULTS.menuTimeoutSec,
          });
          return this.wait(id, 'keys');
        case 'record':
          this.effects.push({
            type: 'record',
            blockId: id,
            name: block.saveAs ? block.saveAs : id,
            prompt: this.r(block.prompt),
            maxLengthSec: block.maxLengthSec ?? BLOCK_DEFAULTS.recordMaxLengthSec,
            playBeep: block.playBeep ?? BLOCK_DEFAULTS.recordPlayBeep,
            finishKey: block.finishKey ?? BLOCK_DEFAULTS.recordFinishKey,
          });
          return this.wait(id, 'recording');
        case 'dial':
          this.effects.push({
            type: 'dial',
            blockId: id,
            kind: block.target.kind,
            value: this.r(block.target.value),
            callerId: block.callerId === undefined ? null : this.r(block.callerId),
            timeoutSec: block.timeoutSec ?? BLOCK_DEFAULTS.dialTimeoutSec,
          });
          return this.wait(id, 'dial');
        case 'hangup': {
          if (!block.message) return this.end('completed', null);
          const text = this.r(block.message);
          this.effects.push({ type: 'say', blockId: id, text }, { type: 'wait', seconds: speechSeconds(text) });
          return this.wait(id, 'hangup');
        }
        case 'setvar':
          // Each assignment sees the ones before it.
          for (const a of block.assignments) this.set(a.name, this.r(a.value));
          link = block.next ?? null;
          continue;
        case 'condition': {
          const hit = block.cases.find((c) => matches(this.vars, c.variable, c.op, c.value === undefined ? undefined : this.r(c.value)));
          link = hit ? (hit.next ?? null) : (block.defaultNext ?? null);
          continue;
        }
        case 'http':
          this.effects.push({
            type: 'http',
            blockId: id,
            method: (block.method ?? 'GET').toUpperCase(),
            url: this.r(block.url),
            headers: Object.fromEntries(Object.entries(block.headers ?? {}).map(([k, v]) => [k, this.r(v)])),
            body: renderBody(block.body, this.vars),
          });
          return this.wait(id, 'http');
        case 'optout': {
          const number = this.r(block.number ?? BLOCK_DEFAULTS.optoutNumber);
          this.effects.push({ type: 'optout', blockId: id, number, channel: block.channel ?? BLOCK_DEFAULTS.optoutChannel, note: block.note === undefined ? null : this.r(block.note) });
          if (block.saveAs) this.set(block.saveAs, number);
          link = block.next ?? null;
          continue;
        }
        default:
          return this.end('abandoned', `block ${id} has an unknown type`);
      }
    }
  }

  menuAnswered(block: Extract<FlowBlock, { type: 'menu' }>, id: string, raw: string): StepResult {
    const keys = raw.slice(0, block.maxDigits ?? BLOCK_DEFAULTS.menuMaxDigits);
    const known = Object.hasOwn(block.branches, keys);
    this.resume(id, 'menu', keys === '' ? 'timeout' : known ? 'branch' : 'invalid');
    if (keys === '') return this.go(block.timeoutNext ?? null);
    if (block.saveAs) this.set(block.saveAs, keys);
    if (known) return this.go(block.branches[keys] ?? null);
    return this.go(block.invalidNext ?? null);
  }

  recorded(block: Extract<FlowBlock, { type: 'record' }>, id: string, seconds: number, url: string): StepResult {
    this.resume(id, 'record', 'recorded');
    if (block.saveAs) {
      this.set(block.saveAs, url);
      this.set(`${block.saveAs}_duration`, String(seconds));
    }
    this.set('recording_url', url);
    this.set('recording_duration', String(seconds));
    return this.go(block.next ?? null);
  }

  httpAnswered(block: Extract<FlowBlock, { type: 'http' }>, id: string, status: number | null, body: string | null): StepResult {
    const ok = status !== null && status >= 200 && status < 300;
    const parsed = ok ? parseJson(body) : undefined;
    const wantsValues = (block.saveAs ?? []).length > 0;
    // A 2xx answer counts when its body is JSON, or empty for a block that extracts nothing.
    const usable = ok && (parsed !== undefined || (!wantsValues && (body ?? '').trim() === ''));
    this.resume(id, 'http', usable ? 'ok' : 'error');
    if (status !== null) this.set('http_status', String(status));
    if (!usable) return this.go(block.errorNext ?? null);
    for (const s of block.saveAs ?? []) {
      const v = atPath(parsed, s.path);
      if (v !== undefined) this.set(s.var, v);
    }
    return this.go(block.next ?? null);
  }
}

/** Condition operators (CallFlowNode): gt/lt compare numbers and are false unless both sides are numbers. */
export function matches(vars: Readonly<Record<string, string>>, name: string, op: string, value: string | undefined): boolean {
  const present = Object.hasOwn(vars, name);
  const v = present ? vars[name]! : '';
  const w = value ?? '';
  switch (op) {
    case 'eq':
      return v === w;
    case 'ne':
      return v !== w;
    case 'contains':
      return v.includes(w);
    case 'gt':
    case 'lt': {
      const a = toNumber(v);
      const b = toNumber(w);
      if (a === undefined || b === undefined) return false;
      return op === 'gt' ? a > b : a < b;
    }
    case 'exists':
      return present;
    case 'empty':
      return v === '';
    default:
      return false;
  }
}

function toNumber(s: string): number | undefined {
  if (s.trim() === '') return undefined;
  const n = Number(s);
  return Number.isFinite(n) ? n : undefined;
}

/** A string body is a template; an object body has its string leaves rendered and is sent as JSON. */
function renderBody(body: unknown, vars: Readonly<Record<string, string>>): string | null {
  if (body === undefined || body === null) return null;
  if (typeof body === 'string') return render(body, vars);
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return render(v, vars);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return JSON.stringify(walk(body));
}

function parseJson(body: string | null): unknown {
  if (body === null || body.trim() === '') return undefined;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The value at a path like `data.items[0].name` (a leading `$.` is allowed) as a string:
 * strings as they are, other scalars and objects as JSON; undefined when the path is missing.
 */
export function atPath(root: unknown, path: string): string | undefined {
  const parts = path.replace(/^\$\.?/, '').match(/[^.[\]]+/g) ?? [];
  let cur: unknown = root;
  for (const p of parts) {
    if (cur === null || typeof cur !== 'object') return undefined;
    if (!Object.hasOwn(cur, p)) return undefined;
    cur = (cur as Record<string, unknown>)[p];
  }
  if (cur === undefined) return undefined;
  return typeof cur === 'string' ? cur : JSON.stringify(cur);
}
