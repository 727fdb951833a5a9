// Graph validation and normalisation, pure: a request graph either becomes a FlowGraph with every
// default filled, or a list of issues naming the exact dotted path of each problem (reference
// `CallFlowError.issues`). Two passes as the reference describes: structure (types, fields,
// bounds, unknown fields), then references (links that name no block, a start that is missing).
import { schemaErrors } from '../../core/schema.ts';
import type { FieldError } from '../../core/errors.ts';
import {
  BLOCK_DEFAULTS,
  BLOCK_ID,
  BLOCK_INPUT_SCHEMAS,
  BLOCK_SCHEMAS,
  BLOCK_TYPES,
  COMPARING_OPS,
  PROVIDER_ALIASES,
  VARIABLE_REF,
  VOICE_DEFAULTS,
  VoiceInputSchema,
  type BlockType,
  type FlowBlock,
  type FlowGraph,
  type FlowVoice,
  type VoiceProvider,
} from './schema.ts';

export type Issue = FieldError;

/** At most this many issues in one answer: enough to fix a graph, bounded for huge ones. */
export const MAX_ISSUES = 50;

const GRAPH_FIELDS = new Set(['version', 'start', 'voice', 'nodes', 'ui']);
/** Names the platform sets during every call; never asked of the caller (spec, SDK reserved names). */
export const RESERVED_VARIABLES = ['caller', 'callee', 'recording_url', 'recording_duration', 'http_status'] as const;

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const ELEVENLABS_ID = /^[A-Za-z0-9]{20}$/;
const PHONE_OR_TEMPLATE = /^(?:\+?[0-9][0-9 ()-]*|\{\{[A-Za-z_][A-Za-z0-9_]*\}\})$/;
const SIP_URI = /^sips?:[^\s]+$/;

const hasOwn = (o: object, key: string) => Object.prototype.hasOwnProperty.call(o, key);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** TypeBox paths say `cases[0]`; the reference's issues use plain dots (`cases.0`). */
const dotted = (path: string) => path.replace(/\[(\d+)\]/g, '.$1');

export type GraphResult = { ok: true; graph: FlowGraph } | { ok: false; issues: Issue[] };

/** Validates a request graph and fills its defaults. Never throws on any JSON value. */
export function parseGraph(input: unknown): GraphResult {
  const issues: Issue[] = [];
  const add = (path: string, message: string) => {
    if (issues.length < MAX_ISSUES) issues.push({ path, message });
  };
  if (!isObject(input)) return { ok: false, issues: [{ path: '', message: 'must be an object with version, start and nodes' }] };

  for (const key of Object.keys(input)) if (!GRAPH_FIELDS.has(key)) add(key, `unknown field: ${key}`);
  if (input.version === undefined) add('version', 'is required');
  else if (input.version !== 1) add('version', 'must be 1');

  const start = input.start;
  if (start === undefined) add('start', 'is required');
  else if (typeof start !== 'string') add('start', 'must be a block id (string)');

  let voice: FlowVoice | undefined;
  if (input.voice !== undefined) voice = parseVoice(input.voice, add);

  // Entries, then fromEntries: ids such as "__proto__" stay own keys, never a prototype.
  const entries: [string, FlowBlock][] = [];
  const blockIssuesBefore = issues.length;
  if (input.nodes === undefined) add('nodes', 'is required');
  else if (!isObject(input.nodes)) add('nodes', 'must be an object mapping block ids to blocks');
  else if (Object.keys(input.nodes).length === 0) add('nodes', 'must hold at least one block');
  else {
    for (const [id, raw] of Object.entries(input.nodes)) {
      const path = `nodes.${id}`;
      if (!BLOCK_ID.test(id)) {
        add(path, 'block ids are 1 to 64 letters, digits, _ or -');
        continue;
      }
      const block = parseBlock(raw, path, add);
      if (block) entries.push([id, block]);
    }
  }
  const nodes: Record<string, FlowBlock> = Object.fromEntries(entries);

  // References only once the structure holds: a broken block would report the same problem twice.
  if (issues.length === blockIssuesBefore && isObject(input.nodes)) {
    for (const [id, block] of Object.entries(nodes)) {
      for (const { field, target } of linksOf(block)) {
        if (!hasOwn(nodes, target)) add(`nodes.${id}`, `${field} points to "${target}", which is not a block of this graph`);
      }
    }
  }
  if (typeof start === 'string' && isObject(input.nodes) && !hasOwn(input.nodes, start)) add('start', `"${start}" is not a block of this graph`);

  if (issues.length > 0) return { ok: false, issues: issues.map((i) => anchored(input, i)) };
  return { ok: true, graph: { version: 1, start: start as string, voice: voice ?? { ...VOICE_DEFAULTS }, nodes } };
}

/**
 * Dotted paths cannot name a key that itself holds a dot (`nodes.c.d`): such an issue is moved to
 * the deepest place that does exist, the rest of the path going into the message, so every path
 * names a real place in what was sent.
 */
function anchored(input: Record<string, unknown>, issue: Issue): Issue {
  const parts = issue.path.split('.');
  let at: unknown = input;
  let i = 0;
  for (; i < parts.length - 1; i++) {
    if (at === null || typeof at !== 'object' || !hasOwn(at, parts[i]!)) break;
    at = (at as Record<string, unknown>)[parts[i]!];
  }
  if (i === parts.length - 1 && at !== null && typeof at === 'object') return issue;
  return { path: parts.slice(0, i).join('.'), message: `${parts.slice(i).join('.')}: ${issue.message}` };
}

function parseVoice(raw: unknown, add: (path: string, message: string) => void): FlowVoice | undefined {
  const errors = schemaErrors(VoiceInputSchema, raw, 'voice');
  for (const e of errors) add(dotted(e.path), e.message);
  if (errors.length > 0) return undefined;
  const v = raw as { provider: string; voiceId?: string; model?: string; language?: string; controls?: { speed?: number; volume?: number } };
  const provider: VoiceProvider = PROVIDER_ALIASES[v.provider] ?? (v.provider as VoiceProvider);
  let ok = true;
  if (v.model !== undefined && provider !== 'elevenlabs') {
    add('voice.model', 'model applies only to the elevenlabs provider (tts_paid_2)');
    ok = false;
  }
  if (v.voiceId !== undefined && provider === 'cartesia' && !UUID.test(v.voiceId)) {
    add('voice.voiceId', 'a cartesia voice id is a catalog UUID');
    ok = false;
  }
  if (v.voiceId !== undefined && provider === 'elevenlabs' && !ELEVENLABS_ID.test(v.voiceId)) {
    add('voice.voiceId', 'an elevenlabs voice id is 20 letters or digits');
    ok = false;
  }
  if (!ok) return undefined;
  const out: FlowVoice = { provider, language: v.language ?? VOICE_DEFAULTS.language };
  if (v.voiceId !== undefined) out.voiceId = v.voiceId;
  if (v.model !== undefined) out.model = v.model;
  if (v.controls !== undefined) {
    out.controls = {};
    if (v.controls.speed !== undefined) out.controls.speed = v.controls.speed;
    if (v.controls.volume !== undefined) out.controls.volume = v.controls.volume;
  }
  return orderLike(out, ['provider', 'voiceId', 'model', 'language', 'controls']);
}

function parseBlock(raw: unknown, path: string, add: (path: string, message: string) => void): FlowBlock | undefined {
  if (!isObject(raw)) {
    add(path, 'must be a block object with a type');
    return undefined;
  }
  const type = raw.type;
  if (type === undefined) {
    add(`${path}.type`, 'is required');
    return undefined;
  }
  if (typeof type !== 'string' || !(BLOCK_TYPES as readonly string[]).includes(type)) {
    add(`${path}.type`, `must be one of ${BLOCK_TYPES.join(', ')}`);
    return undefined;
  }
  const t = type as BlockType;
  const errors = schemaErrors(BLOCK_INPUT_SCHEMAS[t], raw, path);
  for (const e of errors) {
    const p = dotted(e.path);
    add(p, e.message === 'is not a known field' ? `unknown field: ${p.slice(p.lastIndexOf('.') + 1)}` : e.message);
  }
  if (errors.length > 0) return undefined;
  const extra = semanticIssues(t, raw, path);
  for (const e of extra) add(e.path, e.message);
  if (extra.length > 0) return undefined;
  return fillDefaults(t, raw);
}

/** Rules a JSON Schema cannot say: value needed by comparing ops, target shape by kind. */
function semanticIssues(type: BlockType, raw: Record<string, unknown>, path: string): Issue[] {
  const out: Issue[] = [];
  if (type === 'condition') {
    (raw.cases as { op: string; value?: string }[]).forEach((c, i) => {
      if ((COMPARING_OPS as readonly string[]).includes(c.op) && c.value === undefined) out.push({ path: `${path}.cases.${i}.value`, message: `is required with op ${c.op}` });
    });
  }
  if (type === 'dial') {
    const target = raw.target as { kind: string; value: string };
    if (target.kind === 'number' && !PHONE_OR_TEMPLATE.test(target.value)) out.push({ path: `${path}.target.value`, message: 'must be a phone number or a {{name}} reference' });
    if (target.kind === 'sip' && !SIP_URI.test(target.value)) out.push({ path: `${path}.target.value`, message: 'must be a sip: or sips: URI' });
  }
  return out;
}

/** The block with every default filled, its fields in schema order. */
function fillDefaults(type: BlockType, raw: Record<string, unknown>): FlowBlock {
  const defaults = (BLOCK_DEFAULTS as Record<string, Record<string, unknown>>)[type] ?? {};
  const merged: Record<string, unknown> = { ...defaults, ...structuredClone(raw) };
  return orderLike(merged, Object.keys(BLOCK_SCHEMAS[type].properties)) as unknown as FlowBlock;
}

function orderLike<T extends object>(value: T, keys: string[]): T {
  const src = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of keys) if (src[k] !== undefined) out[k] = src[k];
  return out as T;
}

/** Every outgoing link of a block (non-null), with the field that holds it. */
export function linksOf(block: FlowBlock): { field: string; target: string }[] {
  const out: { field: string; target: string }[] = [];
  const push = (field: string, target: string | null | undefined) => {
    if (typeof target === 'string') out.push({ field, target });
  };
  const b = block as unknown as Record<string, unknown>;
  for (const field of ['next', 'invalidNext', 'timeoutNext', 'defaultNext', 'errorNext']) push(field, b[field] as string | null | undefined);
  if (block.type === 'menu') for (const [key, target] of Object.entries(block.branches)) push(`branches.${key}`, target);
  if (block.type === 'condition') block.cases.forEach((c, i) => push(`cases.${i}.next`, c.next));
  return out;
}

/** Names a block creates during a call (menu/record/optout saveAs, http saveAs, setvar). */
export function createdNames(block: FlowBlock): string[] {
  switch (block.type) {
    case 'menu':
    case 'optout':
      return block.saveAs ? [block.saveAs] : [];
    case 'record':
      return block.saveAs ? [block.saveAs, `${block.saveAs}_duration`] : [];
    case 'http':
      return (block.saveAs ?? []).map((s) => s.var);
    case 'setvar':
      return block.assignments.map((a) => a.name);
    default:
      return [];
  }
}

/** Every `{{name}}` in a value's strings (link fields never hold braces, so they add nothing). */
export function templateRefs(value: unknown, into: Set<string> = new Set()): Set<string> {
  if (typeof value === 'string') {
    for (const m of value.matchAll(VARIABLE_REF)) into.add(m[1]!);
  } else if (Array.isArray(value)) {
    for (const v of value) templateRefs(v, into);
  } else if (isObject(value)) {
    for (const v of Object.values(value)) templateRefs(v, into);
  }
  return into;
}

/**
 * The flow's `variables` (spec): names referenced as `{{name}}` anywhere in the blocks but not
 * created during the call and not set by the platform itself; sorted.
 */
export function deriveVariables(graph: FlowGraph): string[] {
  const refs = new Set<string>();
  const created = new Set<string>(RESERVED_VARIABLES);
  for (const block of Object.values(graph.nodes)) {
    templateRefs(block, refs);
    for (const n of createdNames(block)) created.add(n);
  }
  return [...refs].filter((n) => !created.has(n)).sort();
}

/** Re-reads a stored graph: the filled FlowGraph when it is valid under the current schema, else null. */
export function readStoredGraph(stored: unknown): FlowGraph | null {
  const parsed = parseGraph(stored);
  return parsed.ok ? parsed.graph : null;
}
