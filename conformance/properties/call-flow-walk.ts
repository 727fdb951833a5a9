// Generated phone scripts drive generated call flows, and the `callflow.ended` Variables equal a
// reference walk of the graph written here, independently of any implementation: the kit walks
// the same graph with the same keys and start variables and predicts every collected value
// (menu keys, setvar values, conditions, record URLs and lengths, caller/callee, start
// variables). Graphs are acyclic (links point only to later blocks), so every call ends.
import fc from 'fast-check';
import { generatedProperty } from './harness.ts';
import type { PropertyDef } from './types.ts';

type Json = Record<string, unknown>;
type Vars = Record<string, string>;

const VARS = ['name', 'v1', 'v2', 'choice'] as const;
const WORDS = ['a', 'b', '1', '12', 'yes', ''] as const;
/** Recording links issued from this instant are plain paths (spec Limits: earlier ones were signed). */
const PLAIN_LINKS_FROM = '2026-07-28T00:00:00Z';
const KEY_ENTRIES = ['', '1', '2', '9', '12', '#'] as const;

/** A value template: plain words, sometimes a {{var}} reference (written with `lb` in requests). */
interface Template {
  parts: ({ text: string } | { ref: string })[];
}

interface Case {
  ids: string[];
  nodes: Record<string, Json>;
  start: Vars;
  keys: string[];
  speakSeconds: number;
}

const templateArb: fc.Arbitrary<Template> = fc
  .array(fc.oneof(fc.constantFrom(...WORDS).map((text) => ({ text })), fc.constantFrom(...VARS).map((ref) => ({ ref }))), { minLength: 1, maxLength: 3 })
  .map((parts) => ({ parts }));

/** How a template is written in a request body: braces built from `lb` so the kit does not read them. */
function written(t: Template): string {
  return t.parts.map((p) => ('text' in p ? p.text : `{{ lb | repeat(2) }}${p.ref}}}`)).join('');
}

function renderRef(t: Template, vars: Vars): string {
  return t.parts.map((p) => ('text' in p ? p.text : (vars[p.ref] ?? ''))).join('');
}

/** One block at position i; links go to later blocks or null. */
function blockArb(ids: string[], i: number): fc.Arbitrary<Json> {
  const later = ids.slice(i + 1);
  const link: fc.Arbitrary<string | null> = later.length === 0 ? fc.constant(null) : fc.option(fc.constantFrom(...later), { nil: null, freq: 4 });
  const saveAs = fc.option(fc.constantFrom(...VARS), { nil: undefined });
  // Branches name a block (never null), so a menu needs a later block to branch to.
  const menu = fc.record({
    type: fc.constant('menu'),
    prompt: fc.constant('Press a key'),
    branches: fc.dictionary(fc.constantFrom('1', '2', '9'), fc.constantFrom(...(later.length ? later : ['_'])), { minKeys: 1, maxKeys: 2 }),
    invalidNext: link,
    timeoutNext: link,
    maxDigits: fc.option(fc.integer({ min: 1, max: 2 }), { nil: undefined }),
    timeoutSec: fc.constant(2),
    saveAs,
  });
  const say = fc.record({ type: fc.constant('say'), text: fc.constantFrom('Hello', 'Welcome back', 'One moment'), next: link });
  return fc.oneof(
    say,
    fc.record({ type: fc.constant('pause'), seconds: fc.integer({ min: 1, max: 3 }), next: link }),
    later.length ? menu : say,
    fc.record({ type: fc.constant('record'), maxLengthSec: fc.option(fc.integer({ min: 1, max: 6 }), { nil: undefined }), playBeep: fc.boolean(), saveAs, next: link }),
    fc.record({ type: fc.constant('setvar'), tpl: fc.array(fc.tuple(fc.constantFrom(...VARS), templateArb), { minLength: 1, maxLength: 2 }), next: link }),
    fc.record({
      type: fc.constant('condition'),
      cases: fc.array(fc.record({ variable: fc.constantFrom(...VARS), op: fc.constantFrom('eq', 'ne', 'contains', 'gt', 'lt', 'exists', 'empty'), value: fc.constantFrom(...WORDS), next: link }), { minLength: 1, maxLength: 2 }),
      defaultNext: link,
    }),
    fc.record({ type: fc.constant('hangup'), message: fc.option(fc.constant('Goodbye'), { nil: undefined }) }),
  ).map((b) => Object.fromEntries(Object.entries(b).filter(([, v]) => v !== undefined)));
}

const caseArb: fc.Arbitrary<Case> = fc.integer({ min: 1, max: 7 }).chain((n) => {
  const ids = Array.from({ length: n }, (_, i) => `b${i}`);
  return fc.record({
    blocks: fc.tuple(...ids.map((_, i) => blockArb(ids, i))),
    start: fc.record({ name: fc.constantFrom('Kim', 'Lee', '7') }),
    keys: fc.array(fc.constantFrom(...KEY_ENTRIES), { maxLength: 6 }),
    speakSeconds: fc.integer({ min: 0, max: 8 }),
  }).map(({ blocks, start, keys, speakSeconds }) => ({ ids, nodes: Object.fromEntries(ids.map((id, i) => [id, blocks[i]!])) as Case['nodes'], start, keys, speakSeconds }));
});

/** The graph as sent: setvar templates become assignments written with `lb`. */
function graphOf(c: Case): Json {
  const nodes: Record<string, Json> = {};
  for (const [id, b] of Object.entries(c.nodes)) {
    if (b.type === 'setvar') {
      const { tpl, ...rest } = b as Json & { tpl: [string, Template][] };
      nodes[id] = { ...rest, assignments: tpl.map(([name, t]) => ({ name, value: written(t) })) };
    } else nodes[id] = b;
  }
  return { version: 1, start: c.ids[0], nodes };
}

function num(s: string): number | undefined {
  if (s.trim() === '') return undefined;
  const n = Number(s);
  return Number.isFinite(n) ? n : undefined;
}

function holds(vars: Vars, variable: string, op: string, value: string): boolean {
  const has = Object.prototype.hasOwnProperty.call(vars, variable);
  const v = has ? vars[variable]! : '';
  if (op === 'eq') return v === value;
  if (op === 'ne') return v !== value;
  if (op === 'contains') return v.includes(value);
  if (op === 'exists') return has;
  if (op === 'empty') return v === '';
  const a = num(v);
  const b = num(value);
  if (a === undefined || b === undefined) return false;
  return op === 'gt' ? a > b : a < b;
}

/** The reference walk: the variables callflow.ended must report for this graph and phone. */
export function referenceWalk(c: Case, ctx: { accountId: string; callId: string; caller: string; callee: string }): Vars {
  const vars: Vars = { caller: ctx.caller, callee: ctx.callee, ...c.start };
  let at: string | null = c.ids[0]!;
  let entry = 0;
  const nextKeys = () => c.keys[entry++] ?? '';
  while (at !== null) {
    const b = c.nodes[at]! as Json & Record<string, any>;
    const id: string = at;
    switch (b.type) {
      case 'menu': {
        const keys = nextKeys().slice(0, (b.maxDigits as number | undefined) ?? 1);
        if (keys === '') {
          at = b.timeoutNext ?? null;
          break;
        }
        if (b.saveAs) vars[b.saveAs] = keys;
        at = Object.prototype.hasOwnProperty.call(b.branches, keys) ? (b.branches[keys] ?? null) : (b.invalidNext ?? null);
        break;
      }
      case 'record': {
        nextKeys();
        const seconds = String(Math.min(c.speakSeconds, (b.maxLengthSec as number | undefined) ?? 60));
        const url = `/v1/accounts/${ctx.accountId}/recordings/${ctx.callId}/verb/${b.saveAs ?? id}`;
        if (b.saveAs) {
          vars[b.saveAs] = url;
          vars[`${b.saveAs}_duration`] = seconds;
        }
        vars.recording_url = url;
        vars.recording_duration = seconds;
        at = b.next ?? null;
        break;
      }
      case 'setvar':
        for (const [name, t] of b.tpl as [string, Template][]) vars[name] = renderRef(t, vars);
        at = b.next ?? null;
        break;
      case 'condition': {
        const hit = (b.cases as { variable: string; op: string; value: string; next: string | null }[]).find((k) => holds(vars, k.variable, k.op, k.value));
        at = hit ? hit.next : (b.defaultNext ?? null);
        break;
      }
      case 'hangup':
        at = null;
        break;
      default:
        at = b.next ?? null;
    }
  }
  return vars;
}

function sameVars(a: Vars, b: Vars): string | undefined {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) if (a[k] !== b[k]) return `${k}: reported ${JSON.stringify(a[k])}, the reference walk gives ${JSON.stringify(b[k])}`;
  return undefined;
}

export const callFlowWalkProperty: PropertyDef = generatedProperty<Case>({
  id: 'call-flow-walk',
  description: 'generated phone scripts drive generated call flows; callflow.ended Variables equal an independent reference walk of the graph',
  clauses: [
    'events.callflow-ended.variables.menu',
    'events.callflow-ended.variables.setvar',
    'events.callflow-ended.variables.record',
    'events.callflow-ended.variables.start-variables',
    'events.callflow-ended.variables.caller-callee',
    'events.callflow-ended.variables.recording-url',
  ],
  tags: ['calls', 'call-flows', 'property'],
  requires: ['writes', 'accounts', 'carrier', 'phone-calls', 'clock', 'receiver'],
  level: 'sim',
  numRuns: 40,
  arbitrary: caseArb,
  drive: async (v, c) => {
    c.set('lb', '{');
    const callee = c.number(0);
    c.set('callee', callee);
    // Today's links are plain paths; those issued before 2026-07-28 were signed (spec Limits), so
    // the walk runs after that date (the clock only moves forward: only when it is still before).
    await c.exec({ control: { method: 'GET', path: '/clock' }, save: { clockNow: 'body.now' } });
    const clockNow = c.saved('clockNow');
    if (typeof clockNow === 'string' && Date.parse(clockNow) < Date.parse(PLAIN_LINKS_FROM)) await c.exec({ control: { advance: { to: PLAIN_LINKS_FROM } } });
    await c.exec({ control: { createAccount: { numbers: 1 }, as: 'shop' } as Json });
    const flow = await c.exec({
      name: 'create the generated flow',
      request: { operationId: 'createCallFlow', as: 'shop', body: { name: 'generated walk', graph: graphOf(v) } },
      expectSim: { status: 201 },
      save: { flow: 'body.callFlowId' },
    });
    if (flow.status === 'failed') return undefined;
    await c.exec({ request: { operationId: 'createWebhook', as: 'shop', body: { url: '{{ receiver.url }}/events/callflow.ended', events: ['callflow.ended'] } } });
    await c.exec({ control: { method: 'POST', path: '/carrier/scripts', body: { number: '{{ callee }}', types: ['call'], outcome: 'delivered', keys: v.keys, speakSeconds: v.speakSeconds } }, save: { script: 'body.scriptId' } });
    c.afterCase({ control: { method: 'DELETE', path: '/carrier/scripts/{{ script }}' } });
    await c.exec({
      name: 'place the call',
      request: { operationId: 'createCall', as: 'shop', body: { To: '{{ callee }}', From: '{{ shop.numbers[0] }}', CallFlowId: '{{ flow }}', Variables: v.start } },
      expectSim: { status: 201 },
      save: { call: 'body.callId' },
    });
    await c.exec({ control: { advance: { seconds: 3600 } } });
    await c.exec({
      name: 'callflow.ended arrives',
      webhook: { event: 'callflow.ended', fields: { CallId: '{{ call }}' }, within: { seconds: 0 }, account: 'shop' },
      expectSim: { count: 1, fields: { Status: 'completed' } },
      save: { ended: 'fields' },
    });
    const ended = c.saved('ended') as Record<string, string> | undefined;
    const shop = c.saved('shop') as { accountId: string; numbers: string[] } | undefined;
    const callId = c.saved('call') as string | undefined;
    if (!ended || !shop || !callId) return 'callflow.ended did not arrive';
    const want = referenceWalk(v, { accountId: shop.accountId, callId, caller: shop.numbers[0]!, callee });
    return sameVars(JSON.parse(ended.Variables!) as Vars, want);
  },
});

