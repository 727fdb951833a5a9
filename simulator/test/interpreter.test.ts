// The flow interpreter alone: a pure step function, tested by tables of (graph, inputs) ->
// (effects, variables, end).
import { describe, expect, it } from 'vitest';
import { atPath, initialState, matches, render, speechSeconds, step, type Effect, type WalkInput, type WalkState } from '../resources/calls/interpreter.ts';
import type { FlowBlock, FlowGraph } from '../resources/calls/flow-graph.ts';

const flow = (nodes: Record<string, FlowBlock>, start = Object.keys(nodes)[0]!): FlowGraph => ({ version: 1, start, nodes });

/** Runs inputs in order from the start; returns every effect (ends included) and the last state. */
function run(graph: FlowGraph, inputs: WalkInput[], vars: Record<string, string> = { caller: '07012340001', callee: '01011112222' }) {
  let state: WalkState = initialState(vars);
  const effects: Effect[] = [];
  for (const input of [{ kind: 'start' } as WalkInput, ...inputs]) {
    const r = step(graph, state, input);
    state = r.state;
    effects.push(...r.effects);
  }
  return { state, effects, types: effects.map((e) => e.type) };
}

describe('flow interpreter', () => {
  it('renders {{var}} with unsupplied names as empty', () => {
    expect(render('Hi {{name}}, {{ missing }}!{{x}', { name: 'Kim' })).toBe('Hi Kim, !{{x}');
    expect(speechSeconds('')).toBe(1);
    expect(speechSeconds('a'.repeat(21))).toBe(3);
  });

  it.each([
    ['eq', 'a', 'a', true],
    ['eq', 'a', 'b', false],
    ['ne', 'a', 'b', true],
    ['contains', 'hello', 'ell', true],
    ['contains', 'hello', 'xyz', false],
    ['gt', '10', '9', true],
    ['gt', '9', '10', false],
    ['lt', '9', '10', true],
    ['gt', 'abc', '1', false],
    ['lt', '', '1', false],
    ['exists', 'x', undefined, true],
    ['empty', '', undefined, true],
    ['empty', 'x', undefined, false],
  ] as const)('condition %s on %j against %j is %s', (op, value, operand, want) => {
    expect(matches({ v: value }, 'v', op, operand)).toBe(want);
  });

  it('exists and empty on a variable never set', () => {
    expect(matches({}, 'nope', 'exists', undefined)).toBe(false);
    expect(matches({}, 'nope', 'empty', undefined)).toBe(true);
  });

  it('extracts JSON paths as strings', () => {
    const body = { data: { items: [{ name: 'A', n: 2, ok: true }] }, nil: null };
    expect(atPath(body, 'data.items[0].name')).toBe('A');
    expect(atPath(body, '$.data.items[0].n')).toBe('2');
    expect(atPath(body, 'data.items[0].ok')).toBe('true');
    expect(atPath(body, 'data.items')).toBe('[{"name":"A","n":2,"ok":true}]');
    expect(atPath(body, 'nil')).toBe('null');
    expect(atPath(body, 'data.nothing')).toBeUndefined();
  });

  it('say, play and pause wait; the next block follows when the time is up; a null link ends completed', () => {
    const g = flow({ a: { type: 'say', text: 'Hi {{callee}}', next: 'b' }, b: { type: 'play', url: 'https://x/a.wav', next: 'c' }, c: { type: 'pause', seconds: 7, next: null } });
    const r = run(g, [{ kind: 'elapsed' }, { kind: 'elapsed' }, { kind: 'elapsed' }]);
    expect(r.effects).toEqual([
      { type: 'say', blockId: 'a', text: 'Hi 01011112222' },
      { type: 'wait', seconds: 2 },
      { type: 'play', blockId: 'b', url: 'https://x/a.wav' },
      { type: 'wait', seconds: 5 },
      { type: 'wait', seconds: 7 },
      { type: 'end', status: 'completed', reason: null },
    ]);
    expect(r.state.ended).toBe('completed');
  });

  it.each([
    ['1', 'one', { choice: '1' }],
    ['7', 'invalid', { choice: '7' }],
    ['', 'timeout', {}],
    ['12', 'one', { choice: '1' }], // cut to maxDigits (1)
  ])('menu with keys %j goes to %s', (keys, where, vars) => {
    const g = flow({
      m: { type: 'menu', prompt: 'Press', branches: { '1': 'one' }, invalidNext: 'invalid', timeoutNext: 'timeout', saveAs: 'choice' },
      one: { type: 'setvar', assignments: [{ name: 'went', value: 'one' }], next: null },
      invalid: { type: 'setvar', assignments: [{ name: 'went', value: 'invalid' }], next: null },
      timeout: { type: 'setvar', assignments: [{ name: 'went', value: 'timeout' }], next: null },
    });
    const r = run(g, [{ kind: 'keys', keys }]);
    expect(r.effects[0]).toEqual({ type: 'listen', blockId: 'm', prompt: 'Press', maxDigits: 1, timeoutSec: 5 });
    expect(r.state.vars).toEqual({ caller: '07012340001', callee: '01011112222', ...vars, went: where });
    expect(r.state.ended).toBe('completed');
  });

  it('record stores the URL and length under its name and as recording_url/recording_duration', () => {
    const g = flow({ r: { type: 'record', saveAs: 'memo', next: 'r2' }, r2: { type: 'record', next: null } });
    const r = run(g, [
      { kind: 'recorded', keys: '#', seconds: 3, url: '/rec/memo' },
      { kind: 'recorded', keys: '', seconds: 4, url: '/rec/r2' },
    ]);
    expect(r.effects[0]).toEqual({ type: 'record', blockId: 'r', name: 'memo', prompt: '', maxLengthSec: 60, playBeep: true, finishKey: 'any' });
    expect(r.effects[1]).toMatchObject({ type: 'record', name: 'r2' });
    expect(r.state.vars).toMatchObject({ memo: '/rec/memo', memo_duration: '3', recording_url: '/rec/r2', recording_duration: '4' });
  });

  it('http: a JSON 2xx saves its paths and goes next; errors, timeouts and garbage take errorNext', () => {
    const g = flow({
      h: { type: 'http', method: 'post', url: 'https://api.test/{{callee}}', headers: { 'X-A': '{{caller}}' }, body: { who: '{{callee}}' }, saveAs: [{ var: 'name', path: 'data.name' }], next: 'ok', errorNext: 'err' },
      ok: { type: 'setvar', assignments: [{ name: 'went', value: 'ok' }], next: null },
      err: { type: 'setvar', assignments: [{ name: 'went', value: 'err' }], next: null },
    });
    const good = run(g, [{ kind: 'http', status: 200, body: '{"data":{"name":"Lee"}}' }]);
    expect(good.effects[0]).toEqual({ type: 'http', blockId: 'h', method: 'POST', url: 'https://api.test/01011112222', headers: { 'X-A': '07012340001' }, body: '{"who":"01011112222"}' });
    expect(good.state.vars).toMatchObject({ name: 'Lee', http_status: '200', went: 'ok' });
    for (const [status, body, httpStatus] of [[500, '{}', '500'], [null, null, undefined], [200, '<html>', '200'], [302, '', '302']] as const) {
      const bad = run(g, [{ kind: 'http', status, body }]);
      expect(bad.state.vars.went).toBe('err');
      expect(bad.state.vars.http_status).toBe(httpStatus);
      expect(bad.state.vars).not.toHaveProperty('name');
    }
  });

  it('message, optout, setvar and condition run without waiting, in order', () => {
    const g = flow({
      s: { type: 'setvar', assignments: [{ name: 'a', value: '5' }, { name: 'b', value: '{{a}}0' }], next: 'c' },
      c: { type: 'condition', cases: [{ variable: 'b', op: 'lt', value: '10', next: 'no' }, { variable: 'b', op: 'gt', value: '{{a}}', next: 'm' }], defaultNext: 'no' },
      m: { type: 'message', body: 'b={{b}}', next: 'o' },
      o: { type: 'optout', saveAs: 'out', next: null },
      no: { type: 'hangup' },
    });
    const r = run(g, []);
    expect(r.effects).toEqual([
      { type: 'message', blockId: 'm', to: null, body: 'b=50', subject: null },
      { type: 'optout', blockId: 'o', number: '07012340001', channel: 'call', note: null },
      { type: 'end', status: 'completed', reason: null },
    ]);
    expect(r.state.vars).toMatchObject({ a: '5', b: '50', out: '07012340001' });
  });

  it('dial waits for the dialed leg; hangup speaks its message then ends completed', () => {
    const g = flow({ d: { type: 'dial', target: { kind: 'number', value: '{{callee}}' }, next: 'h' }, h: { type: 'hangup', message: 'Bye' } });
    const r = run(g, [{ kind: 'dialed', outcome: 'busy' }, { kind: 'elapsed' }]);
    expect(r.types).toEqual(['dial', 'say', 'wait', 'end']);
    expect(r.effects[0]).toEqual({ type: 'dial', blockId: 'd', kind: 'number', value: '01011112222', callerId: null, timeoutSec: 30 });
    expect(r.state.ended).toBe('completed');
  });

  it('dropped abandons at any point; inputs after the end change nothing', () => {
    const g = flow({ a: { type: 'say', text: 'x', next: null } });
    const r = run(g, [{ kind: 'dropped' }, { kind: 'elapsed' }]);
    expect(r.types).toEqual(['say', 'wait', 'end']);
    expect(r.state.ended).toBe('abandoned');
  });

  it('an input that does not fit what the walk waits for changes nothing', () => {
    const g = flow({ a: { type: 'say', text: 'x', next: null } });
    const r = run(g, [{ kind: 'keys', keys: '1' }]);
    expect(r.types).toEqual(['say', 'wait']);
    expect(r.state.waiting).toBe('timer');
  });

  it('a loop of blocks that never wait ends abandoned with a reason instead of running forever', () => {
    const g = flow({ a: { type: 'setvar', assignments: [{ name: 'x', value: '1' }], next: 'b' }, b: { type: 'condition', cases: [], defaultNext: 'a' } });
    const r = run(g, []);
    expect(r.effects).toHaveLength(1);
    expect(r.effects[0]).toMatchObject({ type: 'end', status: 'abandoned' });
  });
  it('reports the blocks each step entered, the waiting block that took the input, and the variables each set', () => {
    const graph = flow({
      ask: { type: 'menu', prompt: 'Press', branches: { '1': 'fetch' }, saveAs: 'choice', invalidNext: null, timeoutNext: null },
      fetch: { type: 'http', method: 'GET', url: 'https://x.test/{{choice}}', saveAs: [{ var: 'name', path: 'name' }], next: 'done', errorNext: null },
      done: { type: 'setvar', assignments: [{ name: 'a', value: '1' }, { name: 'b', value: '{{name}}' }], next: null },
    });
    let state = initialState({ caller: 'c' });
    const first = step(graph, state, { kind: 'start' });
    expect(first.trace).toEqual([{ blockId: 'ask', type: 'menu', resumed: false, outcome: null, set: {} }]);
    state = first.state;
    const second = step(graph, state, { kind: 'keys', keys: '1' });
    expect(second.trace).toEqual([
      { blockId: 'ask', type: 'menu', resumed: true, outcome: 'branch', set: { choice: '1' } },
      { blockId: 'fetch', type: 'http', resumed: false, outcome: null, set: {} },
    ]);
    const third = step(graph, second.state, { kind: 'http', status: 200, body: '{"name":"Lee"}' });
    expect(third.trace).toEqual([
      { blockId: 'fetch', type: 'http', resumed: true, outcome: 'ok', set: { http_status: '200', name: 'Lee' } },
      { blockId: 'done', type: 'setvar', resumed: false, outcome: null, set: { a: '1', b: 'Lee' } },
    ]);
    expect(step(graph, first.state, { kind: 'keys', keys: '' }).trace[0]).toMatchObject({ outcome: 'timeout', set: {} });
    expect(step(graph, first.state, { kind: 'keys', keys: '7' }).trace[0]).toMatchObject({ outcome: 'invalid', set: { choice: '7' } });
    expect(step(graph, second.state, { kind: 'http', status: 500, body: '' }).trace[0]).toMatchObject({ outcome: 'error', set: { http_status: '500' } });
    // An input the walk is not waiting for is ignored and traces nothing.
    expect(step(graph, first.state, { kind: 'elapsed' }).trace).toEqual([]);
  });
});
