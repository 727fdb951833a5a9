// The VoiceML document parser's limits and the pure walker (docs/decisions.md "VoiceML"): hostile XML is refused
// with a reason, the predefined entities decode, and the walker's steps (fetch, verbs, action
// round trips, errors) are checked without any server or clock.
import { describe, expect, it } from 'vitest';
import { MAX_DEPTH, decodeEntities, parseDocument } from '../resources/calls/voiceml/document.ts';
import { MAX_IDLE_DOCUMENTS, dialCallStatus, gatherDigits, initialVoiceState, voiceStep, type CallContext, type VoiceMlState } from '../resources/calls/voiceml/walker.ts';

const call: CallContext = { fields: [['CallId', 'CA1']], nowMs: Date.UTC(2026, 0, 1) };
const doc = (body: string) => `<Response>${body}</Response>`;

function started(url = 'https://app.example.com/vml'): VoiceMlState {
  const r = voiceStep(initialVoiceState(url, 'POST', {}), { kind: 'start' }, call);
  expect(r.effects).toEqual([{ type: 'fetch', blockId: 'fetch-1', url, method: 'POST', fields: [['CallId', 'CA1']] }]);
  return r.state;
}

describe('VoiceML documents', () => {
  it('parses verbs with attributes, text and nested verbs; decodes only predefined entities', () => {
    const r = parseDocument('<?xml version="1.0"?><Response><Say voice="google">Tom &amp; Jerry &#44608;</Say><Gather numDigits="2"><Say>Press</Say><Pause/></Gather><Hangup/></Response>');
    expect(r).toEqual({
      ok: true,
      verbs: [
        { name: 'Say', attrs: { voice: 'google' }, text: 'Tom & Jerry 김', children: [] },
        { name: 'Gather', attrs: { numDigits: '2' }, text: '', children: [{ name: 'Say', attrs: {}, text: 'Press' }, { name: 'Pause', attrs: {}, text: '' }] },
        { name: 'Hangup', attrs: {}, text: '', children: [] },
      ],
    });
    expect(decodeEntities('&lt;a&gt; &unknown; &#0; &#x110000;')).toBe('<a> &unknown; &#0; &#x110000;');
  });

  it('attributes named like Object.prototype members (__proto__, constructor) refuse the document', () => {
    for (const name of ['__proto__', 'constructor']) {
      expect(parseDocument(doc(`<Say ${name}="x">hi</Say>`))).toEqual({ ok: false, reason: expect.stringMatching(new RegExp(`invalid XML: .*${name}`)) });
    }
  });

  it.each([
    ['a DOCTYPE with an external entity', '<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><Response><Say>&x;</Say></Response>', /DOCTYPE/],
    ['an entity declaration alone', '<Response><!ENTITY x "y"><Say>x</Say></Response>', /DOCTYPE or entity/],
    ['too large', doc('<Say>x</Say>'.repeat(6000)), /too large/],
    ['too deep', doc('<Gather>'.repeat(MAX_DEPTH + 1) + '</Gather>'.repeat(MAX_DEPTH + 1)), /invalid XML|may hold only text/],
    ['very deep', doc('<a>'.repeat(20_000) + '</a>'.repeat(20_000)), /./],
    ['nested three levels', doc('<Gather><Say><Play>x</Play></Say></Gather>'), /may hold only text/],
    ['malformed', '<Response><Say>x</Response>', /invalid XML/],
    ['not Response', '<Reply/>', /root element/],
    ['two roots', '<Response/><Response/>', /invalid XML|root element/],
    ['empty', '  ', /empty/],
    ['text outside verbs', doc('hello<Say>x</Say>'), /text outside/],
    ['too many verbs', doc('<Pause/>'.repeat(101)), /more than 100 verbs/],
  ])('refuses %s', (_, text, reason) => {
    const r = parseDocument(text);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(reason);
  });
});

describe('the VoiceML walker', () => {
  it('Gather posts the digits to its action, resolved against the document, and runs the answer', () => {
    let s = started();
    let r = voiceStep(s, { kind: 'http', status: 200, body: doc('<Gather action="next?x=1" method="GET" numDigits="3"><Say>Code</Say></Gather>') }, call);
    expect(r.effects).toEqual([{ type: 'listen', blockId: '1.1', prompt: 'Code', maxDigits: 3, timeoutSec: 5 }]);
    s = r.state;
    r = voiceStep(s, { kind: 'keys', keys: '12345' }, call);
    expect(r.effects).toEqual([{ type: 'fetch', blockId: 'fetch-2', url: 'https://app.example.com/next?x=1', method: 'GET', fields: [['CallId', 'CA1'], ['Digits', '123']] }]);
    r = voiceStep(r.state, { kind: 'http', status: 200, body: doc('<Hangup/>') }, call);
    expect(r.end).toEqual({ kind: 'hangup' });
    expect(r.state.ended).toBe(true);
    // Once ended, nothing moves it.
    expect(voiceStep(r.state, { kind: 'elapsed' }, call).effects).toEqual([]);
  });

  it('an input the walk does not wait for changes nothing', () => {
    const s = started();
    for (const input of [{ kind: 'elapsed' }, { kind: 'keys', keys: '1' }, { kind: 'start' }] as const) {
      expect(voiceStep(s, input, call)).toEqual({ state: s, effects: [], trace: [], end: null });
    }
  });

  it('errors: no answer, non-2xx, bad attributes, unknown verbs, refused URLs, non-http actions', () => {
    const s = started();
    const reason = (r: ReturnType<typeof voiceStep>) => (r.end?.kind === 'error' ? r.end.reason : `not an error: ${JSON.stringify(r.end)}`);
    expect(reason(voiceStep(s, { kind: 'http', status: null, body: null }, call))).toMatch(/no answer/);
    expect(reason(voiceStep(s, { kind: 'http', status: 302, body: '' }, call))).toMatch(/answered 302/);
    expect(reason(voiceStep(s, { kind: 'refused', reason: 'blocked' }, call))).toBe('blocked');
    expect(reason(voiceStep(s, { kind: 'http', status: 200, body: doc('<Gather finishOnKey="ab"/>') }, call))).toMatch(/finishOnKey/);
    expect(reason(voiceStep(s, { kind: 'http', status: 200, body: doc('<Say language="Korean!">x</Say>') }, call))).toMatch(/language/);
    expect(reason(voiceStep(s, { kind: 'http', status: 200, body: doc('<Dial><Number>1</Number><Number>2</Number></Dial>') }, call))).toMatch(/one <Number>/);
    expect(reason(voiceStep(s, { kind: 'http', status: 200, body: doc('<Redirect>javascript:alert(1)</Redirect>') }, call))).toMatch(/not an http/);
    expect(reason(voiceStep(s, { kind: 'http', status: 200, body: doc('<say>lowercase</say>') }, call))).toMatch(/unknown verb <say>/);
  });

  it('a redirect loop stops after MAX_IDLE_DOCUMENTS documents in a row; a verb taking time resets the count', () => {
    let s = started();
    let fetches = 1;
    for (;;) {
      const r = voiceStep(s, { kind: 'http', status: 200, body: doc('<Redirect>/vml</Redirect>') }, call);
      s = r.state;
      if (r.end) {
        expect(r.end).toEqual({ kind: 'error', reason: expect.stringMatching(/redirect loop/) });
        break;
      }
      fetches++;
    }
    expect(fetches).toBe(MAX_IDLE_DOCUMENTS);
    let t = started();
    for (let i = 0; i < 3 * MAX_IDLE_DOCUMENTS; i++) {
      const r = voiceStep(t, { kind: 'http', status: 200, body: doc('<Pause/><Redirect>/vml</Redirect>') }, call);
      expect(r.effects[0]).toEqual({ type: 'wait', seconds: 1 });
      t = voiceStep(r.state, { kind: 'elapsed' }, call).state;
      expect(t.waiting).toBe('fetch');
    }
  });

  it('Dial reports DialCallStatus and duration; statusCallback events carry when the leg answered', () => {
    let r = voiceStep(started(), { kind: 'http', status: 200, body: doc('<Dial action="/d"><Sip statusCallback="/leg" statusCallbackEvent="answered completed">sip:a@b.example</Sip></Dial>') }, call);
    expect(r.effects).toEqual([{ type: 'dial', blockId: '1.1', kind: 'sip', value: 'sip:a@b.example', callerId: null, timeoutSec: 30 }]);
    r = voiceStep(r.state, { kind: 'dialed', outcome: 'completed', talkSeconds: 42 }, call);
    const [answered, completed, fetch] = r.effects;
    expect(answered).toMatchObject({ type: 'dialCallback', url: 'https://app.example.com/leg', fields: expect.arrayContaining([['StatusCallbackEvent', 'answered'], ['Timestamp', '2025-12-31T23:59:18.000Z']]) });
    expect(completed).toMatchObject({ type: 'dialCallback', fields: expect.arrayContaining([['StatusCallbackEvent', 'completed'], ['DialCallStatus', 'completed'], ['DialCallDuration', '42']]) });
    expect(fetch).toMatchObject({ type: 'fetch', url: 'https://app.example.com/d', fields: [['CallId', 'CA1'], ['DialCallStatus', 'completed'], ['DialCallDuration', '42']] });
    const odd = voiceStep(started(), { kind: 'http', status: 200, body: doc('<Dial><Number statusCallback="mailto:x@y.example">010</Number></Dial>') }, call);
    expect(voiceStep(odd.state, { kind: 'dialed', outcome: 'busy' }, call)).toMatchObject({ effects: [], end: { kind: 'hangup' } });
    expect(['completed', 'busy', 'no-answer', 'rejected', 'failed', 'canceled', 'odd'].map(dialCallStatus)).toEqual(['completed', 'busy', 'no-answer', 'busy', 'failed', 'canceled', 'failed']);
  });

  it('gatherDigits: up to the finish key, at most numDigits', () => {
    expect(gatherDigits('12#3', '#', null)).toBe('12');
    expect(gatherDigits('12#3', '', null)).toBe('12#3');
    expect(gatherDigits('12345', '#', 2)).toBe('12');
    expect(gatherDigits('#1', '#', null)).toBe('');
  });

  it('Connect/Stream waits for the stream; a streamed input runs the next verb or posts StreamSid to the action; a failed one is an app error', () => {
    const s = started();
    let r = voiceStep(s, { kind: 'http', status: 200, body: doc('<Connect><Stream url="wss://media.example.com/s" name="a"/></Connect><Say>after</Say>') }, call);
    expect(r.effects).toEqual([{ type: 'stream', blockId: '1.1', url: 'wss://media.example.com/s', name: 'a' }]);
    expect(r.state.waiting).toBe('stream');
    expect(voiceStep(r.state, { kind: 'elapsed' }, call).effects).toEqual([]); // not what it waits for
    const streamed = { kind: 'streamed' as const, streamSid: 'MZ1', ok: true, reason: null, sent: 50 };
    const next = voiceStep(r.state, streamed, call);
    expect(next.trace[0]).toMatchObject({ blockId: '1.1', resumed: true, outcome: 'streamed 50 media frames' });
    expect(next.effects[0]).toMatchObject({ type: 'say', text: 'after' });
    const failed = voiceStep(r.state, { ...streamed, ok: false, reason: 'no handshake', sent: 0 }, call);
    expect(failed.end).toEqual({ kind: 'error', reason: 'no handshake' });
    r = voiceStep(s, { kind: 'http', status: 200, body: doc('<Connect action="/done" method="GET"><Stream url="ws://m.example.com/"/></Connect>') }, call);
    const posted = voiceStep(r.state, streamed, call);
    expect(posted.effects).toEqual([{ type: 'fetch', blockId: 'fetch-2', url: 'https://app.example.com/done', method: 'GET', fields: [['CallId', 'CA1'], ['StreamSid', 'MZ1']] }]);
  });
});
