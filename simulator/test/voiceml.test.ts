// VoiceML calls (issue 18) end to end: Url calls and webhook-routed numbers fetch real
// documents from receivers on 127.0.0.1, signed like every webhook; each verb on the virtual
// clock; the action round trips; every error path ends the call with app_error from the app.
import { afterEach, describe, expect, it } from 'vitest';
import { ACME, harness } from './helpers.ts';
import { closeAllReceivers, startReceiver, type Behaviour, type Received } from './receivers.ts';
import { runtimeOf } from '../internal.ts';
import { parseFormBody, verifySignature } from '../core/signing.ts';

afterEach(closeAllReceivers);

const xml = (body: string): Behaviour => ({ status: 200, body: `<?xml version="1.0" encoding="UTF-8"?><Response>${body}</Response>`, headers: { 'content-type': 'application/xml' } });

/** A receiver answering by path: `docs['/start']` and so on; the URL of a path is `at(path)`. */
async function app(docs: Record<string, Behaviour | ((req: Received) => Behaviour)>) {
  const r = await startReceiver((_, req) => {
    const path = req.path.split('?')[0]!;
    const d = docs[path];
    if (d === undefined) return { status: 404, body: 'no such document' };
    return typeof d === 'function' ? d(req) : d;
  }, '/');
  const origin = r.origin;
  return { ...r, at: (path: string) => `${origin}${path}`, paths: () => r.requests.map((q) => q.path.split('?')[0]) };
}

function sim() {
  const h = harness();
  const script = (body: Record<string, unknown>) => h.sim.control.request('POST', '/carrier/scripts', { types: ['call'], outcome: 'delivered', ...body });
  const place = async (to: string, url: string, extra: Record<string, unknown> = {}) => {
    const r = await h.call('POST', h.acme('/calls'), { To: to, From: '070-1234-0001', Url: url, ...extra });
    if (r.status !== 201) throw new Error(`call refused: ${r.text}`);
    return r.json.callId as string;
  };
  const get = async (id: string) => (await h.call('GET', h.acme(`/calls/${id}`))).json;
  const walk = async (id: string) => (await h.sim.control.request<any>('GET', `/calls/${id}`));
  const phone = async (n: string) => (await h.sim.control.request<any>('GET', `/carrier/phones/${n}`)).calls[0];
  return { ...h, script, place, get, walk, phone, advance: (seconds: number) => h.sim.clock.advance({ seconds }) };
}

describe('VoiceML Url calls', () => {
  it('Say, Gather with an action round trip, Hangup: the phone hears, the digits are posted, the answer runs', async () => {
    const h = sim();
    const a = await app({
      '/start': xml('<Say voice="google" language="ko">Welcome</Say><Gather numDigits="2" action="/menu" timeout="5"><Say>Press two keys</Say></Gather><Say>Nothing pressed</Say>'),
      '/menu': (req) => xml(`<Say>You chose ${req.fields.Digits}</Say><Hangup/><Say>never</Say>`),
    });
    await h.script({ number: '010-8000-0001', keys: ['42#'] });
    const id = await h.place('010-8000-0001', a.at('/start'));
    await h.advance(60);
    expect(a.paths()).toEqual(['/start', '/menu']);
    const [first, second] = a.requests;
    expect(first!.method).toBe('POST');
    expect(first!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(first!.fields).toMatchObject({ CallId: id, AccountId: ACME.accountId, From: '07012340001', To: '01080000001', Direction: 'outbound', CallStatus: 'in-progress' });
    expect(second!.fields).toMatchObject({ CallId: id, Digits: '42' });
    const key = runtimeOf(h.sim).webhookEngine.signingKeys.get(ACME.accountId);
    for (const q of a.requests) expect(verifySignature(key, q.url, parseFormBody(q.body), String(q.headers['x-signature']))).toBe(true);
    const call = await h.get(id);
    expect(call).toMatchObject({ status: 'completed', hangupCause: 'normal_clearing', hangupSource: 'caller' });
    expect((await h.phone('010-8000-0001')).texts).toEqual(['Welcome', 'Press two keys', 'You chose 42']);
  });
});
