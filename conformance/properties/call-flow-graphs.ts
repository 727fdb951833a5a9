// Generated call-flow graphs: a graph built valid by construction is accepted, and one with a
// single planted defect (unknown field, dangling link, unknown type, missing start, bad version,
// bad variable name, out-of-range number, empty text) is refused with 400, never a 5xx, and
// every entry of its `issues[]` names a real place in the graph that was sent: the parent of
// the path exists there (the last segment may be a required field that is missing). An accepted
// graph must come back as sent with the defaults filled, by the kit's own table.
import fc from 'fast-check';
import { generatedProperty } from './harness.ts';
import type { PropertyDef } from './types.ts';

type Json = Record<string, unknown>;

const IDS = ['a', 'b', 'c', 'start_1', 'node-2', 'x9'];
const VAR = fc.constantFrom('name', 'order_id', '_x', 'A1');
// Plain text only: the kit would read braces as its own interpolation in a replay file.
const TEXT = fc.stringMatching(/^[A-Za-z0-9 ,.가-힣]{1,40}$/);
const SUBJECT = fc.stringMatching(/^[A-Za-z ]{1,20}$/);
const MENU_KEYS = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '*', '#'];

const MUTATIONS = ['none', 'unknownField', 'dangling', 'badType', 'noStart', 'badVersion', 'badVarName', 'outOfRange', 'emptyText'] as const;
type Mutation = (typeof MUTATIONS)[number];

interface GraphCase {
  graph: Json;
  mutation: Mutation;
}

const opt = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

/**
 * The block arbitrary of a list of ids, built once per list: arbitraries hold no state, so a
 * case draws the same values from a shared one, and building ~20 of them (a string matcher's
 * slices among them) for every block of every case was about half of this property's CPU.
 */
const blockArbs = new Map<string, fc.Arbitrary<Json>>();
function blockArbOf(ids: string[]): fc.Arbitrary<Json> {
  let arb = blockArbs.get(ids.join(' '));
  if (!arb) blockArbs.set(ids.join(' '), (arb = blockArb(ids)));
  return arb;
}

/** A block of any type whose links point into `ids` (or null). */
function blockArb(ids: string[]): fc.Arbitrary<Json> {
  const link = fc.option(fc.constantFrom(...ids), { nil: null });
  const target = fc.constantFrom(...ids);
  return fc.oneof(
    fc.record({ type: fc.constant('say'), text: TEXT, next: link }),
    fc.record({ type: fc.constant('play'), url: fc.constant('https://cdn.example.com/hold.wav'), next: link }),
    fc.record({ type: fc.constant('pause'), seconds: fc.integer({ min: 1, max: 60 }), next: link }),
    fc.record({ type: fc.constant('message'), body: TEXT, subject: opt(SUBJECT), next: link }),
    fc.record({
      type: fc.constant('menu'),
      prompt: TEXT,
      branches: fc.dictionary(fc.constantFrom(...MENU_KEYS), target, { minKeys: 1, maxKeys: 3 }),
      invalidNext: link,
      timeoutNext: link,
      maxDigits: opt(fc.integer({ min: 1, max: 20 })),
      timeoutSec: opt(fc.integer({ min: 1, max: 60 })),
      saveAs: opt(VAR),
    }),
    fc.record({
      type: fc.constant('record'),
      next: link,
      maxLengthSec: opt(fc.integer({ min: 1, max: 600 })),
      playBeep: opt(fc.boolean()),
      finishKey: opt(fc.constantFrom('any', 'hash', 'none')),
      saveAs: opt(VAR),
    }),
    fc.record({
      type: fc.constant('dial'),
      target: fc.constantFrom({ kind: 'number', value: '01012345678' }, { kind: 'sip', value: 'sip:pbx.example.com' }),
      next: link,
      timeoutSec: opt(fc.integer({ min: 5, max: 120 })),
    }),
    fc.record({ type: fc.constant('hangup'), message: opt(TEXT) }),
    fc.record({ type: fc.constant('setvar'), assignments: fc.array(fc.record({ name: VAR, value: TEXT }), { minLength: 1, maxLength: 3 }), next: link }),
    fc.record({
      type: fc.constant('condition'),
      cases: fc.array(fc.record({ variable: VAR, op: fc.constantFrom('eq', 'ne', 'contains', 'gt', 'lt', 'exists', 'empty'), value: TEXT, next: link }), { minLength: 1, maxLength: 3 }),
      defaultNext: link,
    }),
    fc.record({
      type: fc.constant('http'),
      method: fc.constantFrom('GET', 'POST'),
      url: fc.constant('https://api.example.com/lookup'),
      next: link,
      errorNext: link,
      saveAs: opt(fc.array(fc.record({ var: VAR, path: fc.constantFrom('data.id', 'status', 'items.0.name') }), { maxLength: 2 })),
    }),
    fc.record({ type: fc.constant('optout'), next: link, channel: opt(fc.constantFrom('call', 'message')) }),
  ).map(dropUndefined);
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object') return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortKeys((v as Json)[k])]));
  return v;
}

function dropUndefined(o: Json): Json {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

const caseArb: fc.Arbitrary<GraphCase> = fc
  .integer({ min: 1, max: IDS.length })
  .chain((n) => {
    const ids = IDS.slice(0, n);
    return fc.record({
      blocks: fc.tuple(...ids.map(() => blockArbOf(ids))),
      ids: fc.constant(ids),
      mutation: fc.constantFrom(...MUTATIONS),
      victim: fc.nat({ max: n - 1 }),
      outOfRange: fc.constantFrom(0, 61),
    });
  })
  .map(({ blocks, ids, mutation, victim, outOfRange }) => {
    const nodes: Record<string, Json> = Object.fromEntries(ids.map((id, i) => [id, { ...blocks[i]! }]));
    const graph: Json = { version: 1, start: ids[0], nodes };
    const v = nodes[ids[victim]!]!;
    if (mutation === 'unknownField') v.timeoutSecs = 3;
    if (mutation === 'dangling') v.next = 'missing_block';
    if (mutation === 'badType') v.type = 'sing';
    if (mutation === 'noStart') delete graph.start;
    if (mutation === 'badVersion') graph.version = 2;
    if (mutation === 'badVarName') nodes.extra = { type: 'setvar', assignments: [{ name: '9lives', value: 'x' }], next: null };
    if (mutation === 'outOfRange') nodes.extra = { type: 'pause', seconds: outOfRange, next: null };
    if (mutation === 'emptyText') nodes.extra = { type: 'say', text: '', next: null };
    return { graph, mutation };
  });

// The kit's own table of the defaults an answer fills (spec "Call flow", reference CallFlowNode).
const DEFAULTS: Record<string, Json> = {
  menu: { maxDigits: 1, timeoutSec: 5 },
  record: { maxLengthSec: 60, playBeep: true, finishKey: 'any' },
  dial: { timeoutSec: 30 },
  optout: { number: '{{caller}}', channel: 'call' },
};

/** The graph a valid request should come back as: every default filled, the free voice in ko. */
function filled(graph: Json): Json {
  const nodes = Object.fromEntries(Object.entries(graph.nodes as Record<string, Json>).map(([id, b]) => [id, { ...(DEFAULTS[b.type as string] ?? {}), ...b }]));
  return { version: 1, start: graph.start, voice: { provider: 'google', language: 'ko' }, nodes };
}

/** Whether the parent of a dotted path exists in `root` (as an object or array). */
function parentExists(root: unknown, path: string): boolean {
  if (path === '') return false;
  const parts = path.split('.');
  let at: unknown = root;
  for (const part of parts.slice(0, -1)) {
    if (at === null || typeof at !== 'object') return false;
    if (!Object.prototype.hasOwnProperty.call(at, part)) return false;
    at = (at as Json)[part];
  }
  return at !== null && typeof at === 'object';
}

export const callFlowGraphProperty: PropertyDef = generatedProperty<GraphCase>({
  id: 'call-flow-graphs',
  description: 'generated graphs are accepted when valid by construction, and otherwise refused with 400 and issues[] naming real paths, never a 5xx',
  clauses: ['errors.400-validation', 'call-flow.block.fields-shown'],
  tags: ['call-flows', 'property'],
  requires: [],
  level: 'sim',
  numRuns: 60,
  arbitrary: caseArb,
  counts: (a) => a.id.startsWith('expect') || a.id === 'check:no-server-error',
  drive: async (v, c) => {
    const valid = v.mutation === 'none';
    await c.exec({
      name: `create a generated graph (${v.mutation})`,
      request: { operationId: 'createCallFlow', body: { name: `generated ${v.mutation}`, graph: v.graph } },
      expect: { status: valid ? { $oneOf: [200, 201] } : 400 },
      expectSim: valid ? { status: 201 } : { status: 400, body: { code: 'call_flow_invalid_graph', issues: { $length: { $gte: 1 } } } },
      save: { status: 'status', body: 'body' },
    });
    const body = c.saved('body') as { callFlowId?: string; issues?: { path: string; message: string }[] } | undefined;
    // A wrong status already failed the step's own expectations; judge the body only when it is the expected kind.
    const status = c.saved('status');
    if (!body || status !== (valid ? 201 : 400)) return undefined;
    if (valid && body.callFlowId) {
      const answered = JSON.stringify(sortKeys((body as Json).graph));
      const expected = JSON.stringify(sortKeys(filled(v.graph)));
      if (answered !== expected) return `the answered graph ${answered} is not the sent graph with its defaults filled ${expected}`;
      c.set('created', body.callFlowId);
      await c.exec({ name: 'remove it again', request: { operationId: 'deleteCallFlow', params: { callFlowId: '{{ created }}' } }, expectSim: { status: 204 } });
      return undefined;
    }
    for (const issue of body.issues ?? []) {
      if (typeof issue.path !== 'string' || !parentExists(v.graph, issue.path)) return `issue path "${issue.path}" names no place in the graph that was sent`;
    }
    return undefined;
  },
});
