// The kit's webhook receiver and webhook checks, against the simulator (which delivers over real
// HTTP) and against a wrong sender: expecting an event within a virtual or real bound, the
// signature, and the callflow.ended field table.
import { afterEach, describe, expect, it } from 'vitest';
import { createSimulator, type Simulator } from '../../simulator/index.ts';
import { computeSignature } from '../../simulator/core/signing.ts';
import { sampleCallflowEnded } from '../../simulator/test/receivers.ts';
import { WebhookReceiver } from '../webhook-receiver.ts';
import { VARIABLES_LIMIT_BYTES, checkWebhook, webhookMismatches, type ReceivedWebhook } from '../checks/webhooks.ts';

const ACME = { accountId: 'AC1a2b3c4d', key: 'sk_test_acme_4f9c2b7e1d3a5c8f' };
const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((x) => x.close()));
});

async function setup(): Promise<{ sim: Simulator; receiver: WebhookReceiver; key: string }> {
  const sim = createSimulator({ webhooks: { timeoutMs: 2000 } });
  const receiver = await WebhookReceiver.start();
  opened.push(sim, receiver);
  const res = await sim.handle({
    method: 'POST',
    url: `/v1/accounts/${ACME.accountId}/webhooks`,
    headers: { authorization: `Bearer ${ACME.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url: receiver.urlFor('callflow.ended'), events: ['callflow.ended'] }),
  });
  expect(res.status).toBe(201);
  return { sim, receiver, key: await sim.webhooks.signingKey(ACME.accountId) };
}

const advanceOf = (sim: Simulator) => async (seconds: number) => void (await sim.clock.advance({ seconds }));

const callflowEnded = sampleCallflowEnded;

async function send(sim: Simulator, payload: Record<string, unknown>): Promise<void> {
  await sim.control.request('POST', '/webhooks/events', { accountId: ACME.accountId, type: 'callflow.ended', payload });
}

function failures(w: ReceivedWebhook, ctx = {}): string[] {
  return checkWebhook(w, ctx)
    .filter((r) => !r.passed)
    .map((r) => r.id);
}

describe('webhook receiver', () => {
  it('expects an event by type and fields within a virtual bound; the simulator passes every check', async () => {
    const { sim, receiver, key } = await setup();
    await send(sim, callflowEnded({ CallId: 'CA77' }));
    const got = await receiver.expect({ event: 'callflow.ended', fields: { CallId: 'CA77', Status: 'completed' } }, { virtualSeconds: 0, advance: advanceOf(sim) });
    expect('webhook' in got).toBe(true);
    const w = (got as { webhook: ReceivedWebhook }).webhook;
    expect(w.event).toBe('callflow.ended');
    expect(w.url).toBe(receiver.urlFor('callflow.ended'));
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

  it('waits through the target\'s retries: a receiver that fails first still gets the event inside the bound', async () => {
    const sim = createSimulator({ webhooks: { timeoutMs: 2000 } });
    const receiver = await WebhookReceiver.start({ respond: (_w, n) => (n === 1 ? { status: 503, body: 'busy' } : { status: 204 }) });
    opened.push(sim, receiver);
    await sim.handle({
      method: 'POST',
      url: `/v1/accounts/${ACME.accountId}/webhooks`,
      headers: { authorization: `Bearer ${ACME.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: receiver.urlFor('callflow.ended'), events: ['callflow.ended'] }),
    });
    await send(sim, callflowEnded());
    await sim.webhooks.settle();
    expect(receiver.received).toHaveLength(1); // answered 503
    receiver.clear();
    expect('failure' in (await receiver.expect({ event: 'callflow.ended' }, { virtualSeconds: 5, advance: advanceOf(sim), graceMs: 20 }))).toBe(true);
    const got = await receiver.expect({ event: 'callflow.ended' }, { virtualSeconds: 60, advance: advanceOf(sim) });
    expect('webhook' in got).toBe(true);
    expect(receiver.received).toHaveLength(1); // the retry, 10 s after the first attempt
  });

  it('reports what it saw when nothing matches within the bound', async () => {
    const { sim, receiver } = await setup();
    await send(sim, callflowEnded({ CallId: 'CA1', Status: 'abandoned' }));
    const virtual = await receiver.expect({ event: 'callflow.ended', fields: { CallId: 'CA1', Status: 'completed' } }, { virtualSeconds: 3600, advance: advanceOf(sim), graceMs: 50 });
    expect(virtual).toEqual({ failure: expect.stringContaining('no webhook matching callflow.ended CallId=CA1 Status=completed') });
    expect((virtual as { failure: string }).failure).toContain('Status is "abandoned", expected "completed"');
    expect((virtual as { failure: string }).failure).toContain('within 3600 s of virtual time');
    const real = await receiver.expect({ event: 'message.sent' }, { realMs: 30 });
    expect((real as { failure: string }).failure).toMatch(/within 30 ms \(1 received, none for that event\)/);
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

  it('flags a sender that posts JSON, signs wrongly or not at all', async () => {
    const receiver = await WebhookReceiver.start();
    opened.push(receiver);
    const url = receiver.urlFor('callflow.ended');
    const fields = { ...callflowEnded(), Variables: JSON.stringify(callflowEnded().Variables) };
    await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(fields) });
    await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-signature': computeSignature('other-key', url, fields) }, body: new URLSearchParams(fields).toString() });
    await fetch(url, { method: 'GET' });
    const [json, badSig, get] = receiver.received as [ReceivedWebhook, ReceivedWebhook, ReceivedWebhook];
    expect(failures(json, { signingKey: 'right-key' })).toEqual(['webhook-form-encoded', 'webhook-signature-present', 'callflow-ended-required-fields']);
    expect(failures(badSig, { signingKey: 'right-key' })).toEqual(['webhook-signature-valid']);
    expect(failures(badSig, { signingKey: 'other-key' })).toEqual([]);
    expect(failures(get)).toEqual(['callflow-ended-post', 'webhook-signature-present', 'callflow-ended-required-fields']);
  });

  it('matches expectations on event, method and fields', () => {
    const w = { event: 'message.received', method: 'GET', fields: { MessageId: 'MG1', Body: 'hi' } } as unknown as ReceivedWebhook;
    expect(webhookMismatches(w, { event: 'message.received', method: 'get', fields: { MessageId: 'MG1', Body: /^h/, Subject: { absent: true } } })).toEqual([]);
    expect(webhookMismatches(w, { event: 'message.sent', method: 'POST', fields: { MessageId: 'MG2', Body: /^x/, Missing: 'x' } })).toEqual([
      'event is message.received, expected message.sent',
      'method is GET, expected POST',
      'MessageId is "MG1", expected "MG2"',
      'Body is "hi", expected /^x/',
      'Missing is missing',
    ]);
  });
});
