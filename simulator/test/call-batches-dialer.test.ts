// The call-batch dialer on the virtual clock: windows and legal hours in the batch's time zone,
// retry rounds, pacing and concurrency, opt-outs, machine detection, texts at night, task
// pages and a snapshot restored mid-run. The fixture's clock starts at 09:00 Korea time.
import { describe, expect, it } from 'vitest';
import { FROM, HOUR, kstMinute, sim } from './call-batches-helpers.ts';

describe('call batches: the dialer', () => {
  it('dials only inside the round\'s window and the legal hours, in the batch time zone', async () => {
    const h = sim();
    const cf = await h.flow();
    // Created Monday 09:00 Korea time; the window opens at 10:00 Korea time = 01:00 UTC.
    const r = await h.create({ CallFlowId: cf, MaxConcurrency: 2, Rounds: [{ Windows: [{ Days: [1], Start: '10:00', End: '10:01' }] }], Tasks: [{ To: '01020000001' }, { To: '01020000002' }] });
    const [t] = await h.tasks(r.json.batchId);
    expect(t.expectedDialAt).toBe('2026-03-02T01:00:00.000Z');
    await h.advance(7 * 24 * HOUR);
    const calls = h.batchCalls();
    // Pacing 10 a minute: 6 s apart, both in the one-minute window.
    expect(calls.map((c) => c.dateCreated)).toEqual(['2026-03-02T01:00:00.000Z', '2026-03-02T01:00:06.000Z']);
    // A UTC window 00:00-00:30 Monday is 09:00-09:30 Korea time: legal.
    const utc = await h.create({ CallFlowId: cf, Timezone: 'UTC', Rounds: [{ Windows: [{ Days: [1], Start: '00:00', End: '00:30' }] }], Tasks: [{ To: '01020000003' }] });
    expect(utc.status).toBe(200);
    expect((await h.tasks(utc.json.batchId))[0].expectedDialAt).toBe('2026-03-09T00:00:00.000Z');
  });

  it('created at night, the first dial waits for 08:00 Korea time', async () => {
    const h = sim();
    const cf = await h.flow();
    await h.advance(13 * HOUR); // 22:00 Korea time
    const r = await h.create({ CallFlowId: cf, Tasks: [{ To: '01020000001' }] });
    expect((await h.tasks(r.json.batchId))[0].expectedDialAt).toBe('2026-03-02T23:00:00.000Z');
    await h.advance(24 * HOUR);
    expect(h.batchCalls()[0]!.dateCreated).toBe('2026-03-02T23:00:00.000Z');
  });

  it('retries After minutes after the call ended, only for the On outcomes; texts on the first and the final failure', async () => {
    const h = sim();
    const cf = await h.flow();
    await h.script({ number: '01020000001', outcome: 'no-answer' }); // never answers
    await h.script({ number: '01020000002', outcome: 'rejected' }); // rejected: not in On
    const r = await h.create({
      CallFlowId: cf,
      MaxConcurrency: 2,
      Rounds: [{}, { After: 30, On: ['no-answer', 'busy'] }, { After: 60, On: ['no-answer'] }],
      MessagePolicy: { OnFirstFail: { Body: 'We called, {{name}}' }, OnFinalFail: { Body: 'Last try, {{name}}' } },
      Tasks: [{ To: '01020000001', Variables: { name: 'A' } }, { To: '01020000002', Variables: { name: 'B' } }, { To: '01020000003', Variables: { name: 'C' } }],
    });
    await h.advance(10 * HOUR);
    const calls = h.batchCalls();
    const toA = calls.filter((c) => c.to === '01020000001');
    expect(toA.map((c) => c.status)).toEqual(['no-answer', 'no-answer', 'no-answer']);
    for (let i = 1; i < toA.length; i++) {
      const gap = (Date.parse(toA[i]!.dateCreated) - Date.parse(toA[i - 1]!.dateUpdated!)) / 60_000;
      expect(gap).toBeGreaterThanOrEqual(i === 1 ? 30 : 60);
    }
    expect(calls.filter((c) => c.to === '01020000002')).toHaveLength(1);
    const [a, b, c] = await h.tasks(r.json.batchId);
    expect(a).toMatchObject({ status: 'failed', attempt: 3, dialRound: 3, disposition: 'no-answer', messageKind: 'final', messageStatus: 'queued', messageDeliveryStatus: 'sent' });
    expect(b).toMatchObject({ status: 'failed', attempt: 1, disposition: 'rejected', messageKind: 'final' });
    expect(c).toMatchObject({ status: 'done', attempt: 1, disposition: 'completed', messageKind: null, result: { caller: FROM, callee: '01020000003', name: 'C' } });
    const texts = h.rt.messages.list('AC1a2b3c4d', {}).filter((m) => m.direction === 'outbound').map((m) => `${m.to}:${m.body}`).reverse();
    // B is rejected after 5 s of ringing, A rings out after 30 s: B's text goes first.
    expect(texts).toEqual(['01020000002:Last try, B', '01020000001:We called, A', '01020000001:Last try, A']);
    expect(h.ended.length).toBe(calls.length); // one callflow.ended per call
    expect(new Set(h.ended).size).toBe(calls.length);
    expect(await h.get(r.json.batchId)).toMatchObject({ status: 'completed', counts: { done: 1, failed: 2 } });
  });

  it('never exceeds MaxConcurrency and PacingPerMinute', async () => {
    const h = sim();
    const cf = await h.flow();
    await h.script({ prefix: '010', delaySeconds: 20 });
    const tasks = Array.from({ length: 40 }, (_, i) => ({ To: `010200000${String(i).padStart(2, '0')}` }));
    await h.create({ CallFlowId: cf, MaxConcurrency: 3, PacingPerMinute: 30, Tasks: tasks });
    await h.advance(5 * HOUR);
    const calls = h.batchCalls();
    expect(calls).toHaveLength(40);
    const starts = calls.map((c) => Date.parse(c.dateCreated));
    for (const s of starts) expect(starts.filter((x) => x >= s && x < s + 60_000).length).toBeLessThanOrEqual(30);
    for (const s of starts) expect(calls.filter((c) => Date.parse(c.dateCreated) <= s && Date.parse(c.dateUpdated!) > s).length).toBeLessThanOrEqual(3);
    // Two seconds apart (30 a minute) until three calls are up; the fourth waits for the first to end (1 + 20 + 1 s).
    expect([starts[1]! - starts[0]!, starts[2]! - starts[1]!]).toEqual([2000, 2000]);
    expect(starts[3]! - starts[0]!).toBe(22_000);
  });

  it('suppresses opted-out recipients; a text refused by the messaging slice is recorded', async () => {
    const h = sim();
    const cf = await h.flow();
    await h.call('POST', h.acme('/blocked-recipients'), { number: '01020000001', channel: 'call' });
    await h.call('POST', h.acme('/blocked-recipients'), { number: '01020000002', channel: 'message' });
    await h.script({ number: '01020000002', outcome: 'busy' });
    const r = await h.create({ CallFlowId: cf, MessagePolicy: { OnFinalFail: { Body: 'Sorry' } }, Tasks: [{ To: '01020000001' }, { To: '01020000002' }] });
    await h.advance(HOUR);
    const [a, b] = await h.tasks(r.json.batchId);
    expect(a).toMatchObject({ status: 'suppressed', attempt: 0, callId: null, lastError: 'recipient_blocked' });
    expect(b).toMatchObject({ status: 'failed', disposition: 'busy', messageKind: 'final', messageStatus: 'failed', messageError: 'recipient_blocked', messageDeliveryStatus: null });
    expect(h.batchCalls().map((c) => c.to)).toEqual(['01020000002']);
    expect((await h.get(r.json.batchId)).counts).toMatchObject({ suppressed: 1, failed: 1 });
  });

  it('machine detection: Hangup ends a machine-answered call, and round 2 with On machine calls again', async () => {
    const h = sim();
    const cf = await h.flow();
    await h.script({ number: '01020000001', answeredBy: 'machine', times: 1 });
    const r = await h.create({ CallFlowId: cf, MachineDetection: 'Hangup', Rounds: [{}, { After: 10, On: ['machine'] }], Tasks: [{ To: '01020000001' }] });
    expect(r.json.machineDetection).toBe('Hangup');
    await h.advance(2 * HOUR);
    const calls = h.batchCalls();
    expect(calls.map((c) => [c.answeredBy, c.duration])).toEqual([['machine', 0], ['human', 1]]);
    expect((await h.tasks(r.json.batchId))[0]).toMatchObject({ status: 'done', answeredBy: 'human', dialRound: 2 });
  });

  it('a text due at night waits for 08:00 Korea time', async () => {
    const h = sim();
    const cf = await h.flow();
    await h.script({ number: '01020000001', outcome: 'no-answer' });
    await h.advance(11 * HOUR + 59 * 60 + 50); // 20:59:50 Korea time
    const r = await h.create({ CallFlowId: cf, MessagePolicy: { OnFinalFail: { Body: 'Sorry' } }, Tasks: [{ To: '01020000001' }] });
    await h.advance(5 * 60); // the call rings out after 21:00
    const [t] = await h.tasks(r.json.batchId);
    expect(t).toMatchObject({ status: 'failed', messageStatus: 'pending' });
    expect((await h.get(r.json.batchId)).status).toBe('running');
    await h.advance(12 * HOUR);
    const [sent] = await h.tasks(r.json.batchId);
    expect(sent).toMatchObject({ messageStatus: 'queued' });
    const text = h.rt.messages.list('AC1a2b3c4d', {}).find((m) => m.to === '01020000001')!;
    expect(kstMinute(text.dateCreated)).toBe(8 * 60);
    expect((await h.get(r.json.batchId)).status).toBe('completed');
  });

  it('pages tasks from 1 (50 by default, 500 at most) with a status filter', async () => {
    const h = sim();
    const cf = await h.flow();
    const tasks = Array.from({ length: 120 }, (_, i) => ({ To: `0102000${String(i).padStart(4, '0')}` }));
    const r = await h.create({ CallFlowId: cf, Status: 'paused', Tasks: tasks });
    const id = r.json.batchId;
    const first = await h.call('GET', h.acme(`/call-batches/${id}/tasks`));
    expect(first.json.meta).toEqual({ page: 1, pageSize: 50, total: 120 });
    expect(first.json.tasks[0].to).toBe('01020000000');
    const last = await h.call('GET', h.acme(`/call-batches/${id}/tasks?page=3`));
    expect(last.json.tasks.map((t: any) => t.to)).toEqual(tasks.slice(100).map((t) => t.To));
    expect((await h.call('GET', h.acme(`/call-batches/${id}/tasks?pageSize=500`))).json.tasks).toHaveLength(120);
    expect((await h.call('GET', h.acme(`/call-batches/${id}/tasks?pageSize=501`))).status).toBe(400);
    expect((await h.call('GET', h.acme(`/call-batches/${id}/tasks?page=0`))).status).toBe(400);
    expect((await h.call('GET', h.acme(`/call-batches/${id}/tasks?status=done`))).json).toEqual({ tasks: [], meta: { page: 1, pageSize: 50, total: 0 } });
    expect((await h.call('GET', h.acme(`/call-batches/${id}/tasks?status=pending&limit=7`))).json.tasks).toHaveLength(7);
    expect((await h.call('GET', h.acme('/call-batches/CB000/tasks'))).json.code).toBe('call_batch_not_found');
    expect((await h.call('GET', h.bistro(`/call-batches/${id}`), undefined, { key: 'sk_test_bistro_9a8b7c6d5e4f3a2b' })).status).toBe(404);
  });

  it('a snapshot taken mid-run and restored runs on to the same end as the uninterrupted run', async () => {
    const run = async (restoreMidway: boolean) => {
      const h = sim();
      const cf = await h.flow();
      await h.script({ prefix: '0102000000', outcome: 'no-answer', share: 0.5 });
      const tasks = Array.from({ length: 12 }, (_, i) => ({ To: `010200000${String(i).padStart(2, '0')}`, Variables: { name: `n${i}` } }));
      const r = await h.create({ CallFlowId: cf, MaxConcurrency: 2, PacingPerMinute: 4, Rounds: [{}, { After: 5, On: ['no-answer'] }], MessagePolicy: { OnFinalFail: { Body: 'Bye {{name}}' } }, Tasks: tasks });
      await h.advance(150);
      if (restoreMidway) {
        const s = JSON.parse(JSON.stringify(h.sim.snapshot()));
        h.sim.restore(s);
      }
      await h.advance(3 * HOUR);
      return { tasks: await h.tasks(r.json.batchId), batch: await h.get(r.json.batchId) };
    };
    const straight = await run(false);
    const restored = await run(true);
    expect(restored).toEqual(straight);
    expect(straight.batch.status).toBe('completed');
  });
});
