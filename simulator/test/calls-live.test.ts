// A call's events (listCallEvents) and live control: playIntoCall while connected to a
// transferred party, its refusals, and updateCall on ended calls.
import { describe, expect, it } from 'vitest';
import { BISTRO, harness } from './helpers.ts';
import { voiceSteps } from './voice-steps.ts';
import type { FlowGraph } from '../resources/calls/flow-graph.ts';
import { expectDocumentedAnswer } from './documented.ts';
import { runtimeOf } from '../internal.ts';

function sim() {
  const h = harness();
  const play = (id: string, body: unknown) => h.call('POST', h.acme(`/calls/${id}/actions/play`), body);
  const events = async (id: string) => (await h.call('GET', h.acme(`/calls/${id}/events`))).json.data as { id: string; event: string; detail: Record<string, unknown>; timestamp: string }[];
  return { ...h, ...voiceSteps(h), play, events };
}

/** Dials `target`, then says Bye and hangs up. */
const dial = (target: string): FlowGraph => ({ version: 1, start: 'd', nodes: { d: { type: 'dial', target: { kind: 'number', value: target }, next: 'bye' }, bye: { type: 'hangup', message: 'Bye' } } });

describe('call events', () => {
  it('the timeline: status events, each leg start/connect/end, plays; oldest first, the end last', async () => {
    const h = sim();
    const TARGET = '010-8100-0009';
    await h.script({ number: TARGET, delaySeconds: 2, hangupAfterSeconds: 30 });
    const id = await h.place('010-8100-0001', await h.flow(dial(TARGET)));
    await h.advance(10); // answered at 6 s, the leg connected at 8 s
    expect((await h.play(id, { text: 'Five minutes left' })).status).toBe(202);
    await h.advance(120);
    const list = await h.call('GET', h.acme(`/calls/${id}/events`));
    expect(list.status).toBe(200);
    expectDocumentedAnswer('GET', h.acme(`/calls/${id}/events`), list);
    const data = list.json.data as { id: string; event: string; detail: any; timestamp: string }[];
    expect(data.map((e) => [e.event, e.detail.transferStatus ?? e.detail.status ?? null])).toEqual([
      ['initiated', 'queued'],
      ['ringing', 'ringing'],
      ['answered', 'in-progress'],
      ['transfer', 'initiated'],
      ['transfer', 'connected'],
      ['play', null],
      ['transfer', 'completed'],
      ['completed', 'completed'],
    ]);
    const times = data.map((e) => Date.parse(e.timestamp));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect(new Set(data.map((e) => e.id)).size).toBe(data.length);
    expect(data[6]!.detail).toMatchObject({ transferSequence: 1, transferTo: '01081000009', transferMode: 'blind', transferDuration: 30 });
    expect(data[5]!.detail).toMatchObject({ text: 'Five minutes left', target: 'both' });
    // answered at 6 s; the leg ends at 6 + 2 + 30 s; "Bye" 1 s.
    expect(data[7]!.detail).toMatchObject({ hangupCause: 'normal_clearing', duration: 33 });
    // The same ids on every read: they name the event's place in the call, not the read.
    expect((await h.events(id)).map((e) => e.id)).toEqual(data.map((e) => e.id));
  });

  it('an inbound call is announced initiated, then ringing, as its callbacks are; one never answered ends completed with its reason', async () => {
    const h = sim();
    const flowId = await h.flow({ version: 1, start: 's', nodes: { s: { type: 'say', text: 'Hi', next: null } } });
    await h.call('PUT', h.acme('/numbers/07012340001'), { routingType: 'callflow', callFlowId: flowId });
    const { callId } = await h.sim.control.request<{ callId: string }>('POST', '/carrier/inbound-calls', { from: '010-8800-0001', to: '070-1234-0001' });
    const unanswered = await h.place('01000000480', flowId);
    await h.advance(60);
    const inbound = await h.events(callId);
    expect(inbound.map((e) => e.event)).toEqual(['initiated', 'ringing', 'answered', 'completed']);
    expect(inbound[0]).toMatchObject({ detail: { status: 'ringing', direction: 'inbound', from: '01088000001', to: '07012340001' } });
    expect(inbound[0]!.timestamp).toBe(inbound[1]!.timestamp);
    const missed = await h.events(unanswered);
    expect(missed.map((e) => e.event)).toEqual(['initiated', 'ringing', 'completed']);
    expect(missed[2]!.detail).toMatchObject({ status: 'no-answer', hangupCause: 'no_answer', hangupCauseQ850: 19, duration: 0 });
  });

  it('other parts add their events through eventSources, merged by time', async () => {
    const h = sim();
    const rt = runtimeOf(h.sim);
    rt.calls.eventSources.push((row) =>
      row.dateUpdated === null ? [] : [{ id: `${row.id}-r0`, event: 'recording.completed', detail: { seconds: 1 }, timestamp: row.dateUpdated, rank: 5, order: 0 }],
    );
    const id = await h.place('010-8600-0001', await h.flow({ version: 1, start: 's', nodes: { s: { type: 'say', text: 'Hi', next: null } } }));
    await h.advance(30);
    expect((await h.events(id)).map((e) => e.event)).toEqual(['initiated', 'ringing', 'answered', 'completed', 'recording.completed']);
  });

  it('unknown calls and other accounts\' calls are 404 call_not_found', async () => {
    const h = sim();
    const id = await h.place('010-8200-0001', await h.flow(dial('010-8200-0009')));
    const unknown = await h.call('GET', h.acme('/calls/CA00000000000000000000000000000000/events'));
    expect([unknown.status, unknown.json.code]).toEqual([404, 'call_not_found']);
    const foreign = await h.call('GET', `/v1/accounts/${BISTRO.accountId}/calls/${id}/events`, undefined, { key: BISTRO.key });
    expect([foreign.status, foreign.json.code]).toEqual([404, 'call_not_found']);
    expect((await h.call('GET', h.acme(`/calls/${id}/events`), undefined, { key: BISTRO.key })).status).toBe(403);
  });
});

describe('playIntoCall', () => {
  it('the phone hears a text played to both or the caller, not one played to the callee; 202 with a playbackId', async () => {
    const h = sim();
    const TARGET = '010-8300-0009';
    await h.script({ number: TARGET, delaySeconds: 2, hangupAfterSeconds: 60 });
    const id = await h.place('010-8300-0001', await h.flow(dial(TARGET)));
    await h.advance(10);
    const first = await h.play(id, { text: 'For the caller', target: 'caller' });
    expect(first.status).toBe(202);
    expectDocumentedAnswer('POST', h.acme(`/calls/${id}/actions/play`), first);
    expect(first.json).toMatchObject({ callId: id, status: 'playing' });
    expect(first.json.playbackId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    await h.advance(5);
    expect((await h.play(id, { text: 'For the agent', target: 'callee' })).status).toBe(202);
    await h.advance(5);
    expect((await h.play(id, { url: 'https://media.example.com/notice.mp3' })).status).toBe(202);
    const phone = await h.sim.control.request<any>('GET', '/carrier/phones/010-8300-0001');
    expect(phone.calls[0].texts).toEqual(['For the caller']);
  });

  it('refusals: 400 text and url together or neither, 404 unknown, 409 not connected / playing / ended, 422 media; nothing changes', async () => {
    const h = sim();
    const TARGET = '010-8400-0009';
    await h.script({ number: TARGET, delaySeconds: 2, hangupAfterSeconds: 60 });
    const id = await h.place('010-8400-0001', await h.flow(dial(TARGET)));
    const expectRefused = async (body: unknown, status: number, code?: string, callId = id) => {
      const r = await h.play(callId, body);
      expect([r.status, r.json.code], JSON.stringify(body)).toEqual([status, code ?? r.json.code]);
      expectDocumentedAnswer('POST', h.acme(`/calls/${callId}/actions/play`), r);
    };
    await expectRefused({ text: 'Hi' }, 409, 'CALL_NOT_CONNECTED'); // still ringing
    await h.advance(7); // answered, the leg only ringing
    await expectRefused({ text: 'Hi' }, 409, 'CALL_NOT_CONNECTED');
    await h.advance(3);
    await expectRefused({ text: 'Hi', url: 'https://media.example.com/a.mp3' }, 400);
    await expectRefused({}, 400);
    await expectRefused({ text: 'Hi', target: 'everyone' }, 400);
    await expectRefused({ text: 'Hi' }, 404, 'call_not_found', 'CA00000000000000000000000000000000');
    await expectRefused({ url: 'ftp://media.example.com/a.mp3' }, 422, 'MEDIA_UNAVAILABLE');
    const eventsBefore = (await h.events(id)).length;
    expect((await h.play(id, { text: 'A long announcement of about four seconds' })).status).toBe(202);
    await expectRefused({ text: 'Again' }, 409, 'PLAY_IN_PROGRESS');
    await h.advance(5);
    expect((await h.play(id, { text: 'Again' })).status).toBe(202);
    expect((await h.events(id)).length).toBe(eventsBefore + 2);
    const foreign = await h.call('POST', `/v1/accounts/${BISTRO.accountId}/calls/${id}/actions/play`, { text: 'x' }, { key: BISTRO.key });
    expect(foreign.status).toBe(404);
    await h.call('POST', h.acme(`/calls/${id}`), { Status: 'completed' });
    await expectRefused({ text: 'Too late' }, 409, 'CALL_NOT_CONNECTED');
  });
});

describe('updateCall on ended calls', () => {
  it('409 hangup_not_applicable carries callId and the final status; the call and its legs stay as they were', async () => {
    const h = sim();
    const TARGET = '010-8500-0009';
    await h.script({ number: TARGET, delaySeconds: 2, hangupAfterSeconds: 60 });
    const id = await h.place('010-8500-0001', await h.flow(dial(TARGET)));
    await h.advance(10);
    expect((await h.call('POST', h.acme(`/calls/${id}`), { Status: 'completed' })).json).toEqual({ callId: id, status: 'completed' });
    const before = (await h.call('GET', h.acme(`/calls/${id}`))).text;
    const again = await h.call('POST', h.acme(`/calls/${id}`), { Status: 'completed' });
    expect(again.status).toBe(409);
    expect(again.json).toMatchObject({ code: 'hangup_not_applicable', callId: id, status: 'completed' });
    expectDocumentedAnswer('POST', h.acme(`/calls/${id}`), again);
    await h.advance(120);
    expect((await h.call('GET', h.acme(`/calls/${id}`))).text).toBe(before);
    const unknown = await h.call('POST', h.acme('/calls/CA00000000000000000000000000000000'), { Status: 'completed' });
    expect([unknown.status, unknown.json.code]).toEqual([404, 'call_not_found']);
    const foreign = await h.call('POST', `/v1/accounts/${BISTRO.accountId}/calls/${id}`, { Status: 'completed' }, { key: BISTRO.key });
    expect(foreign.status).toBe(404);
  });
});
