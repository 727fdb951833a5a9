// The fake carrier (simulator/peers/carrier/) through its control plane: default timing,
// magic numbers, scripted outcomes (order, types, times, delay), the phone view, the delivery
// log, and its place in snapshots.
import { beforeEach, describe, expect, it } from 'vitest';
import { harness } from './helpers.ts';

type H = ReturnType<typeof harness>;

const ctl = (h: H) => h.sim.control.request.bind(h.sim.control) as <T = any>(method: string, path: string, body?: unknown) => Promise<T>;

async function sendText(h: H, to: string, body = 'hi') {
  const r = await h.call('POST', h.acme('/messages'), { To: to, From: '07012340001', Body: body });
  expect(r.status, r.text).toBe(201);
  return r.json.messageId as string;
}

async function status(h: H, messageId: string): Promise<string> {
  return (await h.call('GET', h.acme(`/messages/${messageId}`))).json.status;
}

describe('fake carrier', () => {
  let h: H;
  beforeEach(() => {
    h = harness();
  });

  it('lists the magic numbers and the capability word', async () => {
    const magic = (await ctl(h)('GET', '/carrier/magic-numbers')).data;
    expect(magic.map((m: any) => m.number)).toEqual(['01000000400', '01000000408', '01000000410', '01000000480', '01000000486']);
    expect(magic[2]).toMatchObject({ outcomes: { sms: 'delivered', lms: 'delivered', mms: 'delivered', ata: 'failed', call: 'delivered' }, delaySeconds: null });
    expect((await h.sim.control.health()).capabilities).toEqual(expect.arrayContaining(['carrier', 'kakao-templates']));
  });

  it('magic numbers: 0400 fails, 0408 is an hour late, others deliver texts', async () => {
    const failing = await sendText(h, '010-0000-0400');
    const slow = await sendText(h, '010-0000-0408');
    const noAnswer = await sendText(h, '010-0000-0480');
    await h.sim.clock.advance({ seconds: 2 });
    expect([await status(h, failing), await status(h, slow), await status(h, noAnswer)]).toEqual(['failed', 'queued', 'sent']);
    await h.sim.clock.advance({ to: '2026-03-02T00:59:59.999Z' });
    expect(await status(h, slow)).toBe('queued');
    await h.sim.clock.advance({ seconds: 0.001 });
    expect(await status(h, slow)).toBe('sent');
  });

  it('scripts: the first match in order wins, over magic numbers; types, times and delay apply', async () => {
    const a = await ctl(h)('POST', '/carrier/scripts', { number: '+82 10-3000-0001', outcome: 'failed', times: 1 });
    expect(a).toEqual({ scriptId: 'cs_1', number: '01030000001', prefix: null, share: 1, attempts: 0, picked: 0, outcome: 'failed', types: null, delaySeconds: null, remaining: 1, answeredBy: 'human', keys: [], hangupAfterSeconds: null, speakSeconds: 3, replies: [], lines: [], createdAt: '2026-03-02T00:00:00.000Z' });
    await ctl(h)('POST', '/carrier/scripts', { number: '01030000001', outcome: 'delivered', delaySeconds: 60, types: ['lms'] });
    await ctl(h)('POST', '/carrier/scripts', { number: '010-0000-0400', outcome: 'delivered', types: ['sms'] });
    await ctl(h)('POST', '/carrier/scripts', { number: '010-3000-0002', outcome: 'busy' });

    const first = await sendText(h, '01030000001'); // script 1 (used up now)
    const second = await sendText(h, '01030000001'); // no sms script left: the default (sent at 2 s)
    const long = await sendText(h, '01030000001', 'x'.repeat(100)); // lms: script 2, 60 s
    const rescued = await sendText(h, '01000000400'); // script 3 beats the magic number
    const busy = await sendText(h, '01030000002'); // "busy" means failed for a text
    await h.sim.clock.advance({ seconds: 2 });
    expect([await status(h, first), await status(h, second), await status(h, long), await status(h, rescued), await status(h, busy)]).toEqual([
      'failed', 'sent', 'queued', 'sent', 'failed',
    ]);
    await h.sim.clock.advance({ seconds: 58 });
    expect(await status(h, long)).toBe('sent');
    const scripts = (await ctl(h)('GET', '/carrier/scripts')).data;
    expect(scripts.map((s: any) => [s.scriptId, s.remaining])).toEqual([['cs_1', 0], ['cs_2', null], ['cs_3', null], ['cs_4', null]]);

    const log = (await ctl(h)('GET', '/carrier/deliveries?number=01030000001')).data;
    expect(log.map((d: any) => [d.ownerId, d.scriptId, d.outcome, d.status])).toEqual([
      [long, 'cs_2', 'delivered', 'delivered'],
      [second, null, 'delivered', 'delivered'],
      [first, 'cs_1', 'failed', 'failed'],
    ]);
    expect((await ctl(h)('GET', '/carrier/deliveries?status=failed')).data.map((d: any) => d.ownerId)).toEqual([busy, first]);
  });

  it('removes scripts one by one or all at once; unknown ids are 404', async () => {
    await ctl(h)('POST', '/carrier/scripts', { number: '01030000001', outcome: 'failed' });
    await ctl(h)('POST', '/carrier/scripts', { number: '01030000002', outcome: 'failed' });
    expect((await h.call('DELETE', '/_sim/carrier/scripts/cs_1', undefined, { key: null })).status).toBe(204);
    const missing = await h.call('DELETE', '/_sim/carrier/scripts/cs_1', undefined, { key: null });
    expect(missing.status).toBe(404);
    expect(missing.json.code).toBe('carrier_script_not_found');
    expect((await ctl(h)('GET', '/carrier/scripts')).data.map((s: any) => s.scriptId)).toEqual(['cs_2']);
    expect((await h.call('DELETE', '/_sim/carrier/scripts', undefined, { key: null })).status).toBe(204);
    expect((await ctl(h)('GET', '/carrier/scripts')).data).toEqual([]);
    expect(await status(h, await sendText(h, '01030000001'))).toBe('queued');
  });

  it('refuses bad scripts with 400 and changes nothing', async () => {
    const before = JSON.stringify(h.sim.snapshot());
    for (const body of [
      { number: 'abc', outcome: 'failed' },
      { number: '+1 212 555 0100', outcome: 'failed' },
      { number: '01030000001', outcome: 'lost' },
      { number: '01030000001', outcome: 'failed', types: ['fax'] },
      { number: '01030000001', outcome: 'failed', times: 0 },
      { number: '01030000001', outcome: 'failed', delaySeconds: -1 },
      { outcome: 'failed' },
    ]) {
      const r = await h.call('POST', '/_sim/carrier/scripts', body, { key: null });
      expect(r.status, JSON.stringify(body)).toBe(400);
    }
    expect(JSON.stringify(h.sim.snapshot())).toBe(before);
  });

  it('the phone shows delivered texts only, newest first, with what it received', async () => {
    const m1 = await sendText(h, '010-4444-0001', 'first');
    await h.sim.clock.advance({ seconds: 1 });
    const mms = (await h.call('POST', h.acme('/messages'), { To: '01044440001', From: '07012340002', Body: 'pic', Subject: 'Hi', MediaUrl: ['https://img.example/x.jpg'] })).json.messageId;
    await ctl(h)('POST', '/carrier/scripts', { number: '01044440001', outcome: 'failed', times: 1 });
    await sendText(h, '01044440001', 'lost');
    expect((await ctl(h)('GET', '/carrier/phones/010-4444-0001')).messages).toEqual([]);
    await h.sim.clock.advance({ seconds: 5 });
    const phone = await ctl(h)('GET', '/carrier/phones/+82 10-4444-0001');
    expect(phone).toEqual({
      number: '01044440001',
      messages: [
        { deliveryId: 'dl_2', messageId: mms, verificationId: null, from: '07012340002', type: 'mms', subject: 'Hi', body: 'pic', mediaUrl: ['https://img.example/x.jpg'], code: null, receivedAt: '2026-03-02T00:00:03.000Z' },
        { deliveryId: 'dl_1', messageId: m1, verificationId: null, from: '07012340001', type: 'sms', subject: null, body: 'first', mediaUrl: [], code: null, receivedAt: '2026-03-02T00:00:02.000Z' },
      ],
      calls: [],
    });
    expect((await h.call('GET', '/_sim/carrier/phones/nope', undefined, { key: null })).json.code).toBe('INVALID_PHONE_NUMBER');
  });

  it('scripts and pending deliveries are part of a snapshot and continue after a restore', async () => {
    await ctl(h)('POST', '/carrier/scripts', { number: '01030000001', outcome: 'failed', delaySeconds: 30 });
    const id = await sendText(h, '01030000001');
    const snap = await h.sim.control.snapshot();
    const other = harness();
    await other.sim.control.restore(snap);
    expect((await ctl(other)('GET', '/carrier/scripts')).data).toHaveLength(1);
    await other.sim.clock.advance({ seconds: 30 });
    expect((await other.call('GET', other.acme(`/messages/${id}`))).json.status).toBe('failed');
    // Reset returns the carrier to nothing.
    await other.sim.control.reset();
    expect((await ctl(other)('GET', '/carrier/scripts')).data).toEqual([]);
    expect((await ctl(other)('GET', '/carrier/deliveries')).data).toEqual([]);
  });

  it('a snapshot whose delivery names no carrier owner of the list is refused, and nothing changes', async () => {
    await sendText(h, '01030000002');
    const snap = h.sim.snapshot() as any;
    const before = JSON.stringify(snap);
    const bad = structuredClone(snap);
    bad.models.carrier.deliveries[0].owner = 'fax';
    expect(() => h.sim.restore(bad)).toThrow(/snapshot carrier is invalid/);
    expect(JSON.stringify(h.sim.snapshot())).toBe(before);
  });
});
