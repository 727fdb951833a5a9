// Calls through the API: placing, progression on the virtual clock, the flow walk, the
// callflow.ended webhook, hang-up, refusals and list filters.
import { afterEach, describe, expect, it } from 'vitest';
import { ACME, harness } from './helpers.ts';
import { voiceSteps } from './voice-steps.ts';
import { closeAllReceivers, startReceiver } from './receivers.ts';
import type { FlowGraph } from '../resources/calls/flow-graph.ts';
import { runtimeOf } from '../internal.ts';

afterEach(closeAllReceivers);

/** A simulator plus helpers: flows are created through the API (`flow` answers the id). */
function sim() {
  const h = harness();
  const rt = runtimeOf(h.sim);
  const { flow, script, advance } = voiceSteps(h);
  return { ...h, rt, flow, script, advance };
}

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

describe('calls', () => {
  it('a call rings, connects, walks its flow and ends; callflow.ended carries the variables', async () => {
    const h = sim();
    const CF1 = await h.flow(MENU_FLOW);
    const hook = await startReceiver();
    await h.call('POST', h.acme('/webhooks'), { url: hook.url, events: ['callflow.ended'] });
    await h.script({ number: '010-2000-0001', keys: ['1'], delaySeconds: 4 });

    const created = await h.call('POST', h.acme('/calls'), { To: '010-2000-0001', From: '070-1234-0001', CallFlowId: CF1, Variables: { name: 'Kim', n: 3 } });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ status: 'queued', to: '01020000001', from: '07012340001', direction: 'outbound', duration: null, dateUpdated: null, transfers: [] });
    const id = created.json.callId as string;
    expect(id).toMatch(/^CA[0-9a-f]{32}$/);

    await h.advance(1);
    expect((await h.call('GET', h.acme(`/calls/${id}`))).json.status).toBe('ringing');
    await h.advance(4); // answered 1 + 4 s after placing
    const live = (await h.call('GET', h.acme(`/calls/${id}`))).json;
    expect(live).toMatchObject({ status: 'in-progress', duration: null, hangupCause: null });

    await h.advance(120);
    await h.sim.webhooks.settle();
    const ended = (await h.call('GET', h.acme(`/calls/${id}`))).json;
    // "Hello Kim" 1 s + the 20-character prompt 2 s + keys 1 s + "Goodbye" 1 s = 5 s connected.
    expect(ended).toMatchObject({ status: 'completed', duration: 5, hangupCause: 'normal_clearing', hangupCauseQ850: 16, sipResponseCode: 200, hangupSource: 'caller', answeredBy: null });
    expect(Date.parse(ended.dateUpdated) - Date.parse(ended.dateCreated)).toBe((1 + 4 + 5) * 1000); // setup, ring, talk

    expect(hook.requests).toHaveLength(1);
    const f = hook.requests[0]!.fields;
    expect(f).toMatchObject({ CallId: id, AccountId: ACME.accountId, From: '07012340001', To: '01020000001', Direction: 'outbound', Event: 'callflow.ended', FlowId: CF1, Status: 'completed' });
    expect(JSON.parse(f.Variables!)).toEqual({ caller: '07012340001', callee: '01020000001', name: 'Kim', n: '3', choice: '1', booked: 'yes-1' });
    expect(f).not.toHaveProperty('VariablesTruncated');

    const phone = await h.sim.control.request<any>('GET', '/carrier/phones/010-2000-0001');
    expect(phone.calls[0]).toMatchObject({ callId: id, texts: ['Hello Kim', 'Press 1 for bookings', 'Goodbye'], entered: ['1'] });
  });

  it('the callee hanging up mid-flow abandons it with what was collected so far', async () => {
    const h = sim();
    const CF1 = await h.flow(MENU_FLOW);
    const hook = await startReceiver();
    await h.call('POST', h.acme('/webhooks'), { url: hook.url, events: ['callflow.ended'] });
    await h.script({ number: '010-2000-0002', keys: ['1'], hangupAfterSeconds: 2 });
    const id = (await h.call('POST', h.acme('/calls'), { To: '010-2000-0002', From: '070-1234-0001', CallFlowId: CF1 })).json.callId;
    await h.advance(60);
    await h.sim.webhooks.settle();
    const ended = (await h.call('GET', h.acme(`/calls/${id}`))).json;
    expect(ended).toMatchObject({ status: 'completed', duration: 2, hangupSource: 'callee', hangupCause: 'normal_clearing' });
    expect(hook.requests[0]!.fields.Status).toBe('abandoned');
    expect(JSON.parse(hook.requests[0]!.fields.Variables!)).toEqual({ caller: '07012340001', callee: '01020000002' });
  });

  it('every carrier outcome ends the call with consistent fields', async () => {
    const h = sim();
    const CF1 = await h.flow(MENU_FLOW);
    const cases = [
      ['010-3000-0001', 'busy', { status: 'busy', hangupCause: 'user_busy', hangupCauseQ850: 17, sipResponseCode: 486, hangupSource: 'callee' }],
      ['010-3000-0002', 'no-answer', { status: 'no-answer', hangupCause: 'no_answer', hangupCauseQ850: 19, sipResponseCode: 480, hangupSource: 'carrier' }],
      ['010-3000-0003', 'failed', { status: 'failed', hangupCause: 'network_out_of_order', hangupCauseQ850: 38, sipResponseCode: 503, hangupSource: 'carrier' }],
      ['010-3000-0004', 'rejected', { status: 'rejected', hangupCause: 'call_rejected', hangupCauseQ850: 21, sipResponseCode: 603, hangupSource: 'callee' }],
    ] as const;
    const ids: string[] = [];
    for (const [number, outcome] of cases) {
      await h.script({ number, outcome });
      ids.push((await h.call('POST', h.acme('/calls'), { To: number, From: '070-1234-0001', CallFlowId: CF1 })).json.callId);
    }
    await h.advance(60);
    for (const [i, [, , want]] of cases.entries()) {
      const got = (await h.call('GET', h.acme(`/calls/${ids[i]}`))).json;
      expect(got).toMatchObject({ ...want, duration: 0 });
      expect(got.dateUpdated).not.toBeNull();
    }
    // no-answer rings the whole Timeout (30 s default) after the 1 s setup.
    const na = (await h.call('GET', h.acme(`/calls/${ids[1]}`))).json;
    expect(Date.parse(na.dateUpdated) - Date.parse(na.dateCreated)).toBe(31_000);
  });

  it('hanging up: cancels a ringing call, completes a connected one, 409 once ended', async () => {
    const h = sim();
    const CF1 = await h.flow({ version: 1, start: 'p', nodes: { p: { type: 'pause', seconds: 60, next: null } } });
    const a = (await h.call('POST', h.acme('/calls'), { To: '010-4000-0001', From: '070-1234-0001', CallFlowId: CF1 })).json.callId;
    const b = (await h.call('POST', h.acme('/calls'), { To: '010-4000-0002', From: '070-1234-0001', CallFlowId: CF1 })).json.callId;
    await h.advance(1);
    const cancel = await h.call('POST', h.acme(`/calls/${a}`), { Status: 'completed' });
    expect(cancel.status).toBe(200);
    expect(cancel.json).toEqual({ callId: a, status: 'canceled' });
    await h.advance(15);
    const hang = await h.call('POST', h.acme(`/calls/${b}`), { Status: 'completed' });
    expect(hang.json).toEqual({ callId: b, status: 'completed' });
    const got = (await h.call('GET', h.acme(`/calls/${b}`))).json;
    expect(got).toMatchObject({ duration: 10, hangupSource: 'caller' });
    const again = await h.call('POST', h.acme(`/calls/${a}`), { Status: 'completed' });
    expect(again.status).toBe(409);
    expect(again.json).toMatchObject({ code: 'hangup_not_applicable', status: 'canceled' });
    expect((await h.call('GET', h.acme(`/calls/${a}`))).json).toMatchObject({ status: 'canceled', hangupCause: 'caller_canceled', duration: 0 });
  });

  it('refusals store nothing', async () => {
    const h = sim();
    const CF1 = await h.flow(MENU_FLOW);
    const BROKEN = await h.flow(MENU_FLOW, 'broken');
    await h.sim.control.request('PUT', `/accounts/${ACME.accountId}/call-flows/${BROKEN}/stored`, { graph: { version: 0 } });
    const base = { To: '010-5000-0001', From: '070-1234-0001', CallFlowId: CF1 };
    const cases: [Record<string, unknown>, number, string | undefined][] = [
      [{ ...base, From: '070-9999-0000' }, 400, 'from_not_registered'],
      [{ ...base, To: '12' }, 400, 'INVALID_PHONE_NUMBER'],
      [{ ...base, CallFlowId: 'nope' }, 404, 'call_flow_not_found'],
      [{ ...base, CallFlowId: BROKEN }, 409, 'call_flow_unreadable'],
      [{ ...base, Url: 'https://x.test/v' }, 400, undefined],
      [{ ...base, Variables: { caller: 'x' } }, 400, 'VALIDATION'],
      [{ ...base, Variables: { '1x': 'x' } }, 400, 'VALIDATION'],
      [{ To: base.To, From: base.From, Variables: { a: 'b' } }, 400, 'VALIDATION'],
      [{ ...base, StatusCallbackEvent: 'initiated bogus' }, 400, 'VALIDATION'],
      [{ ...base, To: '010-5555-0101' }, 201, undefined], // opted out on message only: calls are fine
    ];
    for (const [body, status, code] of cases) {
      const r = await h.call('POST', h.acme('/calls'), body);
      expect([JSON.stringify(body), r.status]).toEqual([JSON.stringify(body), status]);
      if (code) expect(r.json.code).toBe(code);
    }
    await h.call('POST', h.acme('/blocked-recipients'), { number: '010-5000-0009', channel: 'call' });
    const blocked = await h.call('POST', h.acme('/calls'), { ...base, To: '010-5000-0009' });
    expect([blocked.status, blocked.json.code]).toEqual([422, 'recipient_blocked']);
    expect((await h.call('GET', h.acme('/calls'))).json.meta.total).toBe(1);
    expect((await h.call('GET', h.bistro('/calls/' + 'CA' + '0'.repeat(32)), undefined, { key: 'sk_test_bistro_9a8b7c6d5e4f3a2b' })).status).toBe(404);
  });

  it('an AgentId the account does not have and a bad Url are refused with documented 4xx codes naming the field, and store nothing', async () => {
    const h = sim();
    const base = { To: '010-2000-0009', From: '070-1234-0001' };
    const agent = await h.call('POST', h.acme('/calls'), { ...base, AgentId: 'cmagent123', CallContext: { Instruction: 'book a table' } });
    expect(agent.status).toBe(404);
    expect(agent.json).toMatchObject({ code: 'agent_not_found', errors: [{ path: 'AgentId' }] });
    expect(agent.json.error).toContain('cmagent123');
    const badUrl = await h.call('POST', h.acme('/calls'), { ...base, Url: 'ftp://example.com/voiceml' });
    expect(badUrl.status).toBe(400);
    expect(badUrl.json).toMatchObject({ code: 'VALIDATION', errors: [{ path: 'Url' }] });
    const neither = await h.call('POST', h.acme('/calls'), base);
    expect(neither.status).toBe(409);
    expect(neither.json.code).toBe('agent_not_connected');
    expect((await h.call('GET', h.acme('/calls'))).json.data).toEqual([]);

    const doc = (await h.call('GET', '/openapi.json', undefined, { key: null })).json;
    const responses = doc.paths['/v1/accounts/{accountId}/calls'].post.responses;
    expect(responses['404']['x-error-codes']).toContain('agent_not_found');
    expect(responses['400']['x-error-codes']).not.toContain('voiceml_not_simulated'); // VoiceML is simulated (docs/decisions.md "VoiceML")
    expect(responses['409']['x-error-codes']).toContain('agent_not_connected');
  });

  it('a snapshot taken mid-call restores the walk and the call ends the same way', async () => {
    const h = sim();
    const CF1 = await h.flow(MENU_FLOW);
    await h.script({ number: '010-5100-0001', keys: ['1'] });
    const id = (await h.call('POST', h.acme('/calls'), { To: '010-5100-0001', From: '070-1234-0001', CallFlowId: CF1, Variables: { name: 'Park' } })).json.callId;
    await h.advance(8); // answered at 6 s, in the middle of the menu prompt
    const snap = await h.sim.control.snapshot();
    await h.advance(60);
    const first = (await h.call('GET', h.acme(`/calls/${id}`))).json;
    await h.sim.control.restore(snap);
    expect((await h.call('GET', h.acme(`/calls/${id}`))).json.status).toBe('in-progress');
    await h.advance(60);
    expect((await h.call('GET', h.acme(`/calls/${id}`))).json).toEqual(first);
    const deliveries = await h.sim.control.request<any>('GET', '/carrier/deliveries?number=010-5100-0001');
    expect(deliveries.data[0]).toMatchObject({ owner: 'call', ownerId: id, type: 'call', status: 'delivered', callee: { keys: ['1'], answeredBy: 'human' } });
  });
});
