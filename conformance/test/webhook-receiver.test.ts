// The kit's webhook receiver and webhook checks, against the simulator (which delivers over real
// HTTP) and against a wrong sender: scopes and scripted answers, the signature, and the
// callflow.ended field table. The webhook step itself is tested through the scenarios
// (suite.test.ts) and a wrong sender in front of the receiver (wrong-sender.test.ts).
import { afterEach, describe, expect, it } from 'vitest';
// The simulator's signer (through its public entry) signs the hand-made requests: the kit's own
// verifier must accept what it signs with the right key and nothing else.
import { computeSignature, createSimulator, type Simulator } from '../../simulator/index.ts';
import { WebhookReceiver } from '../webhook-receiver.ts';
import { VARIABLES_LIMIT_BYTES, checkWebhook, type ReceivedWebhook } from '../checks/webhooks.ts';

const ACME = { accountId: 'AC1a2b3c4d', key: 'sk_test_acme_4f9c2b7e1d3a5c8f' };
const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((x) => x.close()));
});

async function register(sim: Simulator, url: string): Promise<void> {
  const res = await sim.handle({
    method: 'POST',
    url: `/v1/accounts/${ACME.accountId}/webhooks`,
    headers: { authorization: `Bearer ${ACME.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url, events: ['callflow.ended'] }),
  });
  expect(res.status).toBe(201);
}

async function setup(scope?: string): Promise<{ sim: Simulator; receiver: WebhookReceiver; key: string }> {
  const sim = createSimulator({ webhooks: { timeoutMs: 2000 } });
  const receiver = await WebhookReceiver.start();
  opened.push(sim, receiver);
  await register(sim, receiver.urlFor('callflow.ended', scope));
  return { sim, receiver, key: await sim.webhooks.signingKey(ACME.accountId) };
}

/** A valid callflow.ended payload (the spec's field table), with overrides. */
function callflowEnded(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    CallId: 'CA1',
    AccountId: ACME.accountId,
    From: '01012345678',
    To: '07012340001',
    Direction: 'inbound',
    Event: 'callflow.ended',
    Timestamp: '2026-03-02T00:00:00.000Z',
    FlowId: 'CF1',
    Status: 'completed',
    Variables: { caller: '01012345678', callee: '07012340001' },
    ...overrides,
  };
}

async function send(sim: Simulator, payload: Record<string, unknown>): Promise<void> {
  await sim.control.request('POST', '/webhooks/events', { accountId: ACME.accountId, type: 'callflow.ended', payload });
}

function failures(w: ReceivedWebhook, ctx = {}): string[] {
  return checkWebhook(w, ctx)
    .filter((r) => !r.passed)
    .map((r) => r.id);
}

describe('webhook receiver', () => {
  it('records each request under its scope and route; the simulator passes every check', async () => {
    const { sim, receiver, key } = await setup('s1');
    await send(sim, callflowEnded({ CallId: 'CA77' }));
    await sim.webhooks.settle();
    expect(receiver.received).toHaveLength(1);
    const w = receiver.inScope('s1')[0]!;
    expect(w).toMatchObject({ scope: 's1', route: '/events/callflow.ended', event: 'callflow.ended', format: 'form', answered: 204, method: 'POST' });
    expect(w.url).toBe(receiver.urlFor('callflow.ended', 's1'));
    expect(w.fields.CallId).toBe('CA77');
    expect(receiver.inScope('s2')).toEqual([]);
    const results = checkWebhook(w, { signingKey: key, collectedVariablesBytes: 60 });
    expect(results.map((r) => r.id)).toEqual([
      'webhook-form-encoded',
      'callflow-ended-post',
      'webhook-signature-present',
      'webhook-signature-valid',
      'callflow-ended-required-fields',
      'callflow-ended-direction',
      'callflow-ended-event',
      'callflow-ended-timestamp',
      'callflow-ended-status',
      'callflow-ended-variables-json',
      'callflow-ended-caller-callee',
      'callflow-ended-variables-truncated',
    ]);
    expect(results.filter((r) => !r.passed)).toEqual([]);
    expect(results.find((r) => r.id === 'webhook-signature-valid')).toMatchObject({ level: 'sim', clauses: ['auth.webhook-signature'] });
  });

  it('answers as scripted per scope and route, then 204 again; the target retries', async () => {
    const { sim, receiver } = await setup('s1');
    receiver.script('s1', { status: 503, times: 2, route: '/events/callflow.ended', body: 'busy' });
    receiver.script('other', { status: 500 });
    await send(sim, callflowEnded());
    await sim.webhooks.settle();
    await sim.clock.advance({ seconds: 3600 });
    expect(receiver.inScope('s1').map((w) => w.answered)).toEqual([503, 503, 204]);
    const journal = await sim.webhooks.journal({ event: 'callflow.ended' });
    expect(journal.map((a) => a.responseStatus)).toEqual([503, 503, 204]);
  });

  it('waitUntil resolves when a request makes the test hold, or false after the wait', async () => {
    const receiver = await WebhookReceiver.start();
    opened.push(receiver);
    const arrived = receiver.waitUntil(() => receiver.received.length === 1, 5000);
    await fetch(receiver.urlFor('message.sent', 'x'), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'MessageId=MG1' });
    expect(await arrived).toBe(true);
    expect(await receiver.waitUntil(() => receiver.received.length === 2, 30)).toBe(false);
  });

  it('takes the public URL with or without its path prefix, as a tunnel may forward either', async () => {
    const receiver = await WebhookReceiver.start({ publicUrl: 'https://tunnel.example/hooks/' });
    opened.push(receiver);
    expect(receiver.scopeUrl('s')).toBe('https://tunnel.example/hooks/r/s');
    await fetch(`${receiver.localUrl}/hooks/r/s/events/a?x=1`, { method: 'POST', body: 'A=1' });
    await fetch(`${receiver.localUrl}/r/s/events/b`, { method: 'POST', body: 'B=1' });
    expect(receiver.inScope('s').map((w) => [w.url, w.route, w.event])).toEqual([
      ['https://tunnel.example/hooks/r/s/events/a?x=1', '/events/a', 'a'],
      ['https://tunnel.example/hooks/r/s/events/b', '/events/b', 'b'],
    ]);
  });

  it('flags a callflow.ended that breaks the field table', async () => {
    const { sim, receiver, key } = await setup();
    const { CallId: _c, FlowId: _f, ...noIds } = callflowEnded();
    const cases: [Record<string, unknown>, string[]][] = [
      [callflowEnded({ CallId: 'B1', Status: true }), ['callflow-ended-status']],
      [callflowEnded({ CallId: 'B2', Status: 'ok', Direction: 'sideways', Event: 'call.ended', Timestamp: 'yesterday' }), ['callflow-ended-direction', 'callflow-ended-event', 'callflow-ended-timestamp', 'callflow-ended-status']],
      [{ ...noIds, Note: 'B3' }, ['callflow-ended-required-fields']],
      [callflowEnded({ CallId: 'B4', Variables: '[1,2]' }), ['callflow-ended-variables-json']],
      [callflowEnded({ CallId: 'B5', Variables: {} }), ['callflow-ended-caller-callee']],
      [callflowEnded({ CallId: 'B6', VariablesTruncated: 'yes' }), ['callflow-ended-variables-truncated']],
      [callflowEnded({ CallId: 'B7', Variables: { caller: '1', callee: '2', big: 'x'.repeat(VARIABLES_LIMIT_BYTES) } }), ['callflow-ended-variables-truncated']],
    ];
    for (const [payload] of cases) await send(sim, payload);
    await sim.webhooks.settle();
    expect(receiver.received).toHaveLength(cases.length);
    receiver.received.forEach((w, i) => {
      expect(failures(w, { signingKey: key }), JSON.stringify(cases[i]![0]).slice(0, 60)).toEqual(cases[i]![1]);
    });
  });

  it('VariablesTruncated: required past 8 KB of collected variables, refused below', async () => {
    const { sim, receiver } = await setup();
    await send(sim, callflowEnded({ CallId: 'T1', VariablesTruncated: true }));
    await send(sim, callflowEnded({ CallId: 'T2' }));
    await sim.webhooks.settle();
    const [flagged, plain] = receiver.received as [ReceivedWebhook, ReceivedWebhook];
    expect(flagged.fields.VariablesTruncated).toBe('true');
    expect(failures(flagged, { collectedVariablesBytes: 9000 })).toEqual([]);
    expect(failures(flagged, { collectedVariablesBytes: 100 })).toEqual(['callflow-ended-variables-truncated']);
    expect(failures(plain, { collectedVariablesBytes: 100 })).toEqual([]);
    expect(failures(plain, { collectedVariablesBytes: 9000 })).toEqual(['callflow-ended-variables-truncated']);
  });

  it('flags a sender that posts JSON, signs wrongly or not at all, or sends callflow.ended by GET', async () => {
    const receiver = await WebhookReceiver.start();
    opened.push(receiver);
    const url = receiver.urlFor('callflow.ended');
    const fields = { ...callflowEnded(), Variables: JSON.stringify(callflowEnded().Variables) };
    await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...fields, Status: true }) });
    await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-signature': computeSignature('other-key', url, fields) }, body: new URLSearchParams(fields).toString() });
    await fetch(url, { method: 'GET' });
    const [json, badSig, get] = receiver.received as [ReceivedWebhook, ReceivedWebhook, ReceivedWebhook];
    // JSON is still read, so the checks can say what else is wrong with it.
    expect(json).toMatchObject({ format: 'json', fields: { CallId: callflowEnded().CallId, Status: 'true' } });
    expect(failures(json, { signingKey: 'right-key' })).toEqual(['webhook-form-encoded', 'callflow-ended-post', 'webhook-signature-present', 'callflow-ended-status']);
    expect(failures(badSig, { signingKey: 'right-key' })).toEqual(['webhook-signature-valid']);
    expect(failures(badSig, { signingKey: 'other-key' })).toEqual([]);
    expect(failures(get)).toEqual(['callflow-ended-post', 'webhook-signature-present', 'callflow-ended-required-fields']);
  });
});
