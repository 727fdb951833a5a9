// Interrupted transfer legs (control plane): the platform loses an open leg. `interrupted` is
// an in-progress status (guides: transferStatus values are final only), so the leg is never the
// representative leg; it ends `failed` (Q.850 38, SIP 503) after failAfterSeconds or at the
// call's end, whichever comes first.
import { afterEach, describe, expect, it } from 'vitest';
import { harness } from './helpers.ts';
import { VOICE_FROM, voiceSteps } from './voice-steps.ts';
import { closeAllReceivers, startReceiver } from './receivers.ts';
import type { FlowGraph } from '../resources/calls/flow-graph.ts';

afterEach(closeAllReceivers);

const MODERN = '2026-07-11T00:00:00Z';
const WAIT_FLOW: FlowGraph = { version: 1, start: 'p', nodes: { p: { type: 'pause', seconds: 60, next: 'p' } } };

function sim() {
  const h = harness();
  const { flow, script, place: placeFlow, get, advance } = voiceSteps(h);
  /** A call that waits as long as it lasts (a new flow each time, as before). */
  const place = async (to: string, extra: Record<string, unknown> = {}) => placeFlow(to, await flow(WAIT_FLOW), extra);
  const transfer = (id: string, body: Record<string, unknown>) => h.call('POST', `/_sim/calls/${id}/transfers`, body);
  const interrupt = (id: string, seq: number | string, body?: Record<string, unknown>) => h.call('POST', `/_sim/calls/${id}/transfers/${seq}/interrupt`, body);
  return { ...h, script, place, get, advance, transfer, interrupt };
}

describe('interrupted transfer legs', () => {
  it('a connected leg interrupted: in progress, not representative, then failed after failAfterSeconds with its observed duration', async () => {
    const h = sim();
    await h.sim.clock.advance({ to: MODERN });
    await h.script({ number: '010-7100-0009', delaySeconds: 2, hangupAfterSeconds: 40 });
    await h.script({ number: '010-7100-0008', delaySeconds: 2, hangupAfterSeconds: 5 });
    const id = await h.place('010-7100-0001');
    await h.advance(6);
    await h.transfer(id, { to: '010-7100-0008', mode: 'warm' }); // leg 1 completes after 5 s of talk
    await h.advance(10);
    await h.transfer(id, { to: '010-7100-0009', mode: 'blind' });
    await h.advance(12); // leg 2 connected 10 s ago
    const cut = await h.interrupt(id, 2, { failAfterSeconds: 5 });
    expect(cut.status).toBe(200);
    expect(cut.json).toMatchObject({ sequence: 2, status: 'interrupted', hangupCauseQ850: 38, sipResponseCode: 503, reasonText: 'NETWORK_OUT_OF_ORDER', endedAt: null, duration: null, billable: false });
    const during = await h.get(id);
    // The interrupted leg has not ended: the completed leg 1 stays the representative.
    expect(during).toMatchObject({ transferTo: '01071000008', transferStatus: 'completed', transferDuration: 5 });
    const busy = await h.transfer(id, { to: '010-7100-0008', mode: 'warm' });
    expect([busy.status, busy.json.code]).toEqual([409, 'transfer_in_progress']);
    await h.advance(5);
    const after = await h.get(id);
    expect(after.transfers[1]).toMatchObject({ status: 'failed', duration: 15, hangupCauseQ850: 38, sipResponseCode: 503, billable: false });
    // Ended now, but a completed leg is still preferred over the later failed one.
    expect(after).toMatchObject({ transferStatus: 'completed', transferTo: '01071000008' });
    await h.advance(60); // the carrier's planned end (40 s of talk) no longer applies
    expect((await h.get(id)).transfers[1]).toMatchObject({ status: 'failed', duration: 15 });
  });

  it('a ringing leg interrupted never connects; the call ending fails it; as the only ended leg it is the representative', async () => {
    const h = sim();
    await h.sim.clock.advance({ to: MODERN });
    await h.script({ number: '010-7200-0009', delaySeconds: 10, hangupAfterSeconds: 30 });
    const id = await h.place('010-7200-0001');
    await h.advance(6);
    await h.transfer(id, { to: '010-7200-0009', mode: 'refer' });
    await h.advance(3);
    expect((await h.interrupt(id, 1)).json.status).toBe('interrupted');
    await h.advance(30); // would have connected at 10 s
    const live = await h.get(id);
    expect(live.transfers[0]).toMatchObject({ status: 'interrupted', connectedAt: null });
    expect(live.transferStatus).toBeNull();
    await h.call('POST', h.acme(`/calls/${id}`), { Status: 'completed' });
    const ended = await h.get(id);
    expect(ended.transfers[0]).toMatchObject({ status: 'failed', duration: null, connectedAt: null, hangupCauseQ850: 38, sipResponseCode: 503 });
    expect(ended).toMatchObject({ status: 'completed', transferStatus: 'failed', transferHangupCauseQ850: 38, transferSipResponseCode: 503, transferDuration: null });
  });

  it('the transfer callback reports interrupted without TransferDuration, then failed with it', async () => {
    const h = sim();
    const hook = await startReceiver();
    await h.script({ number: '010-7300-0009', delaySeconds: 2, hangupAfterSeconds: 60 });
    const id = await h.place('010-7300-0001', { StatusCallback: hook.url, StatusCallbackEvent: 'transfer' });
    await h.advance(6);
    await h.transfer(id, { to: '010-7300-0009', mode: 'warm' });
    await h.advance(4);
    await h.interrupt(id, 1, { failAfterSeconds: 3 });
    await h.advance(5);
    await h.sim.webhooks.settle();
    const events = hook.requests.filter((r) => r.fields.StatusCallbackEvent === 'transfer');
    expect(events.map((r) => r.fields.TransferStatus)).toEqual(['initiated', 'connected', 'interrupted', 'failed']);
    expect(events[2]!.fields).toMatchObject({ TransferReason: 'NETWORK_OUT_OF_ORDER' });
    expect(events[2]!.fields).not.toHaveProperty('TransferDuration');
    expect(events[3]!.fields).toMatchObject({ TransferDuration: '5' });
  });

  it('refusals change nothing: unknown call 404, unknown, ended or interrupted leg 409, dial-block leg 409, bad sequence or body 400', async () => {
    const h = sim();
    expect((await h.interrupt('CA00000000000000000000000000000000', 1)).status).toBe(404);
    await h.script({ number: '010-7400-0009', delaySeconds: 2, hangupAfterSeconds: 3 });
    const id = await h.place('010-7400-0001');
    await h.advance(6);
    const none = await h.interrupt(id, 1);
    expect([none.status, none.json.code]).toEqual([409, 'leg_not_interruptible']);
    await h.transfer(id, { to: '010-7400-0009', mode: 'warm' });
    expect((await h.interrupt(id, 'x')).status).toBe(400);
    expect((await h.interrupt(id, 1, { failAfterSeconds: -1 })).status).toBe(400);
    expect((await h.interrupt(id, 1, { later: true })).status).toBe(400);
    expect((await h.get(id)).transfers[0].status).toBe('initiated');
    await h.advance(10); // completed
    const ended = await h.interrupt(id, 1);
    expect([ended.status, ended.json.code]).toEqual([409, 'leg_not_interruptible']);
    expect((await h.get(id)).transfers[0].status).toBe('completed');

    const dialFlow = await h.call('POST', h.acme('/call-flows'), { name: 'd', graph: { version: 1, start: 'd', nodes: { d: { type: 'dial', target: { kind: 'number', value: '010-7400-0009' }, next: null, timeoutSec: 20 } } } });
    const dialed = (await h.call('POST', h.acme('/calls'), { To: '010-7400-0002', From: VOICE_FROM, CallFlowId: dialFlow.json.callFlowId })).json.callId;
    await h.advance(7);
    const fromDial = await h.interrupt(dialed, 1);
    expect([fromDial.status, fromDial.json.code]).toEqual([409, 'leg_not_interruptible']);
  });

  it('twice: an interrupted leg cannot be interrupted again', async () => {
    const h = sim();
    await h.script({ number: '010-7500-0009', delaySeconds: 2, hangupAfterSeconds: 60 });
    const id = await h.place('010-7500-0001');
    await h.advance(6);
    await h.transfer(id, { to: '010-7500-0009', mode: 'blind' });
    expect((await h.interrupt(id, 1)).status).toBe(200);
    const again = await h.interrupt(id, 1, { failAfterSeconds: 1 });
    expect([again.status, again.json.code]).toEqual([409, 'leg_not_interruptible']);
    await h.advance(5);
    expect((await h.get(id)).transfers[0].status).toBe('interrupted'); // the refused request scheduled nothing
  });

  it('a snapshot taken while a leg is interrupted restores exactly and the leg fails the same way', async () => {
    const run = async (restoreMidway: boolean) => {
      const h = sim();
      await h.script({ number: '010-7600-0009', delaySeconds: 2, hangupAfterSeconds: 50 });
      const id = await h.place('010-7600-0001');
      await h.advance(6);
      await h.transfer(id, { to: '010-7600-0009', mode: 'refer-attended' });
      await h.advance(5);
      await h.interrupt(id, 1, { failAfterSeconds: 20 });
      await h.advance(3);
      if (restoreMidway) {
        const snap = h.sim.snapshot();
        await h.advance(100); // moves on, then is thrown away
        h.sim.restore(JSON.parse(JSON.stringify(snap)));
        expect(h.sim.snapshot()).toEqual(snap);
      }
      await h.advance(60);
      return (await h.get(id)).transfers;
    };
    const straight = await run(false);
    expect(straight[0]).toMatchObject({ status: 'failed', duration: 23 });
    expect(await run(true)).toEqual(straight);
  });
});
