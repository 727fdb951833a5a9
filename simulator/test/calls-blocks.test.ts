// The blocks' effects on real calls: http requests to real receivers (JSON, garbage, a hang),
// texts through the messaging slice, opt-outs, recordings, dial legs, machine detection and
// the status callbacks.
import { afterEach, describe, expect, it } from 'vitest';
import { ACME, harness } from './helpers.ts';
import { voiceSteps } from './voice-steps.ts';
import { closeAllReceivers, startReceiver } from './receivers.ts';
import type { FlowGraph } from '../resources/calls/flow-graph.ts';
import { runtimeOf } from '../internal.ts';
import { signedLink } from './signed-links.ts';

afterEach(closeAllReceivers);

function sim() {
  const h = harness();
  const ended = async () => {
    const hook = await startReceiver();
    await h.call('POST', h.acme('/webhooks'), { url: hook.url, events: ['callflow.ended'] });
    return () => Object.fromEntries(hook.requests.map((r) => [r.fields.CallId, { ...r.fields, vars: JSON.parse(r.fields.Variables!) }]));
  };
  return { ...h, ...voiceSteps(h), ended };
}

const httpFlow = (url: string): FlowGraph => ({
  version: 1,
  start: 'h',
  nodes: {
    h: { type: 'http', method: 'POST', url, body: '{"callee":"{{callee}}"}', saveAs: [{ var: 'name', path: 'data.name' }], next: 'ok', errorNext: 'err' },
    ok: { type: 'setvar', assignments: [{ name: 'went', value: 'ok' }], next: null },
    err: { type: 'setvar', assignments: [{ name: 'went', value: 'err' }], next: null },
  },
});

describe('call flow blocks on real calls', () => {
  it('http: a JSON answer is saved; garbage and a hang take errorNext; the clock never stalls', async () => {
    const h = sim();
    runtimeOf(h.sim).calls.http.timeoutMs = 300;
    const good = await startReceiver(() => ({ status: 200, body: '{"data":{"name":"Lee"}}', headers: { 'content-type': 'application/json' } }));
    const garbage = await startReceiver(() => ({ status: 200, body: '<html>oops' }));
    const hangs = await startReceiver(() => ({ hang: true }));
    const ended = await h.ended();
    const ids = [
      await h.place('010-6000-0001', await h.flow(httpFlow(`${good.url}?who={{callee}}`))),
      await h.place('010-6000-0002', await h.flow(httpFlow(garbage.url))),
      await h.place('010-6000-0003', await h.flow(httpFlow(hangs.url))),
      await h.place('010-6000-0004', await h.flow(httpFlow('http://user:pw@example.test/x'))),
    ];
    await h.advance(30);
    await h.sim.webhooks.settle();
    expect(good.requests[0]).toMatchObject({ method: 'POST', path: '/hook?who=01060000001', body: '{"callee":"01060000001"}' });
    expect(good.requests[0]!.headers['content-type']).toBe('application/json');
    const got = ended();
    expect(got[ids[0]!]!.vars).toMatchObject({ name: 'Lee', http_status: '200', went: 'ok' });
    expect(got[ids[1]!]!.vars).toMatchObject({ http_status: '200', went: 'err' });
    expect(got[ids[2]!]!.vars.went).toBe('err');
    expect(got[ids[2]!]!.vars).not.toHaveProperty('http_status');
    expect(got[ids[3]!]!.vars.went).toBe('err');
    for (const id of ids) expect((await h.get(id)).status).toBe('completed');
  });

  it('http goes through the egress guard: strict mode refuses loopback, localhost and names resolving inside (errorNext)', async () => {
    const h = sim();
    const hits = await startReceiver(() => ({ status: 200, body: '{"data":{"name":"Lee"}}', headers: { 'content-type': 'application/json' } }));
    const port = new URL(hits.url).port;
    // A fake DNS name for the loopback receiver: the guard resolves it (fake DNS first) at the connection.
    await h.sim.control.request('PUT', '/dns/records/hooks.example.com', { records: [{ type: 'A', value: '127.0.0.1' }] });
    // The branch taken is spoken, so the phone tells it (strict mode also stops webhooks to loopback).
    const spoken = (url: string): FlowGraph => ({
      version: 1,
      start: 'h',
      nodes: {
        h: { type: 'http', method: 'GET', url, saveAs: [{ var: 'name', path: 'data.name' }], next: 'ok', errorNext: 'err' },
        ok: { type: 'say', text: 'ok {{name}}', next: null },
        err: { type: 'say', text: 'err', next: null },
      },
    });
    const flows: string[] = [];
    for (const url of [hits.url, `http://localhost:${port}/hook`, `http://hooks.example.com:${port}/hook`]) flows.push(await h.flow(spoken(url)));
    const heard = async (number: string) => (await h.sim.control.request<any>('GET', `/carrier/phones/${number}`)).calls[0].texts;

    for (const [i, f] of flows.entries()) await h.place(`010-6050-000${i}`, f);
    await h.advance(30);
    expect(hits.requests).toHaveLength(3); // by default anything goes, names through the fake DNS
    for (const i of flows.keys()) expect(await heard(`010-6050-000${i}`)).toEqual(['ok Lee']);

    expect((await h.sim.control.request<any>('PUT', '/egress', { strict: true })).strict).toBe(true);
    const strict: string[] = [];
    for (const [i, f] of flows.entries()) strict.push(await h.place(`010-6051-000${i}`, f));
    await h.advance(30);
    expect(hits.requests).toHaveLength(3); // nothing more reached the receiver
    for (const i of flows.keys()) expect(await heard(`010-6051-000${i}`)).toEqual(['err']);
    for (const id of strict) expect((await h.get(id)), id).toMatchObject({ status: 'completed' });
  });

  it('message sends a real text from the number on the line; optout adds a blocked recipient with source ars', async () => {
    const h = sim();
    const id = await h.place(
      '010-6100-0001',
      await h.flow({
        version: 1,
        start: 'm',
        nodes: {
          m: { type: 'message', body: 'Your code is {{code}}', next: 'o' },
          o: { type: 'optout', number: '{{callee}}', channel: 'message', note: 'pressed 9', next: null },
        },
      }),
      { Variables: { code: '1234' } },
    );
    await h.advance(60);
    const texts = (await h.call('GET', h.acme('/messages?number=010-6100-0001'))).json.data;
    expect(texts).toHaveLength(1);
    expect(texts[0]).toMatchObject({ from: '07012340001', to: '01061000001', body: 'Your code is 1234', direction: 'outbound', status: 'sent' });
    const blocks = (await h.call('GET', h.acme('/blocked-recipients?number=010-6100-0001&channel=message'))).json.data;
    expect(blocks).toHaveLength(1);
    expect(blocks[0]).toMatchObject({ source: 'ars', sourceRef: id, note: 'pressed 9', active: true, createdBy: null });
  });

  it('record: speakSeconds capped by maxLengthSec gives the duration variables and the call recordingUrl', async () => {
    const h = sim();
    const ended = await h.ended();
    const flowId = await h.flow({
      version: 1,
      start: 'r',
      nodes: { r: { type: 'record', prompt: 'Leave a message', maxLengthSec: 5, saveAs: 'memo', next: 'r2' }, r2: { type: 'record', playBeep: false, next: null } },
    });
    await h.script({ number: '010-6200-0001', speakSeconds: 8, keys: ['#', ''] });
    const id = await h.place('010-6200-0001', flowId);
    await h.advance(120);
    await h.sim.webhooks.settle();
    const base = `/v1/accounts/${ACME.accountId}/recordings/${id}`;
    // Before 2026-07-28 (the fixture's clock) the links handed out are signed.
    expect(ended()[id]!.vars).toMatchObject({ memo: signedLink(`${base}/verb/memo`), memo_duration: '5', recording_url: signedLink(`${base}/verb/r2`), recording_duration: '8' });
    // prompt 2 s + beep 1 s + 5 s (capped), then 8 s (default cap 60) without beep or prompt.
    expect(await h.get(id)).toMatchObject({ recordingUrl: signedLink(base), duration: 16, status: 'completed' });
    const phone = await h.sim.control.request<any>('GET', '/carrier/phones/010-6200-0001');
    expect(phone.calls[0]).toMatchObject({ texts: ['Leave a message'], entered: ['#', ''] });
  });

  it('dial: the dialed leg rings and talks as its own script says, then the flow goes on', async () => {
    const h = sim();
    const flowId = await h.flow({ version: 1, start: 'd', nodes: { d: { type: 'dial', target: { kind: 'number', value: '010-6300-0009' }, next: null } } });
    await h.script({ number: '010-6300-0009', delaySeconds: 3, hangupAfterSeconds: 20 });
    await h.script({ number: '010-6300-0008', outcome: 'busy', delaySeconds: 2 });
    const a = await h.place('010-6300-0001', flowId);
    const busyFlow = await h.flow({ version: 1, start: 'd', nodes: { d: { type: 'dial', target: { kind: 'number', value: '010-6300-0008' }, next: null } } });
    const b = await h.place('010-6300-0002', busyFlow);
    await h.advance(120);
    expect(await h.get(a)).toMatchObject({ status: 'completed', duration: 23 });
    expect(await h.get(b)).toMatchObject({ status: 'completed', duration: 2 });
  });

  it('machine detection: answeredBy only with MachineDetection; Hangup ends a machine-answered call at once', async () => {
    const h = sim();
    const ended = await h.ended();
    const flowId = await h.flow({ version: 1, start: 's', nodes: { s: { type: 'say', text: 'Hello there', next: null } } });
    await h.script({ number: '010-6400-0001', answeredBy: 'machine' });
    const plain = await h.place('010-6400-0001', flowId);
    const enabled = await h.place('010-6400-0001', flowId, { MachineDetection: 'Enable' });
    const hangup = await h.place('010-6400-0001', flowId, { MachineDetection: 'Hangup' });
    const human = await h.place('010-6400-0002', flowId, { MachineDetection: 'Hangup' });
    await h.advance(60);
    await h.sim.webhooks.settle();
    expect(await h.get(plain)).toMatchObject({ answeredBy: null, duration: 2 });
    expect(await h.get(enabled)).toMatchObject({ answeredBy: 'machine', duration: 2 });
    expect(await h.get(hangup)).toMatchObject({ answeredBy: 'machine', duration: 0, status: 'completed', hangupSource: 'caller' });
    expect(await h.get(human)).toMatchObject({ answeredBy: 'human', duration: 2 });
    expect(ended()[hangup]!.Status).toBe('abandoned');
    expect(ended()[enabled]!.Status).toBe('completed');
  });

  it('status callbacks: the default events, in order, with the end fields on completed', async () => {
    const h = sim();
    const cb = await startReceiver();
    const flowId = await h.flow({ version: 1, start: 's', nodes: { s: { type: 'say', text: 'Hi', next: null } } });
    const id = await h.place('010-6500-0001', flowId, { StatusCallback: cb.url });
    const only = await h.place('010-6500-0002', flowId, { StatusCallback: cb.url, StatusCallbackEvent: 'completed' });
    await h.advance(60);
    await h.sim.webhooks.settle();
    const of = (callId: string) => cb.requests.filter((r) => r.fields.CallId === callId).map((r) => [r.fields.StatusCallbackEvent, r.fields.CallStatus]);
    expect(of(id)).toEqual([['initiated', 'queued'], ['ringing', 'ringing'], ['answered', 'in-progress'], ['completed', 'completed']]);
    expect(of(only)).toEqual([['completed', 'completed']]);
    const last = cb.requests.find((r) => r.fields.CallId === id && r.fields.StatusCallbackEvent === 'completed')!;
    expect(last.fields).toMatchObject({ Duration: '1', HangupCause: 'normal_clearing', HangupCauseQ850: '16', SipResponseCode: '200', HangupSource: 'caller', Direction: 'outbound' });
    expect(last.headers['x-signature']).toBeTruthy();
  });

  it('Variables past 8 KB are cut and flagged VariablesTruncated', async () => {
    const h = sim();
    const ended = await h.ended();
    const flowId = await h.flow({
      version: 1,
      start: 's',
      nodes: { s: { type: 'setvar', assignments: [{ name: 'a', value: '{{big}}' }, { name: 'b', value: '{{big}}' }, { name: 'c', value: 'small' }], next: null } },
    });
    const id = await h.place('010-6600-0001', flowId, { Variables: { big: 'x'.repeat(3000) } });
    await h.advance(60);
    await h.sim.webhooks.settle();
    const got = ended()[id]!;
    expect(got.VariablesTruncated).toBe('true');
    expect(Buffer.byteLength(got.Variables)).toBeLessThanOrEqual(8192);
    expect(Object.keys(got.vars)).toEqual(['caller', 'callee', 'big', 'a', 'c']);
  });

  it('replies: the phone answers by what it heard, so a reordered menu gets the same choice; else keys, else nothing', async () => {
    const h = sim();
    const ended = await h.ended();
    const menu = (prompt: string, branches: Record<string, string>): FlowGraph => ({
      version: 1,
      start: 'm',
      nodes: {
        m: { type: 'menu', prompt, branches, invalidNext: null, timeoutNext: null, saveAs: 'choice' },
        book: { type: 'menu', prompt: 'Which day?', branches: { '5': 'r' }, invalidNext: 'r', timeoutNext: 'r', saveAs: 'day' },
        other: { type: 'setvar', assignments: [{ name: 'went', value: 'other' }], next: null },
        r: { type: 'record', prompt: 'Tell us more', maxLengthSec: 10, saveAs: 'memo', next: 'q' },
        q: { type: 'menu', prompt: 'Anything else?', branches: { '1': 'other' }, invalidNext: null, timeoutNext: null, saveAs: 'more' },
      },
    });
    const first = await h.flow(menu('For bookings press 1, for other matters press 2', { '1': 'book', '2': 'other' }));
    const reordered = await h.flow(menu('For other matters press 1, for bookings press 2', { '1': 'other', '2': 'book' }));
    const replies = [
      { heard: 'bookings press 1', keys: '1' },
      { heard: 'bookings press 2', keys: '2' },
      { heard: 'tell us', keys: '#', speakSeconds: 7 },
    ];
    await h.script({ number: '010-6700-0001', replies, keys: ['5'] });
    const a = await h.place('010-6700-0001', first);
    const b = await h.place('010-6700-0001', reordered);
    await h.advance(300);
    await h.sim.webhooks.settle();
    for (const id of [a, b]) {
      expect(ended()[id]!.vars).toMatchObject({ day: '5', memo_duration: '7' });
      expect(ended()[id]!.vars).not.toHaveProperty('more');
    }
    expect(ended()[a]!.vars.choice).toBe('1');
    expect(ended()[b]!.vars.choice).toBe('2');
    const phone = await h.sim.control.request<any>('GET', '/carrier/phones/010-6700-0001');
    const call = phone.calls.find((c: { callId: string }) => c.callId === b);
    expect(call.prompts).toEqual([
      { heard: 'For other matters press 1, for bookings press 2', entered: '2', answer: 'reply:1' },
      { heard: 'Which day?', entered: '5', answer: 'keys:0' },
      { heard: 'Tell us more', entered: '#', answer: 'reply:2' },
      { heard: 'Anything else?', entered: '', answer: 'none' },
    ]);
  });

  it('replies that do not compile or could run away are refused with 400 and nothing is stored', async () => {
    const h = sim();
    for (const heard of ['(unclosed', '(a+)+$', '(\\w*)*x', '(x{2,})*']) {
      const r = await h.call('POST', '/_sim/carrier/scripts', { number: '010-6800-0001', outcome: 'delivered', replies: [{ heard, keys: '1' }] });
      expect([heard, r.status]).toEqual([heard, 400]);
      expect(r.json.errors?.[0]?.path ?? r.json.issues?.[0]?.path ?? r.text).toContain('replies.0.heard');
      const i = await h.call('POST', '/_sim/carrier/inbound-calls', { from: '010-6800-0002', to: '070-1234-0001', replies: [{ heard, keys: '1' }] });
      expect(i.status).toBe(400);
    }
    expect((await h.sim.control.request<any>('GET', '/carrier/scripts')).data).toEqual([]);
    expect((await h.call('GET', h.acme('/calls'))).json.meta.total).toBe(0);
    const ok = await h.call('POST', '/_sim/carrier/scripts', { number: '010-6800-0001', outcome: 'delivered', replies: [{ heard: 'press (1|2)+', keys: '1' }] });
    expect(ok.status).toBe(201);
  });
});
