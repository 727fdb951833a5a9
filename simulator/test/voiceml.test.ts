// VoiceML calls (docs/decisions.md "VoiceML") end to end: Url calls and webhook-routed numbers fetch real
// documents from receivers on 127.0.0.1, signed like every webhook; each verb on the virtual
// clock; the action round trips; every error path ends the call with app_error from the app.
import { afterEach, describe, expect, it } from 'vitest';
import { ACME, harness } from './helpers.ts';
import { voiceSteps } from './voice-steps.ts';
import { closeAllReceivers, startReceiver, type Behaviour, type Received } from './receivers.ts';
import { runtimeOf } from '../internal.ts';
import { parseFormBody, verifySignature } from '../core/signing.ts';
import { signedLink } from './signed-links.ts';

afterEach(closeAllReceivers);

type Answer = Exclude<Behaviour, (...args: never[]) => unknown>;
type Doc = Answer | ((req: Received) => Answer);

const xml = (body: string): Answer => ({ status: 200, body: `<?xml version="1.0" encoding="UTF-8"?><Response>${body}</Response>`, headers: { 'content-type': 'application/xml' } });

/** A receiver answering by path: `docs['/start']` and so on; the URL of a path is `at(path)`. */
async function app(docs: Record<string, Doc>) {
  const r = await startReceiver((_, req): Behaviour => {
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
  const { script, placeVoiceMl: place, get, advance } = voiceSteps(h);
  const walk = async (id: string) => (await h.sim.control.request<any>('GET', `/calls/${id}`));
  const phone = async (n: string) => (await h.sim.control.request<any>('GET', `/carrier/phones/${n}`)).calls[0];
  return { ...h, script, place, get, walk, phone, advance };
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

  it('Pause, Play and Redirect take their time; a Gather with no entry falls through; the document ending hangs up', async () => {
    const h = sim();
    const a = await app({
      '/start': xml('<Pause length="3"/><Play>https://cdn.example.com/a.wav</Play><Redirect method="GET">/next</Redirect><Say>never</Say>'),
      '/next': xml('<Gather action="/never"><Say>Press</Say></Gather><Say>Nothing pressed</Say>'),
    });
    await h.script({ number: '010-8000-0002' });
    const id = await h.place('010-8000-0002', a.at('/start'));
    await h.advance(60);
    expect(a.paths()).toEqual(['/start', '/next']);
    expect(a.requests[1]!.method).toBe('GET');
    expect(a.requests[1]!.fields.CallId).toBe(id);
    expect((await h.phone('010-8000-0002')).texts).toEqual(['Press', 'Nothing pressed']);
    const call = await h.get(id);
    // 3 s pause + 5 s play + 1 s prompt + 5 s timeout + 2 s speech.
    expect(call).toMatchObject({ status: 'completed', duration: 16, hangupCause: 'normal_clearing', hangupSource: 'caller' });
    const walk = (await h.walk(id)).walk;
    expect(walk.status).toBe('completed');
    expect(walk.steps.map((s: any) => s.type)).toEqual(['fetch', 'pause', 'play', 'redirect', 'fetch', 'gather', 'say']);
    expect(walk.steps[5]).toMatchObject({ keys: '', result: 'timeout' });
  });

  it('Gather: numDigits cuts, finishOnKey ends, replies answer what the phone heard', async () => {
    const h = sim();
    const a = await app({
      '/start': xml('<Gather numDigits="3" action="/a"><Say>Your code</Say></Gather>'),
      '/a': xml('<Gather finishOnKey="*" action="/b"><Say>Your pin please</Say></Gather>'),
      '/b': xml('<Hangup/>'),
    });
    await h.script({ number: '010-8000-0003', keys: ['12345'], replies: [{ heard: 'pin', keys: '77*9' }] });
    await h.place('010-8000-0003', a.at('/start'));
    await h.advance(60);
    expect(a.requests.map((q) => q.fields.Digits ?? null)).toEqual([null, '123', '77']);
  });

  it('Record: length from the carrier script, capped by maxLength; RecordingUrl is the verb recording by name', async () => {
    const h = sim();
    const a = await app({
      '/start': xml('<Record maxLength="5" action="/rec"/>'),
      '/rec': xml('<Record action="/rec2" playBeep="false"/>'),
      '/rec2': xml('<Hangup/>'),
    });
    await h.script({ number: '010-8000-0004', speakSeconds: 8, keys: ['', '#'] });
    const id = await h.place('010-8000-0004', a.at('/start'));
    await h.advance(60);
    const base = `/v1/accounts/${ACME.accountId}/recordings/${id}`;
    expect(a.requests[1]!.fields).toMatchObject({ RecordingUrl: signedLink(`${base}/verb/voiceml-1`), RecordingDuration: '5', Digits: '' });
    expect(a.requests[2]!.fields).toMatchObject({ RecordingUrl: signedLink(`${base}/verb/voiceml-2`), RecordingDuration: '8', Digits: '#' });
    expect((await h.get(id)).recordingUrl).toEqual(signedLink(base)); // before 2026-07-28: signed
    // The recordings are real WAV files: each verb's, and the whole call's (5 + 8 s).
    const seconds = async (path: string) => {
      const r = await h.call('GET', path);
      expect(r.status, path).toBe(200);
      const wav = Buffer.from(r.bytes!);
      return wav.readUInt32LE(40) / wav.readUInt32LE(28);
    };
    expect(await seconds(`${base}/verb/voiceml-1`)).toBe(5);
    expect(await seconds(`${base}/verb/voiceml-2`)).toBe(8);
    expect(await seconds(base)).toBe(13);
  });

  it('Dial: DialCallStatus and duration to the action; <Number statusCallback> answered and completed; a busy callee', async () => {
    const h = sim();
    const legs = await startReceiver();
    const a = await app({
      '/start': xml(`<Dial action="/dialed" timeout="20"><Number statusCallback="${legs.url}">010-8100-0002</Number></Dial>`),
      '/dialed': (req) => xml(req.fields.DialCallStatus === 'completed' ? '<Dial action="/dialed2"><Sip>sip:desk@pbx.example.com</Sip></Dial>' : '<Hangup/>'),
      '/dialed2': xml('<Dial action="/busy">010-8100-0003</Dial>'),
      '/busy': xml('<Hangup/>'),
    });
    await h.script({ number: '010-8000-0005' });
    await h.script({ number: '010-8100-0002', hangupAfterSeconds: 20 });
    await h.script({ number: '010-8100-0003', outcome: 'busy' });
    const callId = await h.place('010-8000-0005', a.at('/start'));
    await h.advance(300);
    await h.sim.webhooks.settle();
    // A VoiceML <Dial> is not recorded as a transfer (guides): no legs, no transfer* fields.
    expect((await h.call('GET', h.acme(`/calls/${callId}`))).json).toMatchObject({ transfers: [], transferStatus: null, transferTo: null });
    expect(a.requests.slice(1).map((q) => [q.fields.DialCallStatus, q.fields.DialCallDuration])).toEqual([
      ['completed', '20'],
      ['completed', '60'],
      ['busy', '0'],
    ]);
    expect(legs.requests.map((q) => [q.fields.StatusCallbackEvent, q.fields.DialCallStatus, q.fields.DialTo])).toEqual([
      ['answered', 'in-progress', '010-8100-0002'],
      ['completed', 'completed', '010-8100-0002'],
    ]);
    const answeredAt = Date.parse(legs.requests[0]!.fields.Timestamp!);
    expect(Date.parse(legs.requests[1]!.fields.Timestamp!) - answeredAt).toBe(20_000);
  });

  it('Reject ends the call rejected (or busy) by the app; Hangup mid-document stops there', async () => {
    const h = sim();
    const a = await app({ '/r': xml('<Reject/>'), '/b': xml('<Reject reason="busy"/>') });
    await h.script({ number: '010-8200-0001' });
    await h.script({ number: '010-8200-0002' });
    const r = await h.place('010-8200-0001', a.at('/r'));
    const b = await h.place('010-8200-0002', a.at('/b'));
    await h.advance(60);
    expect(await h.get(r)).toMatchObject({ status: 'rejected', hangupCause: 'call_rejected', hangupSource: 'app', duration: 0 });
    expect(await h.get(b)).toMatchObject({ status: 'busy', hangupCause: 'user_busy', hangupSource: 'app', duration: 0 });
  });
});

describe('VoiceML and snapshots', () => {
  it('a snapshot taken mid-walk restores the VoiceML state and the call ends the same way', async () => {
    const h = sim();
    const a = await app({
      '/start': xml(`<Gather action="/next" numDigits="1"><Say>${'Please choose. '.repeat(6)}</Say></Gather>`),
      '/next': (req) => xml(`<Say>Chose ${req.fields.Digits}</Say>`),
    });
    await h.script({ number: '010-8400-0001', keys: ['7'] });
    const id = await h.place('010-8400-0001', a.at('/start'));
    for (let i = 0; i < 20 && a.requests.length === 0; i++) await h.advance(1);
    await h.advance(2); // in the middle of the 9 s prompt
    const snap = await h.sim.control.snapshot();
    await h.advance(60);
    const first = await h.get(id);
    expect(first).toMatchObject({ status: 'completed', hangupSource: 'caller' });
    await h.sim.control.restore(snap);
    expect((await h.get(id)).status).toBe('in-progress');
    await h.advance(60);
    expect(await h.get(id)).toEqual(first);
    expect(a.paths()).toEqual(['/start', '/next', '/next']);
  });
});

describe('VoiceML on numbers routed to a webhook', () => {
  it('an inbound call requests the number\'s webhookUrl with its webhookMethod and webhookHeaders, signed', async () => {
    const h = sim();
    const a = await app({ '/in': xml('<Say>Hello caller</Say>') });
    const put = await h.call('PUT', h.acme('/numbers/07012340001'), { routingType: 'webhook', webhookUrl: a.at('/in'), webhookMethod: 'GET', webhookHeaders: { 'X-App': 'one' } });
    expect(put.status).toBe(200);
    const { callId } = await h.sim.control.request<any>('POST', '/carrier/inbound-calls', { from: '010-7000-0001', to: '070-1234-0001' });
    await h.advance(30);
    const q = a.requests[0]!;
    expect(q.method).toBe('GET');
    expect(q.headers['x-app']).toBe('one');
    expect(q.fields).toMatchObject({ CallId: callId, From: '01070000001', To: '07012340001', Direction: 'inbound', CallStatus: 'ringing' });
    const key = runtimeOf(h.sim).webhookEngine.signingKeys.get(ACME.accountId);
    expect(verifySignature(key, q.url, undefined, String(q.headers['x-signature']))).toBe(true);
    expect(await h.get(callId)).toMatchObject({ status: 'completed', direction: 'inbound', hangupSource: 'callee', duration: 2 });
  });

  it('the app decides before the call is picked up: Reject and errors leave it unanswered; the first verb using the line answers it', async () => {
    const h = sim();
    const status = await startReceiver();
    let doc = '';
    const a = await app({ '/in': () => xml(doc), '/later': xml('<Reject reason="busy"/>') });
    await h.call('PUT', h.acme('/numbers/07012340001'), { routingType: 'webhook', webhookUrl: a.at('/in'), statusCallback: status.url });
    const ring = async (body: string) => {
      doc = body;
      const { callId } = await h.sim.control.request<any>('POST', '/carrier/inbound-calls', { from: '010-7000-0009', to: '070-1234-0001' });
      await h.advance(30);
      return (await h.sim.control.request<any>('GET', `/calls/${callId}`)) as any;
    };
    const rejected = await ring('<Redirect>later</Redirect>');
    expect(rejected.call).toMatchObject({ status: 'busy', hangupCause: 'user_busy', hangupSource: 'app', duration: 0 });
    expect(rejected.timeline.map((t: any) => t.status)).toEqual(['ringing', 'busy']);
    const broken = await ring('<Dance/>');
    expect(broken.call).toMatchObject({ status: 'failed', hangupCause: 'app_error', hangupSource: 'app', duration: 0 });
    const hungUp = await ring('<Hangup/>');
    expect(hungUp.call).toMatchObject({ status: 'rejected', hangupCause: 'call_rejected', hangupSource: 'app' });
    const answered = await ring('<Pause length="4"/><Reject/>');
    expect(answered.call).toMatchObject({ status: 'rejected', hangupSource: 'app', duration: 4 });
    expect(answered.timeline.map((t: any) => t.status)).toEqual(['ringing', 'in-progress', 'rejected']);
    await h.sim.webhooks.settle();
    const events = (id: string) => status.requests.filter((r) => r.fields.CallId === id).map((r) => r.fields.StatusCallbackEvent);
    expect(events(rejected.call.callId)).not.toContain('answered');
    expect(events(answered.call.callId)).toContain('answered');
  });
});

describe('VoiceML errors end the call with app_error from the app', () => {
  const cases: [string, Doc | 'closed' | 'hang'][] = [
    ['a non-2xx answer', { status: 500, body: 'boom' }],
    ['invalid XML', { status: 200, body: '<Response><Say>unclosed</Response>' }],
    ['a root other than Response', { status: 200, body: '<Reply><Say>x</Say></Reply>' }],
    ['an unknown verb', xml('<Dance/>')],
    ['an external entity', { status: 200, body: '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><Response><Say>&x;</Say></Response>' }],
    ['an entity expansion bomb', { status: 200, body: '<!DOCTYPE r [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;&a;">]><Response><Say>&b;</Say></Response>' }],
    ['a huge document', { huge: 512 * 1024 }],
    ['deep nesting', { status: 200, body: `<Response>${'<Gather>'.repeat(5000)}${'</Gather>'.repeat(5000)}</Response>` }],
    ['a bad attribute', xml('<Pause length="forever"/>')],
    ['an unknown voice', xml('<Say voice="robot">hi</Say>')],
    ['a Connect whose Stream has no ws(s) url', xml('<Connect><Stream url="https://example.com/media"/></Connect>')],
    ['a redirect loop', xml('<Redirect>/doc</Redirect>')],
    ['an unreachable URL', 'closed'],
    ['a timeout', 'hang'],
    ['a body that never ends', { dribble: true }],
  ];
  it.each(cases)('%s', async (_, doc) => {
    const h = sim();
    runtimeOf(h.sim).calls.http.timeoutMs = 300;
    const hook = await startReceiver();
    const a = await app({ '/doc': doc === 'closed' ? { status: 200 } : doc === 'hang' ? { hang: true } : doc });
    let url = a.at('/doc');
    if (doc === 'closed') {
      await a.close();
      url = a.at('/doc');
    }
    await h.script({ number: '010-8300-0001' });
    const id = await h.place('010-8300-0001', url, { StatusCallback: hook.url, StatusCallbackEvent: 'completed' });
    await h.advance(60);
    await h.sim.webhooks.settle();
    expect(await h.get(id)).toMatchObject({ status: 'completed', hangupCause: 'app_error', hangupSource: 'app' });
    expect(hook.requests.at(-1)!.fields).toMatchObject({ StatusCallbackEvent: 'completed', HangupCause: 'app_error', HangupSource: 'app' });
    const walk = (await h.walk(id)).walk;
    expect(walk.status).toBe('abandoned');
    expect(walk.steps.at(-1).result).toContain('app_error');
    if (doc !== 'closed') expect(a.requests.length).toBeLessThanOrEqual(11);
  });

  it('under strict egress an action at a private address is refused before any request: app_error', async () => {
    const h = sim();
    const a = await app({ '/start': xml(`<Gather action="http://10.1.2.3/collect"><Say>${'Press five. '.repeat(10)}</Say></Gather>`) });
    await h.script({ number: '010-8300-0002', keys: ['5'] });
    const id = await h.place('010-8300-0002', a.at('/start'));
    for (let i = 0; i < 20 && a.requests.length === 0; i++) await h.advance(1); // answered, the document fetched, the 12 s prompt playing
    expect(a.requests).toHaveLength(1);
    await h.sim.control.request('PUT', '/egress', { strict: true });
    await h.advance(30);
    expect(await h.get(id)).toMatchObject({ status: 'completed', hangupCause: 'app_error', hangupSource: 'app' });
    const walk = (await h.walk(id)).walk;
    expect(walk.steps.at(-1).result).toContain('egress policy');
  });

  it('under strict egress a name that resolves to a loopback address gets no request: app_error', async () => {
    const h = sim();
    const a = await app({ '/start': xml('<Say>never fetched</Say>') });
    const port = new URL(a.origin).port;
    await h.sim.control.request('PUT', '/dns/records/app.example.com', { records: [{ type: 'A', value: '127.0.0.1' }] });
    await h.sim.control.request('PUT', '/egress', { strict: true });
    await h.script({ number: '010-8300-0004' });
    const id = await h.place('010-8300-0004', `http://app.example.com:${port}/start`);
    await h.advance(30);
    expect(a.requests).toHaveLength(0);
    expect(await h.get(id)).toMatchObject({ status: 'completed', hangupCause: 'app_error', hangupSource: 'app' });
    expect((await h.walk(id)).walk.steps[0].result).toMatch(/^no answer \(app_error: /);
  });

  it('a Url at a private address is refused at creation under strict egress (400 URL_BLOCKED), storing nothing', async () => {
    const h = sim();
    await h.sim.control.request('PUT', '/egress', { strict: true });
    const r = await h.call('POST', h.acme('/calls'), { To: '010-8300-0003', From: '070-1234-0001', Url: 'http://127.0.0.1:9/voiceml' });
    expect([r.status, r.json.code]).toEqual([400, 'URL_BLOCKED']);
    expect((await h.call('GET', h.acme('/calls'))).json.meta.total).toBe(0);
  });
});

describe('VoiceML in call batches', () => {
  it('a batch with Url places VoiceML calls: the app is asked once per call and the tasks complete', async () => {
    const h = sim();
    const a = await app({ '/batch': xml('<Say>Your appointment is tomorrow</Say><Hangup/>') });
    await h.script({ number: '010-8300-0001' });
    await h.script({ number: '010-8300-0002' });
    const created = await h.call('POST', h.acme('/call-batches'), {
      Name: 'reminders',
      From: '070-1234-0001',
      Url: a.at('/batch'),
      Tasks: [{ To: '010-8300-0001' }, { To: '010-8300-0002' }],
    });
    expect(created.status, created.text).toBe(200);
    const batchId = created.json.batchId as string;
    await h.advance(600);
    expect(a.paths()).toEqual(['/batch', '/batch']);
    expect(new Set(a.requests.map((q) => q.fields.To))).toEqual(new Set(['01083000001', '01083000002']));
    const tasks = (await h.call('GET', h.acme(`/call-batches/${batchId}/tasks`))).json.tasks as { callId: string }[];
    expect(tasks).toHaveLength(2);
    for (const t of tasks) expect(await h.get(t.callId)).toMatchObject({ status: 'completed', direction: 'outbound' });
  });
});
