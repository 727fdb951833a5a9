// Call batches through the API: creation and its refusals, the seven states and the actions,
// bodies over HTTP, reset, and the status index. The dialer on the virtual clock is
// call-batches-dialer.test.ts. The fixture's clock starts at 09:00 Korea time.
import { describe, expect, it } from 'vitest';
import { FROM, HOUR, sim } from './call-batches-helpers.ts';
import fc from 'fast-check';
import { StatusIndex } from '../resources/call-batches/status-index.ts';

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

  it('keeps its counts through several doublings (1,024 to 8,192 places), moves made between them', () => {
    const S = ['a', 'b'] as const;
    const index = new StatusIndex(S);
    const statuses: (typeof S)[number][] = [];
    for (let i = 0; i < 5000; i++) {
      const s = i % 3 === 0 ? 'b' : 'a';
      index.push(s);
      statuses.push(s);
      // Every 700 pushes, one earlier task moves: the trees hold more than pushes when they grow.
      if (i % 700 === 699) {
        const pos = (i * 7) % statuses.length;
        const to = statuses[pos] === 'a' ? 'b' : 'a';
        index.move(pos, statuses[pos]!, to);
        statuses[pos] = to;
      }
    }
    for (const s of S) {
      const positions = statuses.flatMap((x, i) => (x === s ? [i] : []));
      positions.forEach((p, k) => expect(index.kth(s, k)).toBe(p));
      expect(index.kth(s, positions.length)).toBeUndefined();
    }
  });
});
