// Call batches through the API: creation and its refusals, the seven states and the actions,
// tasks and paging, the dialer on the virtual clock (windows, legal hours, rounds, pacing,
// concurrency, opt-outs, machine detection, texts), one callflow.ended per call, snapshots.
// The fixture's clock starts Monday 2026-03-02 00:00 UTC = 09:00 Korea time.
import { describe, expect, it } from 'vitest';
import { harness } from './helpers.ts';
import { voiceSteps } from './voice-steps.ts';
import { runtimeOf } from '../internal.ts';
import fc from 'fast-check';
import { StatusIndex } from '../resources/call-batches/status-index.ts';

const FROM = '07012340001';
const HOUR = 3600;
const KST = 9 * 3_600_000;

function sim() {
  const h = harness();
  const rt = runtimeOf(h.sim);
  const ended: string[] = [];
  rt.events.subscribe((e) => {
    if (e.type === 'callflow.ended') ended.push(e.resourceId);
  });
  const steps = voiceSteps(h);
  const flow = () => steps.flow({ version: 1, start: 'hi', nodes: { hi: { type: 'say', text: 'Hello {{name}}', next: 'bye' }, bye: { type: 'hangup' } } }, 'reminder');
  const { script, advance } = steps;
  const create = async (body: Record<string, unknown>) => h.call('POST', h.acme('/call-batches'), { Name: 'b', From: FROM, ...body });
  const get = async (id: string) => (await h.call('GET', h.acme(`/call-batches/${id}`))).json;
  const tasks = async (id: string, query = '') => (await h.call('GET', h.acme(`/call-batches/${id}/tasks${query}`))).json.tasks as any[];
  const act = (id: string, Action: string) => h.call('POST', h.acme(`/call-batches/${id}/actions`), { Action });
  const batchCalls = () => rt.calls.calls.all().filter((c) => c.from === FROM);
  const sum = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);
  return { ...h, rt, ended, flow, script, create, get, tasks, act, advance, batchCalls, sum };
}

const kstMinute = (isoText: string) => {
  const local = Date.parse(isoText) + KST;
  return Math.floor((local % 86_400_000) / 60_000);
};

describe('call batches: creation', () => {
  it('creates a running batch (200) with counts that sum to the tasks, defaults and warnings only in the creation answer', async () => {
    const h = sim();
    const cf = await h.flow();
    const r = await h.create({ CallFlowId: cf, Tasks: [{ To: '010-2000-0001', Variables: { name: 'A' } }, { To: '+82 10 2000 0002', Variables: { name: 'B' } }], MessagePolicy: { OnFinalFail: { Body: 'Sorry {{name}}' } } });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ status: 'running', from: FROM, callFlowId: cf, agentId: null, url: null, maxConcurrency: 1, pacingPerMinute: 10, timezone: 'Asia/Seoul', startAt: null, endAt: null, machineDetection: null, rounds: [{}], messagePolicy: { onFinalFail: { body: 'Sorry {{name}}' } } });
    expect(r.json.batchId).toMatch(/^CB[0-9a-f]{24}$/);
    expect(r.json.counts).toEqual({ pending: 2, dialing: 0, done: 0, failed: 0, canceled: 0, suppressed: 0, expired: 0 });
    expect(r.json.warnings).toHaveLength(1); // the sender never sent a text
    expect(r.json.warnings[0]).toContain('07012340001');
    const got = await h.get(r.json.batchId);
    expect(got.warnings).toBeUndefined();
    expect(got.counts).toEqual(r.json.counts);
    const list = await h.call('GET', h.acme('/call-batches'));
    expect(list.json.callBatches.map((b: any) => b.batchId)).toEqual([r.json.batchId]);
    expect((await h.tasks(r.json.batchId)).map((t) => t.to)).toEqual(['01020000001', '01020000002']);
  });

  it('warns when the text quota left is below the recipient count', async () => {
    const h = sim();
    // A Starter account: 500 sms a month.
    const acct = await h.sim.control.request<{ accountId: string; apiKey: string; numbers: string[] }>('POST', '/accounts', { plan: 'starter' });
    const as = (method: string, path: string, body?: unknown) => h.call(method, `/v1/accounts/${acct.accountId}${path}`, body, { key: acct.apiKey });
    const from = acct.numbers[0]!;
    const cf = (await as('POST', '/call-flows', { name: 'f', graph: { version: 1, start: 'bye', nodes: { bye: { type: 'hangup' } } } })).json.callFlowId;
    await as('POST', '/messages', { To: '01099990000', From: from, Body: 'hello' }); // the sender has texted before
    const recipients = (n: number) => Array.from({ length: n }, (_, i) => ({ To: `0102100${String(i).padStart(4, '0')}` }));
    const policy = { MessagePolicy: { OnFinalFail: { Body: 'Call us back' } } };
    const few = await as('POST', '/call-batches', { Name: 'few', From: from, CallFlowId: cf, Tasks: recipients(499), ...policy });
    expect([few.status, few.json.warnings]).toEqual([200, []]);
    const many = await as('POST', '/call-batches', { Name: 'many', From: from, CallFlowId: cf, Tasks: recipients(500), ...policy });
    expect(many.json.warnings).toHaveLength(1);
    expect(many.json.warnings[0]).toContain('sms quota left this month (499)');
    // Without a message policy there is nothing to warn about.
    expect((await as('POST', '/call-batches', { Name: 'quiet', From: from, CallFlowId: cf, Tasks: recipients(500) })).json.warnings).toEqual([]);
  });

  it('refuses bad input with a clear 4xx and stores nothing', async () => {
    const h = sim();
    const cf = await h.flow();
    const base = { CallFlowId: cf, Tasks: [{ To: '01020000001' }] };
    const cases: [Record<string, unknown>, number, string][] = [
      [{ ...base, Rounds: [{ Windows: [{ Days: [1, 2, 3, 4, 5], Start: '22:00', End: '23:00' }] }] }, 400, 'window_unsatisfiable'],
      [{ ...base, Rounds: [{ Windows: [{ Days: [1], Start: '05:00', End: '07:59' }] }] }, 400, 'window_unsatisfiable'],
      [{ ...base, Rounds: [{ Windows: [{ Days: [0, 1], Start: '10:00', End: '12:00' }] }] }, 400, 'invalid_window'],
      [{ ...base, Rounds: [{ Windows: [{ Days: [1], Start: '12:00', End: '10:00' }] }] }, 400, 'invalid_window'],
      [{ ...base, Rounds: [{ Windows: [{ Days: [1], Start: '9:00', End: '10:00' }] }] }, 400, 'invalid_window'],
      [{ ...base, StartAt: '2026-03-05T00:00:00Z', EndAt: '2026-03-04T00:00:00Z' }, 400, 'end_before_start'],
      [{ ...base, EndAt: '2026-03-01T00:00:00Z' }, 400, 'end_in_past'],
      [{ ...base, Rounds: [{}, { After: 30, On: ['no-answer', 'voicemail'] }] }, 400, 'invalid_round_outcome'],
      [{ ...base, Rounds: [{ After: 5 }] }, 400, 'invalid_round'],
      [{ ...base, Rounds: [{ On: ['busy'] }] }, 400, 'invalid_round'],
      [{ ...base, Rounds: [{}, { On: ['busy'] }] }, 400, 'invalid_round'],
      [{ ...base, Rounds: [{}, { After: 30 }] }, 400, 'invalid_round'],
      [{ ...base, Rounds: [{}, { After: 1441, On: ['busy'] }] }, 400, 'invalid_round'],
      [{ ...base, Rounds: [{}, {}, {}, {}, {}, {}].map((r, i) => (i === 0 ? r : { After: 5, On: ['busy'] })) }, 400, 'VALIDATION'],
      [{ ...base, MessagePolicy: { OnFirstFail: { Body: 'x' } } }, 400, 'first_fail_without_retry'],
      [{ ...base, MessagePolicy: { OnFinalFail: { Body: 'Hi {{name}}' } } }, 400, 'message_variable_missing'],
      [{ ...base, Timezone: 'Mars/Olympus' }, 400, 'invalid_timezone'],
      [{ ...base, Tasks: [] }, 400, 'tasks_required'],
      [{ ...base, Tasks: [{ To: '12345' }] }, 400, 'INVALID_PHONE_NUMBER'],
      [{ ...base, Tasks: [{ To: '01020000001', Variables: { caller: 'x' } }] }, 400, 'VALIDATION'],
      [{ Tasks: base.Tasks }, 400, 'invalid_batch_target'],
      [{ ...base, Url: 'https://example.com/voiceml' }, 400, 'invalid_batch_target'],
      [{ Tasks: base.Tasks, Url: 'ftp://example.com/voiceml' }, 400, 'VALIDATION'],
      [{ Tasks: base.Tasks, AgentId: 'ag_1' }, 404, 'agent_not_found'],
      [{ Tasks: base.Tasks, CallFlowId: 'CF000000000000' }, 404, 'call_flow_not_found'],
      [{ ...base, From: '07099999999' }, 400, 'from_not_registered'],
    ];
    for (const [body, status, code] of cases) {
      const r = await h.create(body);
      expect([r.status, r.json.code], JSON.stringify(body)).toEqual([status, code]);
    }
    expect((await h.call('GET', h.acme('/call-batches'))).json.callBatches).toEqual([]);
    await h.advance(HOUR);
    expect(h.batchCalls()).toEqual([]);
  });

  it('takes a Tasks body up to 10 MB (413 above) while other operations keep the 1 MiB limit', async () => {
    const h = sim();
    const cf = await h.flow();
    const pad = 'x'.repeat(200);
    const tasks = Array.from({ length: 9000 }, (_, i) => ({ To: `0103${String(i).padStart(7, '0')}`, Variables: { pad } }));
    const ok = await h.create({ CallFlowId: cf, Status: 'paused', Tasks: tasks });
    expect(ok.status).toBe(200); // about 2.2 MB
    expect(ok.json.counts.pending).toBe(9000);
    const big = Array.from({ length: 45_000 }, (_, i) => ({ To: `0104${String(i).padStart(7, '0')}`, Variables: { pad } }));
    const tooBig = await h.create({ CallFlowId: cf, Tasks: big });
    expect([tooBig.status, tooBig.json.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    const add = await h.call('POST', h.acme(`/call-batches/${ok.json.batchId}/tasks`), { Tasks: big });
    expect(add.status).toBe(413);
    expect((await h.get(ok.json.batchId)).counts.pending).toBe(9000);
    // The general limit still holds elsewhere: a 2 MB message body is refused.
    const msg = await h.call('POST', h.acme('/messages'), { To: '01020000001', From: FROM, Body: 'y'.repeat(2_000_000) });
    expect(msg.status).toBe(413);
  });
});

describe('call batches: states and actions', () => {
  it('scheduled until StartAt, then running, then completed; nothing dials before StartAt', async () => {
    const h = sim();
    const cf = await h.flow();
    const r = await h.create({ CallFlowId: cf, StartAt: '2026-03-02T02:00:00Z', Tasks: [{ To: '01020000001' }] });
    expect(r.json.status).toBe('scheduled');
    await h.advance(HOUR);
    expect((await h.get(r.json.batchId)).status).toBe('scheduled');
    expect(h.batchCalls()).toHaveLength(0);
    await h.advance(HOUR);
    expect((await h.get(r.json.batchId)).status).toBe('running');
    await h.advance(60);
    const b = await h.get(r.json.batchId);
    expect(b.status).toBe('completed');
    expect(b.counts).toMatchObject({ done: 1, pending: 0 });
    expect(h.batchCalls()[0]!.dateCreated).toBe('2026-03-02T02:00:00.000Z');
    const again = await h.act(r.json.batchId, 'resume');
    expect([again.status, again.json.code, again.json.status]).toEqual([409, 'call_batch_ended', 'completed']);
    const add = await h.call('POST', h.acme(`/call-batches/${r.json.batchId}/tasks`), { Tasks: [{ To: '01020000002' }] });
    expect([add.status, add.json.code]).toEqual([409, 'call_batch_ended']);
  });

  it('draft: assembled with addCallBatchTasks, started by resume; pause and resume; the wrong action is 409 and changes nothing', async () => {
    const h = sim();
    const cf = await h.flow();
    const r = await h.create({ CallFlowId: cf, Status: 'draft', Tasks: [] });
    expect(r.json).toMatchObject({ status: 'draft', counts: { pending: 0 } });
    const add = await h.call('POST', h.acme(`/call-batches/${r.json.batchId}/tasks`), { Tasks: [{ To: '01020000001' }, { To: '01020000002' }] });
    expect(add.json).toEqual({ added: 2 });
    const pause = await h.act(r.json.batchId, 'pause');
    expect([pause.status, pause.json.code, pause.json.status]).toEqual([409, 'call_batch_action_not_allowed', 'draft']);
    expect((await h.act(r.json.batchId, 'launch')).json.code).toBe('invalid_batch_action');
    await h.advance(HOUR);
    expect(h.batchCalls()).toHaveLength(0);
    const resumed = await h.act(r.json.batchId, 'resume');
    expect(resumed.json.status).toBe('running');
    expect((await h.act(r.json.batchId, 'resume')).status).toBe(409);
    await h.advance(5 * 60);
    expect((await h.get(r.json.batchId)).status).toBe('completed');
  });

  it('pause lets the call in progress finish and dials no one new; resume dials the rest', async () => {
    const h = sim();
    const cf = await h.flow();
    await h.script({ prefix: '010', delaySeconds: 20 });
    const r = await h.create({ CallFlowId: cf, PacingPerMinute: 60, Tasks: [{ To: '01020000001' }, { To: '01020000002' }] });
    await h.advance(2);
    expect((await h.get(r.json.batchId)).counts).toMatchObject({ dialing: 1, pending: 1 });
    expect((await h.act(r.json.batchId, 'pause')).json.status).toBe('paused');
    await h.advance(HOUR);
    const paused = await h.get(r.json.batchId);
    expect(paused).toMatchObject({ status: 'paused', counts: { done: 1, pending: 1, dialing: 0 } });
    expect(h.batchCalls()).toHaveLength(1);
    await h.act(r.json.batchId, 'resume');
    await h.advance(HOUR);
    expect(await h.get(r.json.batchId)).toMatchObject({ status: 'completed', counts: { done: 2 } });
  });

  it('cancel: pending recipients canceled, the call in progress goes on and records its result', async () => {
    const h = sim();
    const cf = await h.flow();
    await h.script({ prefix: '010', delaySeconds: 20 });
    const r = await h.create({ CallFlowId: cf, Tasks: [{ To: '01020000001' }, { To: '01020000002' }, { To: '01020000003' }] });
    await h.advance(2);
    const canceled = await h.act(r.json.batchId, 'cancel');
    expect(canceled.json).toMatchObject({ status: 'canceled', counts: { dialing: 1, canceled: 2 } });
    await h.advance(HOUR);
    const b = await h.get(r.json.batchId);
    expect(b.counts).toMatchObject({ done: 1, canceled: 2, dialing: 0 });
    expect(h.sum(b.counts)).toBe(3);
    expect((await h.act(r.json.batchId, 'cancel')).json.code).toBe('call_batch_ended');
  });

  it('expired when EndAt passes: pending recipients expire', async () => {
    const h = sim();
    const cf = await h.flow();
    const tasks = Array.from({ length: 5 }, (_, i) => ({ To: `0102000000${i}` }));
    const r = await h.create({ CallFlowId: cf, PacingPerMinute: 1, EndAt: '2026-03-02T00:02:30Z', Tasks: tasks });
    await h.advance(HOUR);
    const b = await h.get(r.json.batchId);
    expect(b.status).toBe('expired');
    expect(b.counts).toMatchObject({ done: 3, expired: 2 });
    expect(h.batchCalls()).toHaveLength(3);
    expect((await h.tasks(r.json.batchId, '?status=expired')).every((t) => t.expectedDialAt === null && t.nextAttemptAt === null)).toBe(true);
  });
});

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

describe('call batches: over HTTP', () => {
  it('the node:http edge takes a 2 MB Tasks body and answers 413 above 10 MB before reading it', async () => {
    const h = sim();
    const cf = await h.flow();
    const server = await h.sim.listen(0);
    try {
      const post = (path: string, body: string) =>
        fetch(`${server.url}/v1/accounts/AC1a2b3c4d${path}`, { method: 'POST', headers: { authorization: 'Bearer sk_test_acme_4f9c2b7e1d3a5c8f', 'content-type': 'application/json' }, body });
      const pad = 'x'.repeat(200);
      const tasks = (n: number, base: number) => Array.from({ length: n }, (_, i) => ({ To: `010${String(base + i)}`, Variables: { pad } }));
      const ok = await post('/call-batches', JSON.stringify({ Name: 'b', From: FROM, CallFlowId: cf, Status: 'paused', Tasks: tasks(9000, 30_000_000) }));
      expect(ok.status).toBe(200);
      const id = ((await ok.json()) as { batchId: string }).batchId;
      const big = await post(`/call-batches/${id}/tasks`, JSON.stringify({ Tasks: tasks(45_000, 40_000_000) }));
      expect(big.status).toBe(413);
      await big.text();
      const msg = await post('/messages', JSON.stringify({ To: '01020000001', From: FROM, Body: 'y'.repeat(2_000_000) }));
      expect(msg.status).toBe(413);
      await msg.text();
      expect((await h.get(id)).counts.pending).toBe(9000);
    } finally {
      await h.sim.close();
    }
  });
});

describe('call batches: reset', () => {
  it('a reset forgets batches and their dialing; a batch made after it runs', async () => {
    const h = sim();
    const cf = await h.flow();
    await h.create({ CallFlowId: cf, Tasks: [{ To: '01020000001' }, { To: '01020000002' }] });
    await h.advance(2);
    await h.sim.control.reset();
    expect((await h.call('GET', h.acme('/call-batches'))).json.callBatches).toEqual([]);
    const cf2 = await h.flow();
    const r = await h.create({ CallFlowId: cf2, Tasks: [{ To: '01020000003' }] });
    await h.advance(HOUR);
    expect((await h.get(r.json.batchId)).status).toBe('completed');
    expect(h.batchCalls().map((c) => c.to)).toEqual(['01020000003']);
  });
});

describe('call batches: the status index', () => {
  it('finds the k-th task of a status like a scan does, through pushes (growing past its capacity) and moves', () => {
    const S = ['a', 'b', 'c'] as const;
    const op = fc.oneof(
      fc.constantFrom(...S).map((s) => ({ kind: 'push' as const, s })),
      fc.tuple(fc.nat(5000), fc.constantFrom(...S)).map(([i, s]) => ({ kind: 'move' as const, i, s })),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 3000 }), (ops) => {
        const index = new StatusIndex(S);
        const statuses: (typeof S)[number][] = [];
        for (const o of ops) {
          if (o.kind === 'push') {
            index.push(o.s);
            statuses.push(o.s);
          } else if (statuses.length > 0) {
            const pos = o.i % statuses.length;
            index.move(pos, statuses[pos]!, o.s);
            statuses[pos] = o.s;
          }
        }
        for (const s of S) {
          const positions = statuses.flatMap((x, i) => (x === s ? [i] : []));
          positions.forEach((p, k) => expect(index.kth(s, k)).toBe(p));
          expect(index.kth(s, positions.length)).toBeUndefined();
        }
      }),
      { numRuns: 30 },
    );
  });
});
