// Graph validation, default filling and `variables`, table-driven against graph.ts alone.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { deriveVariables, parseGraph, readStoredGraph } from '../resources/call-flows/graph.ts';
import { render } from '../resources/calls/interpreter.ts';

const hello = {
  version: 1,
  start: 'greet',
  nodes: {
    greet: { type: 'say', text: '안녕하세요 {{name}}님', next: 'bye' },
    bye: { type: 'hangup', message: '감사합니다' },
  },
};

function issuesOf(graph: unknown) {
  const r = parseGraph(graph);
  if (r.ok) throw new Error('expected issues, the graph validated');
  return r.issues;
}

describe('parseGraph fills defaults', () => {
  it('fills the voice, menu, record, dial and optout defaults', () => {
    const r = parseGraph({
      version: 1,
      start: 'm',
      nodes: {
        m: { type: 'menu', prompt: 'press', branches: { '1': 'r' }, invalidNext: null, timeoutNext: null },
        r: { type: 'record', next: 'd' },
        d: { type: 'dial', target: { kind: 'number', value: '010-1234-5678' }, next: 'o' },
        o: { type: 'optout', next: null },
      },
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.graph.voice).toEqual({ provider: 'google', language: 'ko' });
    expect(r.graph.nodes.m).toMatchObject({ maxDigits: 1, timeoutSec: 5 });
    expect(r.graph.nodes.r).toMatchObject({ maxLengthSec: 60, playBeep: true, finishKey: 'any' });
    expect(r.graph.nodes.d).toMatchObject({ timeoutSec: 30 });
    expect(r.graph.nodes.o).toMatchObject({ number: '{{caller}}', channel: 'call' });
  });

  it('drops the canvas and maps the spec placeholders to the wire providers', () => {
    const r = parseGraph({ ...hello, ui: { greet: { x: 1, y: 2 } }, voice: { provider: 'tts_paid_2', voiceId: 'abcdefghij0123456789', model: 'eleven_v3' } });
    expect(r.ok && r.graph).toMatchObject({ voice: { provider: 'elevenlabs', voiceId: 'abcdefghij0123456789', model: 'eleven_v3', language: 'ko' } });
    expect(r.ok && 'ui' in r.graph).toBe(false);
  });
});

describe('parseGraph issues name exact paths', () => {
  const cases: [string, unknown, string][] = [
    ['unknown block field', { ...hello, nodes: { ...hello.nodes, greet: { ...hello.nodes.greet, timeoutSecs: 3 } } }, 'nodes.greet.timeoutSecs'],
    ['unknown graph field', { ...hello, extra: 1 }, 'extra'],
    ['dangling link', { ...hello, nodes: { ...hello.nodes, greet: { ...hello.nodes.greet, next: 'nowhere' } } }, 'nodes.greet'],
    ['missing link', { ...hello, nodes: { ...hello.nodes, greet: { type: 'say', text: 'x' } } }, 'nodes.greet.next'],
    ['missing start', { version: 1, nodes: hello.nodes }, 'start'],
    ['start not a block', { ...hello, start: 'nope' }, 'start'],
    ['pause bound', { ...hello, nodes: { ...hello.nodes, greet: { type: 'pause', seconds: 61, next: 'bye' } } }, 'nodes.greet.seconds'],
    ['variable name', { ...hello, nodes: { ...hello.nodes, greet: { type: 'setvar', assignments: [{ name: '1x', value: 'v' }], next: 'bye' } } }, 'nodes.greet.assignments.0.name'],
    ['model on google', { ...hello, voice: { provider: 'google', model: 'x' } }, 'voice.model'],
    ['unknown type', { ...hello, nodes: { ...hello.nodes, greet: { type: 'sing' } } }, 'nodes.greet.type'],
    ['comparing op without value', { ...hello, nodes: { ...hello.nodes, greet: { type: 'condition', cases: [{ variable: 'a', op: 'eq', next: 'bye' }], defaultNext: null } } }, 'nodes.greet.cases.0.value'],
    ['link to an inherited name', { ...hello, nodes: { ...hello.nodes, greet: { ...hello.nodes.greet, next: 'constructor' } } }, 'nodes.greet'],
    ['start at an inherited name', { ...hello, start: 'toString' }, 'start'],
    ['menu key', { ...hello, nodes: { ...hello.nodes, greet: { type: 'menu', prompt: 'p', branches: { '12': 'bye' }, invalidNext: null, timeoutNext: null } } }, 'nodes.greet.branches.12'],
  ];
  it.each(cases)('%s', (_, graph, path) => {
    expect(issuesOf(graph).map((i) => i.path)).toContain(path);
  });
});

describe('block ids', () => {
  it('keeps an id like __proto__ as an ordinary block', () => {
    const nodes = JSON.parse('{"__proto__": {"type": "hangup"}, "a": {"type": "say", "text": "x", "next": "__proto__"}}');
    const r = parseGraph({ version: 1, start: 'a', nodes });
    expect(r.ok).toBe(true);
    expect(r.ok && Object.keys(r.graph.nodes)).toEqual(['__proto__', 'a']);
    expect(r.ok && JSON.parse(JSON.stringify(r.graph)).nodes.__proto__).toEqual({ type: 'hangup' });
  });
});

describe('variables', () => {
  it('lists referenced names not created during the call, sorted, without reserved names', () => {
    const r = parseGraph({
      version: 1,
      start: 'a',
      nodes: {
        a: { type: 'say', text: '{{zeta}} {{alpha}} {{caller}} {{choice}} {{rec_duration}}', next: 'm' },
        m: { type: 'menu', prompt: '{{alpha}}', branches: { '1': 'r' }, invalidNext: null, timeoutNext: null, saveAs: 'choice' },
        r: { type: 'record', next: 'h', saveAs: 'rec' },
        h: { type: 'http', method: 'GET', url: 'https://x.example/{{id}}', next: null, errorNext: null, saveAs: [{ var: 'got', path: 'a.b' }] },
      },
    });
    expect(r.ok && deriveVariables(r.graph)).toEqual(['alpha', 'id', 'zeta']);
  });

  it('renders unsupplied names as empty strings', () => {
    expect(render('hi {{a}} {{b}}!', { a: 'x' })).toBe('hi x !');
  });

  it('reads a stored graph that no longer validates as null', () => {
    expect(readStoredGraph({ version: 0, nodes: 'old' })).toBeNull();
    expect(readStoredGraph(hello)).not.toBeNull();
  });
});

// Any JSON at any depth of a graph (fast-check, fixed seed from setup.ts): parseGraph never
// throws, and each issue's parent path exists in what was sent; a graph that validates
// validates again unchanged once filled (normalisation is idempotent).
describe('parseGraph on generated input', () => {
  const parentExists = (root: unknown, path: string) => {
    let at: unknown = root;
    for (const part of path.split('.').slice(0, -1)) {
      if (at === null || typeof at !== 'object' || !Object.prototype.hasOwnProperty.call(at, part)) return false;
      at = (at as Record<string, unknown>)[part];
    }
    return at !== null && typeof at === 'object';
  };
  const blockish = fc.record(
    {
      type: fc.constantFrom('say', 'menu', 'record', 'dial', 'hangup', 'setvar', 'condition', 'http', 'optout', 'pause', 'play', 'message', 'nope'),
      text: fc.oneof(fc.string(), fc.integer()),
      next: fc.constantFrom('a', 'b', null, 'ghost', 'constructor', 7),
      seconds: fc.integer({ min: -5, max: 70 }),
      branches: fc.dictionary(fc.constantFrom('1', '#', 'x', '12'), fc.constantFrom('a', 'b', null)),
      assignments: fc.array(fc.record({ name: fc.constantFrom('ok', '9no', ''), value: fc.string() }), { maxLength: 2 }),
      cases: fc.array(fc.record({ variable: fc.constantFrom('v', '1'), op: fc.constantFrom('eq', 'exists', 'bad'), next: fc.constantFrom('a', null) }), { maxLength: 2 }),
      target: fc.oneof(fc.jsonValue({ maxDepth: 1 }), fc.record({ kind: fc.constantFrom('number', 'sip'), value: fc.constantFrom('01012345678', 'sip:x', 'nope') })),
      junk: fc.jsonValue({ maxDepth: 2 }),
    },
    { requiredKeys: [] },
  );
  const graphish = fc.record(
    {
      version: fc.constantFrom(1, 2, '1', null),
      start: fc.constantFrom('a', 'b', 'ghost', '__proto__', 5),
      voice: fc.oneof(fc.jsonValue({ maxDepth: 1 }), fc.record({ provider: fc.constantFrom('google', 'elevenlabs', 'tts_paid_1', 'x'), model: fc.constantFrom('m', undefined) }, { requiredKeys: ['provider'] })),
      nodes: fc.oneof(fc.dictionary(fc.constantFrom('a', 'b', 'c.d', '__proto__', ''), blockish, { maxKeys: 4 }), fc.jsonValue({ maxDepth: 2 })),
      ui: fc.jsonValue({ maxDepth: 1 }),
      extra: fc.jsonValue({ maxDepth: 1 }),
    },
    { requiredKeys: [] },
  );

  it('never throws, and names only real places', () => {
    fc.assert(
      fc.property(fc.oneof(graphish, fc.jsonValue({ maxDepth: 3 })), (input) => {
        const sent = JSON.parse(JSON.stringify(input ?? null));
        const r = parseGraph(sent);
        if (r.ok) {
          expect(parseGraph(JSON.parse(JSON.stringify(r.graph)))).toEqual(r);
          return;
        }
        expect(r.issues.length).toBeGreaterThan(0);
        if (typeof sent !== 'object' || sent === null || Array.isArray(sent)) {
          expect(r.issues).toEqual([{ path: '', message: expect.any(String) }]);
          return;
        }
        for (const issue of r.issues) expect(parentExists(sent, issue.path), issue.path).toBe(true);
      }),
    );
  });
});
