// Inbound calls through the control plane (routing, blocked callers), the list filters, and
// the usage meters real calls leave.
import { afterEach, describe, expect, it } from 'vitest';
import { ACME, harness } from './helpers.ts';
import { closeAllReceivers, startReceiver } from './receivers.ts';

afterEach(closeAllReceivers);

function sim() {
  const h = harness();
  const inbound = (body: Record<string, unknown>) => h.sim.control.request<{ callId: string | null; rejected?: boolean }>('POST', '/carrier/inbound-calls', body);
  return { ...h, inbound, advance: (seconds: number) => h.sim.clock.advance({ seconds }), get: async (id: string) => (await h.call('GET', h.acme(`/calls/${id}`))).json };
}

const MENU = {
  version: 1,
  start: 'm',
  nodes: {
    m: { type: 'menu', prompt: 'Press 1', branches: { '1': 'bye' }, invalidNext: null, timeoutNext: null, saveAs: 'choice' },
    bye: { type: 'hangup', message: 'Thanks {{caller}}' },
  },
};

describe('inbound calls', () => {
  it('a number routed to a flow runs it with the caller\'s keys; callflow.ended says inbound', async () => {
    const h = sim();
    const hook = await startReceiver();
    await h.call('POST', h.acme('/webhooks'), { url: hook.url, events: ['callflow.ended'] });
    const flowId = (await h.call('POST', h.acme('/call-flows'), { name: 'in', graph: MENU })).json.callFlowId;
    expect((await h.call('PUT', h.acme('/numbers/07012340001'), { routingType: 'callflow', callFlowId: flowId })).status).toBe(200);

    const { callId } = await h.inbound({ from: '010-7000-0001', to: '070-1234-0001', keys: ['1'] });
    expect(callId).toMatch(/^CA/);
    expect(await h.get(callId!)).toMatchObject({ direction: 'inbound', status: 'ringing', from: '01070000001', to: '07012340001' });
    await h.advance(60);
    await h.sim.webhooks.settle();
    // prompt 1 s + keys 1 s + "Thanks 01070000001" 2 s
    expect(await h.get(callId!)).toMatchObject({ status: 'completed', duration: 4, hangupSource: 'callee', answeredBy: null });
    expect(hook.requests[0]!.fields).toMatchObject({ Direction: 'inbound', Status: 'completed', FlowId: flowId });
    expect(JSON.parse(hook.requests[0]!.fields.Variables!)).toEqual({ caller: '01070000001', callee: '07012340001', choice: '1' });
    const phone = await h.sim.control.request<any>('GET', '/carrier/phones/010-7000-0001');
    expect(phone.calls[0]).toMatchObject({ callId, direction: 'inbound', texts: ['Press 1', 'Thanks 01070000001'], entered: ['1'] });
  });

  it('a blocked caller is rejected before any record exists', async () => {
    const h = sim();
    const r = await h.inbound({ from: '010-9999-0001', to: '070-1234-0001' });
    expect(r).toEqual({ callId: null, rejected: true });
    expect((await h.call('GET', h.acme('/calls'))).json.meta.total).toBe(0);
  });

  it('other routings: no webhook URL rejects; an unknown number is 404; a bad number 400', async () => {
    const h = sim();
    const { callId } = await h.inbound({ from: '010-7000-0002', to: '070-1234-0001' });
    expect(await h.get(callId!)).toMatchObject({ status: 'rejected', hangupCause: 'call_rejected', hangupCauseQ850: 21, duration: 0, hangupSource: 'callee' });
    const unknown = await h.call('POST', '/_sim/carrier/inbound-calls', { from: '010-7000-0002', to: '070-9999-9999' });
    expect(unknown.status).toBe(404);
    const bad = await h.call('POST', '/_sim/carrier/inbound-calls', { from: 'abc', to: '070-1234-0001' });
    expect(bad.status).toBe(400);
    expect((await h.call('GET', h.acme('/calls'))).json.meta.total).toBe(1);
  });

  it('forward follows forwardTo to the other number\'s flow', async () => {
    const h = sim();
    const flowId = (await h.call('POST', h.acme('/call-flows'), { name: 'in', graph: MENU })).json.callFlowId;
    await h.call('PUT', h.acme('/numbers/07012340002'), { routingType: 'callflow', callFlowId: flowId });
    await h.call('PUT', h.acme('/numbers/07012340001'), { routingType: 'forward', forwardTo: '07012340002' });
    const { callId } = await h.inbound({ from: '010-7000-0003', to: '070-1234-0001', keys: ['1'] });
    await h.advance(60);
    expect(await h.get(callId!)).toMatchObject({ status: 'completed', to: '07012340001', duration: 4 });
  });
});

describe('listing calls', () => {
  it('filters: status, from/to/number (OR, any spelling), since inclusive, until exclusive, durations inclusive, hangupCause', async () => {
    const h = sim();
    const flowId = (await h.call('POST', h.acme('/call-flows'), { name: 'f', graph: { version: 1, start: 'p', nodes: { p: { type: 'pause', seconds: 10, next: null } } } })).json.callFlowId;
    await h.sim.control.request('POST', '/carrier/scripts', { number: '010-8000-0002', outcome: 'busy', types: ['call'] });
    const place = async (to: string) => (await h.call('POST', h.acme('/calls'), { To: to, From: '070-1234-0001', CallFlowId: flowId })).json.callId as string;
    const a = await place('010-8000-0001');
    await h.advance(100);
    const b = await place('010-8000-0002');
    await h.advance(100);
    const c = await place('010-8000-0003');
    const ids = async (q: string) => (await h.call('GET', h.acme(`/calls${q}`))).json.data.map((x: { callId: string }) => x.callId);

    expect(await ids('')).toEqual([c, b, a]);
    expect(await ids('?status=busy')).toEqual([b]);
    expect(await ids('?to=010-8000-0001&to=%2B82 10 8000 0003')).toEqual([c, a]);
    expect(await ids('?number=01080000002')).toEqual([b]);
    expect(await ids('?number=070-1234-0001')).toEqual([c, b, a]);
    expect(await ids('?from=01099999999')).toEqual([]);
    const bAt = (await h.get(b)).dateCreated;
    expect(await ids(`?since=${bAt}`)).toEqual([c, b]);
    expect(await ids(`?until=${bAt}`)).toEqual([a]);
    expect(await ids('?minDuration=10&maxDuration=10')).toEqual([a]);
    expect(await ids('?minDuration=0&maxDuration=0')).toEqual([b]);
    expect(await ids('?hangupCause=user_busy&hangupCause=normal_clearing')).toEqual([b, a]);
    expect((await h.call('GET', h.acme('/calls?pageSize=1&page=1'))).json).toMatchObject({ data: [{ callId: b }], meta: { page: 1, pageSize: 1, total: 3 } });
    expect((await h.call('GET', h.acme('/calls'))).json.data[0]).not.toHaveProperty('transfers');
    for (const bad of ['?status=nope', '?minDuration=x', '?since=yesterday', '?number=12', '?pageSize=101']) {
      expect([bad, (await h.call('GET', h.acme(`/calls${bad}`))).status]).toEqual([bad, 400]);
    }
  });
});

describe('usage from calls', () => {
  it('connected seconds by direction and one AMD invocation per answered call with detection', async () => {
    const h = sim();
    const flowId = (await h.call('POST', h.acme('/call-flows'), { name: 'f', graph: { version: 1, start: 'p', nodes: { p: { type: 'pause', seconds: 60, next: 'q' }, q: { type: 'pause', seconds: 5, next: null } } } })).json.callFlowId;
    expect(flowId).toBeTruthy();
    await h.call('POST', h.acme('/calls'), { To: '010-8100-0001', From: '070-1234-0001', CallFlowId: flowId, MachineDetection: 'Enable' });
    await h.call('PUT', h.acme('/numbers/07012340001'), { routingType: 'callflow', callFlowId: flowId });
    await h.inbound({ from: '010-8100-0002', to: '070-1234-0001' });
    await h.advance(86_400 * 2);
    const usage = (await h.call('GET', h.acme('/usage?from=2026-03-01T00:00:00Z&to=2026-04-01T00:00:00Z&includeToday=true'))).json;
    const by = Object.fromEntries(usage.totals.map((r: { meter: string; quantity: number; billableMinutes: number | null }) => [r.meter, [r.quantity, r.billableMinutes]]));
    expect(by.outbound_seconds).toEqual([65, 2]);
    expect(by.inbound_seconds).toEqual([65, 2]);
    expect(by.amd_invocations?.[0]).toBe(1);
    void ACME;
  });
});
