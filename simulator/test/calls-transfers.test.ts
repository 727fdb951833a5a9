// Transfer legs: call-flow dial blocks (numbers and SIP URIs through the account's endpoints),
// control-plane agent and SIP REFER transfers, the representative leg's transfer* fields, the
// data-age rule, the `transfer` status callback, transfer seconds in usage, and bad input.
import { afterEach, describe, expect, it } from 'vitest';
import { ACME, BISTRO, harness } from './helpers.ts';
import { voiceSteps } from './voice-steps.ts';
import { closeAllReceivers, startReceiver } from './receivers.ts';
import type { FlowGraph } from '../resources/calls/flow-graph.ts';
import { runtimeOf } from '../internal.ts';

afterEach(closeAllReceivers);

/** After the data-age cutoff (spec Versioning 6), so legs show destinationType and connectedAt. */
const MODERN = '2026-07-11T00:00:00Z';

function sim() {
  const h = harness();
  const rt = runtimeOf(h.sim);
  const transfer = (id: string, body: Record<string, unknown>) => h.call('POST', `/_sim/calls/${id}/transfers`, body);
  return { ...h, rt, ...voiceSteps(h), transfer };
}

const dialFlow = (kind: 'number' | 'sip', value: string, next: string | null = null): FlowGraph => ({
  version: 1,
  start: 'd',
  nodes: { d: { type: 'dial', target: { kind, value }, next, timeoutSec: 20 } },
});
/** Waits as long as the call lasts. */
const WAIT_FLOW: FlowGraph = { version: 1, start: 'p', nodes: { p: { type: 'pause', seconds: 60, next: 'p' } } };

describe('transfer legs from dial blocks', () => {
  it('a dialed number that answers: one completed, billable leg; the call carries its transfer* fields', async () => {
    const h = sim();
    await h.sim.clock.advance({ to: MODERN });
    await h.script({ number: '010-7100-0009', delaySeconds: 3, hangupAfterSeconds: 20 });
    const id = await h.place('010-7100-0001', await h.flow(dialFlow('number', '010-7100-0009')));
    await h.advance(7); // answered 6 s after placing (setup 1 s + the carrier's 5 s); the leg rings 1 s after the dial
    const ringing = await h.get(id);
    expect(ringing.transfers).toEqual([expect.objectContaining({ sequence: 1, status: 'ringing', mode: 'blind', to: '01071000009', destinationType: 'pstn', connectedAt: null, endedAt: null, billable: false })]);
    expect(ringing.transferStatus).toBeNull(); // only ended legs count
    await h.advance(120);
    const call = await h.get(id);
    const leg = call.transfers[0];
    expect(leg).toMatchObject({ status: 'completed', duration: 20, billable: true, billableDuration: 20, hangupCauseQ850: 16, sipResponseCode: 200, reasonText: null });
    expect(Date.parse(leg.connectedAt) - Date.parse(leg.startedAt)).toBe(3000);
    expect(Date.parse(leg.endedAt) - Date.parse(leg.connectedAt)).toBe(20000);
    expect(call).toMatchObject({ status: 'completed', duration: 23, transferTo: '01071000009', transferStatus: 'completed', transferDuration: 20, transferHangupCauseQ850: 16, transferSipResponseCode: 200, transferReasonText: null });
    // The list carries the transfer* fields but never the chain.
    const row = (await h.call('GET', h.acme('/calls'))).json.data.find((c: any) => c.callId === id);
    expect(row).not.toHaveProperty('transfers');
    expect(row.transferStatus).toBe('completed');
  });

  it('busy, no-answer, rejected and invalid targets end their legs with the matching codes', async () => {
    const h = sim();
    await h.sim.clock.advance({ to: MODERN });
    await h.script({ number: '010-7200-0008', outcome: 'busy', delaySeconds: 2 });
    await h.script({ number: '010-7200-0007', outcome: 'rejected', delaySeconds: 2 });
    const cases = [
      ['010-7200-0008', { status: 'busy', hangupCauseQ850: 17, sipResponseCode: 486, reasonText: 'USER_BUSY' }],
      ['01000000480', { status: 'no-answer', hangupCauseQ850: 19, sipResponseCode: 480 }],
      ['010-7200-0007', { status: 'failed', hangupCauseQ850: 21, sipResponseCode: 603 }],
      ['01000000400', { status: 'failed', hangupCauseQ850: 38, sipResponseCode: 503 }],
      ['{{nobody}}', { status: 'failed', hangupCauseQ850: 28, sipResponseCode: 484, to: '' }],
    ] as const;
    const ids: string[] = [];
    for (const [i, [target]] of cases.entries()) ids.push(await h.place(`010-7200-100${i}`, await h.flow(dialFlow('number', target))));
    await h.advance(120);
    for (const [i, [, expected]] of cases.entries()) {
      const call = await h.get(ids[i]!);
      expect(call.transfers, String(i)).toEqual([expect.objectContaining({ ...expected, duration: null, billable: false, billableDuration: null, connectedAt: null })]);
      expect(call.transferStatus).toBe(expected.status);
      expect(call.transferDuration).toBeNull();
    }
  });

  it('SIP targets go through the account\'s active SIP routes; without one the leg fails 404', async () => {
    const h = sim();
    await h.sim.clock.advance({ to: MODERN });
    const unrouted = await h.place('010-7300-0001', await h.flow(dialFlow('sip', 'sip:desk@pbx.example.com')));
    await h.call('PATCH', `/_sim/accounts/${ACME.accountId}`, { addons: ['sip_trunk'] });
    const ep = (await h.call('POST', h.acme('/sip-endpoints'), { name: 'pbx' })).json;
    const route = await h.call('POST', h.acme(`/sip-endpoints/${ep.id}/routes`), { uri: 'sip:pbx.example.com:5060', priority: 1, weight: 1, transport: 'udp' });
    expect(route.status).toBe(201);
    const routed = await h.place('010-7300-0002', await h.flow(dialFlow('sip', 'sip:desk@pbx.example.com:5060')));
    await h.advance(120);
    expect((await h.get(unrouted)).transfers[0]).toMatchObject({ destinationType: 'sip', status: 'failed', sipResponseCode: 404, hangupCauseQ850: 3 });
    expect((await h.get(routed)).transfers[0]).toMatchObject({ destinationType: 'sip', to: 'sip:desk@pbx.example.com:5060', status: 'completed', billable: true });
  });

  it('legs before 2026-07-10 keep null destinationType and connectedAt even when connected', async () => {
    const h = sim(); // the default fixture starts 2026-03-02
    await h.script({ number: '010-7400-0009', delaySeconds: 2, hangupAfterSeconds: 10 });
    const id = await h.place('010-7400-0001', await h.flow(dialFlow('number', '010-7400-0009')));
    await h.advance(120);
    const leg = (await h.get(id)).transfers[0];
    expect(leg).toMatchObject({ status: 'completed', duration: 10, destinationType: null, connectedAt: null, billable: true, billableDuration: 10 });
    expect(leg.startedAt).not.toBeNull();
  });

  it('hanging up while a leg rings cancels it; while connected completes it', async () => {
    const h = sim();
    await h.sim.clock.advance({ to: MODERN });
    await h.script({ number: '010-7500-0009', delaySeconds: 10 });
    await h.script({ number: '010-7500-0008', delaySeconds: 2 });
    const ringingId = await h.place('010-7500-0001', await h.flow(dialFlow('number', '010-7500-0009')));
    const talkingId = await h.place('010-7500-0002', await h.flow(dialFlow('number', '010-7500-0008')));
    await h.advance(11); // answered at 6 s and dialed then; the second leg connected at 8 s
    expect((await h.call('POST', h.acme(`/calls/${ringingId}`), { Status: 'completed' })).status).toBe(200);
    expect((await h.call('POST', h.acme(`/calls/${talkingId}`), { Status: 'completed' })).status).toBe(200);
    expect((await h.get(ringingId)).transfers[0]).toMatchObject({ status: 'canceled', sipResponseCode: 487, duration: null, billable: false });
    expect((await h.get(talkingId)).transfers[0]).toMatchObject({ status: 'completed', duration: 3, billable: true, billableDuration: 3 });
    // Nothing moves an ended leg afterwards.
    await h.advance(200);
    expect((await h.get(talkingId)).transfers).toHaveLength(1);
    expect((await h.get(talkingId)).transfers[0].duration).toBe(3);
  });
});

describe('control-plane transfers (agent and SIP REFER)', () => {
  it('every mode; legs numbered in order; the representative is the completed one, not the latest', async () => {
    const h = sim();
    await h.sim.clock.advance({ to: MODERN });
    await h.script({ number: '010-7600-0009', delaySeconds: 2, hangupAfterSeconds: 15 });
    const id = await h.place('010-7600-0001', await h.flow(WAIT_FLOW));
    await h.advance(6);
    const first = await h.transfer(id, { to: '010-7600-0009', mode: 'warm', context: { reason: 'vip' } });
    expect(first.status).toBe(201);
    expect(first.json).toMatchObject({ sequence: 1, mode: 'warm', status: 'initiated', destinationType: 'pstn' });
    await h.advance(30);
    const second = await h.transfer(id, { to: '01000000486', mode: 'refer' });
    expect(second.json.sequence).toBe(2);
    await h.advance(30);
    const third = await h.transfer(id, { to: '01000000480', mode: 'refer-attended', timeoutSec: 5 });
    await h.advance(30);
    const fourth = await h.transfer(id, { to: '01000000400', mode: 'blind' });
    expect([third.status, fourth.status]).toEqual([201, 201]);
    await h.advance(30);
    const call = await h.get(id);
    expect(call.transfers.map((l: any) => [l.sequence, l.mode, l.status, l.billable])).toEqual([
      [1, 'warm', 'completed', true],
      [2, 'refer', 'busy', false],
      [3, 'refer-attended', 'no-answer', false],
      [4, 'blind', 'failed', false],
    ]);
    expect(call).toMatchObject({ status: 'in-progress', transferTo: '01076000009', transferStatus: 'completed', transferDuration: 15 });
  });

  it('refusals: unknown call 404, a call not in progress 409, an open leg 409, a bad target or mode 400; nothing changes', async () => {
    const h = sim();
    expect((await h.transfer('CA00000000000000000000000000000000', { to: '01012345678', mode: 'blind' })).status).toBe(404);
    await h.script({ number: '010-7700-0009', delaySeconds: 2 });
    const id = await h.place('010-7700-0001', await h.flow(WAIT_FLOW));
    const early = await h.transfer(id, { to: '010-7700-0009', mode: 'blind' });
    expect([early.status, early.json.code]).toEqual([409, 'CALL_NOT_CONNECTED']);
    await h.advance(6);
    expect((await h.transfer(id, { to: 'not a number', mode: 'blind' })).status).toBe(400);
    expect((await h.transfer(id, { to: '010-7700-0009', mode: 'blend' })).status).toBe(400);
    expect((await h.transfer(id, { to: '010-7700-0009', mode: 'warm' })).status).toBe(201);
    const busy = await h.transfer(id, { to: '010-7700-0009', mode: 'warm' });
    expect([busy.status, busy.json.code]).toEqual([409, 'transfer_in_progress']);
    expect((await h.get(id)).transfers).toHaveLength(1);
  });

  it('the transfer status callback: start, connect and end, without CallStatus; only when listed', async () => {
    const h = sim();
    const hook = await startReceiver();
    await h.script({ number: '010-7800-0009', delaySeconds: 2, hangupAfterSeconds: 8 });
    const flowId = await h.flow(WAIT_FLOW);
    const listed = await h.place('010-7800-0001', flowId, { StatusCallback: hook.url, StatusCallbackEvent: 'completed transfer' });
    const unlisted = await h.place('010-7800-0002', flowId, { StatusCallback: hook.url });
    await h.advance(6);
    await h.transfer(listed, { to: '010-7800-0009', mode: 'refer', context: { ticket: 7 } });
    await h.transfer(unlisted, { to: '010-7800-0009', mode: 'refer' });
    await h.advance(30);
    await h.sim.webhooks.settle();
    const transfers = hook.requests.filter((r) => r.fields.StatusCallbackEvent === 'transfer');
    expect(transfers.map((r) => r.fields.CallId)).toEqual([listed, listed, listed]);
    expect(transfers.map((r) => r.fields.TransferStatus)).toEqual(['initiated', 'connected', 'completed']);
    expect(transfers[2]!.fields).toMatchObject({ TransferSequence: '1', TransferTo: '01078000009', TransferMode: 'refer', TransferDuration: '8', TransferContext: '{"ticket":7}', From: '07012340001', To: '01078000001', Direction: 'outbound' });
    expect(transfers[0]!.fields).not.toHaveProperty('TransferDuration');
    for (const r of transfers) expect(r.fields).not.toHaveProperty('CallStatus');
  });

  it('transfer seconds of the billable leg reach usage (transfer_seconds, billableMinutes null)', async () => {
    const h = sim();
    await h.script({ number: '010-7900-0009', delaySeconds: 2, hangupAfterSeconds: 45 });
    const id = await h.place('010-7900-0001', await h.flow(dialFlow('number', '010-7900-0009')));
    await h.advance(120);
    expect((await h.get(id)).transfers[0].billableDuration).toBe(45);
    const usage = await h.call('GET', h.acme('/usage?from=2026-03-01T00:00:00Z&to=2026-04-01T00:00:00Z&meter=transfer_seconds&meter=outbound_seconds&includeToday=true'));
    expect(usage.json.totals).toEqual(expect.arrayContaining([expect.objectContaining({ meter: 'transfer_seconds', quantity: 45, billableMinutes: null })]));
  });

  it('another account\'s call is 404 on getCall; transferPartiesOf counts connected legs only', async () => {
    const h = sim();
    await h.script({ number: '010-8000-0009', delaySeconds: 2 });
    const id = await h.place('010-8000-0001', await h.flow(WAIT_FLOW));
    await h.advance(6);
    await h.transfer(id, { to: '01000000486', mode: 'blind' });
    await h.advance(10);
    await h.transfer(id, { to: '010-8000-0009', mode: 'warm' });
    await h.advance(10);
    expect(h.rt.calls.transferPartiesOf(ACME.accountId, id)).toBe(1);
    expect(h.rt.calls.transferPartiesOf(BISTRO.accountId, id)).toBe(0);
    expect(h.rt.calls.transferPartiesOf(ACME.accountId, 'CAnope')).toBe(0);
    const foreign = await h.call('GET', `/v1/accounts/${BISTRO.accountId}/calls/${id}`, undefined, { key: BISTRO.key });
    expect(foreign.status).toBe(404);
  });

  it('a snapshot taken while a leg rings restores exactly and the leg finishes the same way', async () => {
    const run = async (restoreMidway: boolean) => {
      const h = sim();
      await h.script({ number: '010-8600-0009', delaySeconds: 4, hangupAfterSeconds: 9 });
      const id = await h.place('010-8600-0001', await h.flow(WAIT_FLOW));
      await h.advance(7);
      await h.transfer(id, { to: '010-8600-0009', mode: 'refer' });
      await h.advance(2);
      if (restoreMidway) {
        const snap = h.sim.snapshot();
        await h.advance(100); // moves on, then is thrown away
        h.sim.restore(JSON.parse(JSON.stringify(snap)));
        expect(h.sim.snapshot()).toEqual(snap);
      }
      await h.advance(30);
      return (await h.call('GET', h.acme(`/calls/${id}`))).text;
    };
    const straight = await run(false);
    expect(JSON.parse(straight).transfers[0]).toMatchObject({ status: 'completed', duration: 9 });
    expect(await run(true)).toBe(straight);
  });

  it('an inbound call\'s legs report to the number\'s statusCallback; the walk view shows the chain', async () => {
    const h = sim();
    const hook = await startReceiver();
    const flowId = await h.flow(WAIT_FLOW);
    const put = await h.call('PUT', h.acme('/numbers/07012340001'), { routingType: 'callflow', callFlowId: flowId, statusCallback: hook.url, statusCallbackEvents: 'transfer' });
    expect(put.status).toBe(200);
    await h.script({ number: '010-8700-0009', delaySeconds: 2, hangupAfterSeconds: 5 });
    const { callId } = await h.sim.control.request<{ callId: string }>('POST', '/carrier/inbound-calls', { from: '010-8700-0001', to: '070-1234-0001' });
    await h.advance(2);
    expect((await h.transfer(callId, { to: '010-8700-0009', mode: 'blind' })).status).toBe(201);
    await h.advance(30);
    await h.sim.webhooks.settle();
    const events = hook.requests.filter((r) => r.fields.StatusCallbackEvent === 'transfer');
    expect(events.map((r) => [r.fields.TransferStatus, r.fields.Direction])).toEqual([['initiated', 'inbound'], ['connected', 'inbound'], ['completed', 'inbound']]);
    const walk = await h.sim.control.request<any>('GET', `/calls/${callId}`);
    expect(walk.call.transfers).toEqual([expect.objectContaining({ sequence: 1, status: 'completed', duration: 5 })]);
    expect(walk.call.transferStatus).toBe('completed');
  });
});
