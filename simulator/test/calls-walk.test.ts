// The walk of a call as the control plane gives it (GET /_sim/calls/{callId}, the inspector's
// calls view): the status timeline, each block entered with the phone's keys and the variables
// after it, the callflow.ended payload exactly as the webhook received it; kept in snapshots,
// capped for flows that loop, 404 for an unknown id.
import { afterEach, describe, expect, it } from 'vitest';
import { ACME, harness } from './helpers.ts';
import { voiceSteps } from './voice-steps.ts';
import { closeAllReceivers, startReceiver } from './receivers.ts';
import type { FlowGraph } from '../resources/calls/flow-graph.ts';
import { MAX_TRACE_STEPS } from '../resources/calls/walk-trace.ts';

afterEach(closeAllReceivers);

const MENU_FLOW: FlowGraph = {
  version: 1,
  start: 'hello',
  nodes: {
    hello: { type: 'say', text: 'Hello {{name}}', next: 'menu' },
    menu: { type: 'menu', prompt: 'Press 1 for bookings', branches: { '1': 'book' }, invalidNext: 'bye', timeoutNext: 'bye', saveAs: 'choice' },
    book: { type: 'setvar', assignments: [{ name: 'booked', value: 'yes-{{choice}}' }], next: 'bye' },
    bye: { type: 'hangup', message: 'Goodbye' },
  },
};

function sim() {
  const h = harness();
  const walk = async (id: string) => (await h.call('GET', `/_sim/calls/${id}`, undefined, { key: null })).json;
  return { ...h, ...voiceSteps(h), walk };
}

const at = (s: number) => new Date(Date.parse('2026-03-02T00:00:00.000Z') + s * 1000).toISOString();

describe('the walk of a call', () => {
  it('shows the timeline, each block with the keys pressed and the variables after it, and the callflow.ended payload the webhook got', async () => {
    const h = sim();
    const hook = await startReceiver();
    await h.call('POST', h.acme('/webhooks'), { url: hook.url, events: ['callflow.ended'] });
    await h.script({ number: '010-2000-0001', keys: ['1'], delaySeconds: 4 });
    const flowId = await h.flow(MENU_FLOW);
    const id = await h.place('010-2000-0001', flowId, { Variables: { name: 'Kim' } });

    await h.advance(6);
    const live = await h.walk(id);
    expect(live.walk.status).toBe('running');
    expect(live.walk.steps.map((s: any) => s.blockId)).toEqual(['hello', 'menu']);
    expect(live.flowEnded).toBeNull();

    await h.advance(60);
    await h.sim.webhooks.settle();
    const w = await h.walk(id);
    expect(w.call).toMatchObject({ callId: id, status: 'completed', duration: 5 });
    expect(w.timeline).toEqual([
      { status: 'queued', at: at(0) },
      { status: 'ringing', at: at(1) },
      { status: 'in-progress', at: at(5) },
      { status: 'completed', at: at(10) },
    ]);
    const start = { caller: '07012340001', callee: '01020000001', name: 'Kim' };
    expect(w.walk.startVariables).toEqual(start);
    expect(w.walk.status).toBe('completed');
    expect(w.walk.omitted).toBe(0);
    expect(w.walk.steps).toEqual([
      { blockId: 'hello', type: 'say', at: at(5), heard: 'Hello Kim', action: null, keys: null, result: null, inputAt: null, set: {}, variables: start },
      {
        blockId: 'menu', type: 'menu', at: at(6), heard: 'Press 1 for bookings', action: 'wait 5 s for a key',
        keys: '1', result: 'branch', inputAt: at(9), set: { choice: '1' }, variables: { ...start, choice: '1' },
      },
      { blockId: 'book', type: 'setvar', at: at(9), heard: null, action: null, keys: null, result: null, inputAt: null, set: { booked: 'yes-1' }, variables: { ...start, choice: '1', booked: 'yes-1' } },
      { blockId: 'bye', type: 'hangup', at: at(9), heard: 'Goodbye', action: null, keys: null, result: null, inputAt: null, set: {}, variables: { ...start, choice: '1', booked: 'yes-1' } },
    ]);
    expect(w.phone).toMatchObject({ heard: ['Hello Kim', 'Press 1 for bookings', 'Goodbye'], entered: ['1'] });
    // The payload is the one the receiver got, field for field.
    expect(hook.requests).toHaveLength(1);
    expect(w.flowEnded).toEqual(hook.requests[0]!.fields);
    expect(w.flowEnded).toMatchObject({ CallId: id, FlowId: flowId, Status: 'completed', AccountId: ACME.accountId });
  });

  it('keeps a variable named __proto__ as a variable, from the start or set by the flow: said, traced and announced at the end', async () => {
    const h = sim();
    const hook = await startReceiver();
    await h.call('POST', h.acme('/webhooks'), { url: hook.url, events: ['callflow.ended'] });
    await h.script({ number: '010-2000-0002', delaySeconds: 4 });
    const flowId = await h.flow({
      version: 1,
      start: 'hello',
      nodes: {
        hello: { type: 'say', text: 'Hello {{__proto__}}', next: 'rename' },
        rename: { type: 'setvar', assignments: [{ name: '__proto__', value: 'Park' }], next: 'bye' },
        bye: { type: 'hangup', message: 'Bye {{__proto__}}' },
      },
    });
    // The name as a client sends it: an own member of the JSON object, not the prototype.
    const id = await h.place('010-2000-0002', flowId, { Variables: JSON.parse('{"__proto__":"Lee","name":"Kim"}') });
    await h.advance(60);
    await h.sim.webhooks.settle();
    const w = await h.walk(id);
    expect(JSON.stringify(w.walk.startVariables)).toBe('{"caller":"07012340001","callee":"01020000002","__proto__":"Lee","name":"Kim"}');
    expect(w.walk.steps.map((step: any) => step.heard)).toEqual(['Hello Lee', null, 'Bye Park']);
    expect(Object.getOwnPropertyDescriptor(w.walk.steps[1].set, '__proto__')?.value).toBe('Park');
    expect(hook.requests).toHaveLength(1);
    expect(w.flowEnded).toEqual(hook.requests[0]!.fields);
    expect(Object.getOwnPropertyDescriptor(JSON.parse(w.flowEnded.Variables), '__proto__')?.value).toBe('Park');
  });

  it('traces a timed-out menu and an invalid entry, survives a snapshot, and answers 404 for an unknown call', async () => {
    const h = sim();
    const flowId = await h.flow(MENU_FLOW);
    await h.script({ number: '010-2000-0002', keys: [''], times: 1 });
    await h.script({ number: '010-2000-0003', keys: ['7'], times: 1 });
    const quiet = await h.place('010-2000-0002', flowId);
    const wrong = await h.place('010-2000-0003', flowId);
    await h.advance(60);
    const q = (await h.walk(quiet)).walk.steps;
    expect(q.map((s: any) => [s.blockId, s.keys, s.result])).toEqual([['hello', null, null], ['menu', '', 'timeout'], ['bye', null, null]]);
    const menu = q[1];
    // Timed out: the 20-character prompt takes 2 s, then the 5 s timeout.
    expect(Date.parse(menu.inputAt) - Date.parse(menu.at)).toBe(7000);
    expect(menu.variables).not.toHaveProperty('choice');
    const v = (await h.walk(wrong)).walk.steps;
    expect(v.map((s: any) => [s.blockId, s.keys, s.result])).toEqual([['hello', null, null], ['menu', '7', 'invalid'], ['bye', null, null]]);
    expect(v[1].variables.choice).toBe('7');

    const before = await h.walk(quiet);
    const snapshot = await h.sim.control.snapshot();
    await h.sim.control.reset();
    expect((await h.call('GET', `/_sim/calls/${quiet}`, undefined, { key: null })).status).toBe(404);
    await h.sim.control.restore(snapshot);
    expect(await h.walk(quiet)).toEqual(before);

    const missing = await h.call('GET', '/_sim/calls/CA0000', undefined, { key: null });
    expect(missing.status).toBe(404);
    expect(missing.json.code).toBe('call_not_found');
  });

  it('keeps the first blocks of a flow that loops and counts the rest', async () => {
    const h = sim();
    const flowId = await h.flow({
      version: 1,
      start: 'a',
      nodes: {
        a: { type: 'setvar', assignments: [{ name: 'n', value: 'x' }], next: 'b' },
        b: { type: 'condition', cases: [{ variable: 'n', op: 'eq', value: 'never', next: 'a' }], defaultNext: 'a' },
      },
    });
    const id = await h.place('010-2000-0004', flowId);
    await h.advance(60);
    const w = await h.walk(id);
    expect(w.walk.status).toBe('abandoned');
    expect(w.walk.steps).toHaveLength(MAX_TRACE_STEPS);
    expect(w.walk.omitted).toBe(1000 - MAX_TRACE_STEPS);
    expect(w.flowEnded.Status).toBe('abandoned');
  });
  it('says what each kind of block did and how its input was taken; an inbound call starts ringing', async () => {
    const h = sim();
    const flowId = await h.flow({
      version: 1,
      start: 'm',
      nodes: {
        m: { type: 'message', body: 'Hi {{callee}}', next: 'p' },
        p: { type: 'pause', seconds: 2, next: 'pl' },
        pl: { type: 'play', url: 'https://cdn.example.com/hold.mp3', next: 'r' },
        r: { type: 'record', prompt: 'After the beep', maxLengthSec: 5, saveAs: 'memo', next: 'x' },
        x: { type: 'http', method: 'GET', url: 'http://user:pw@example.test/x', next: null, errorNext: 'd' },
        d: { type: 'dial', target: { kind: 'number', value: '010-0000-0486' }, next: 'o' },
        o: { type: 'optout', number: '{{caller}}', channel: 'call', next: null },
      },
    });
    expect((await h.call('PUT', h.acme('/numbers/07012340001'), { routingType: 'callflow', callFlowId: flowId })).status).toBe(200);
    const placed = await h.call('POST', '/_sim/carrier/inbound-calls', { from: '010-7000-0001', to: '070-1234-0001', keys: ['#'], speakSeconds: 3 }, { key: null });
    expect(placed.status, placed.text).toBe(201);
    await h.advance(120);
    const w = await h.walk(placed.json.callId);
    expect(w.timeline.map((t: any) => t.status)).toEqual(['ringing', 'in-progress', 'completed']);
    expect(w.walk.steps.map((s: any) => [s.blockId, s.heard, s.action, s.keys, s.result])).toEqual([
      ['m', null, 'text to the phone on the line: Hi 07012340001', null, null],
      ['p', null, 'pause 2 s', null, null],
      ['pl', null, 'play https://cdn.example.com/hold.mp3', null, null],
      ['r', 'After the beep', 'record "memo", at most 5 s', '#', '3 s recorded'],
      ['x', null, 'GET http://user:pw@example.test/x', null, 'no answer (error)'],
      ['d', null, 'dial number 010-0000-0486', null, 'busy'],
      ['o', null, 'opt 01070000001 out of call', null, null],
    ]);
    expect(w.walk.steps[3].set).toEqual({ memo: expect.stringContaining('/verb/memo'), memo_duration: '3', recording_url: expect.stringContaining('/verb/memo'), recording_duration: '3' });
    expect(w.walk.steps[6].variables).toMatchObject({ memo_duration: '3', caller: '01070000001' });
  });
});
