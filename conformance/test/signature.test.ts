// The kit's X-Signature verifier (checks/signature.ts) against signatures computed here with
// node:crypto straight from the documented scheme (public-sdk-facts.md section 5), and against
// the SDK's own test vectors: it accepts a good signature and refuses every kind of bad one.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkWebhook, type ReceivedWebhook } from '../checks/webhooks.ts';
import { signatureMatches, stringToSign } from '../checks/signature.ts';

/** The scheme as documented, written out by hand: Base64 HMAC-SHA256 of the given text. */
const hmac = (key: string, text: string) => createHmac('sha256', key).update(text).digest('base64');

const URL_ = 'https://my-app.com/webhook';
const KEY = 'whsec_0123456789abcdef0123456789abcdef';

function form(fields: Record<string, string>): string {
  return new URLSearchParams(fields).toString();
}

describe('the kit\'s signature verifier', () => {
  it('matches the SDK\'s test vectors', () => {
    const body = form({ CallId: 'CA123', CallStatus: 'completed' });
    expect(signatureMatches('test_key', { url: URL_, method: 'POST', body, signature: 'J3dZchH2utI+voZ5StWa4YrMirKJhtPAr9QEPsTUIeU=' })).toBe(true);
    expect(signatureMatches('test_key', { url: URL_, method: 'POST', body: '', signature: 'd0WyN5XsnORsCvzz2RHdEVMfXBrSHkvOx1Mp+m8pSs8=' })).toBe(true);
  });

  it('accepts a signature computed independently: URL then the fields sorted by key, no separators', () => {
    // Sent in another order than the one signed: the verifier sorts.
    const body = form({ To: '07012340001', Event: 'message.received', AccountId: 'AC1', Body: 'a=b&c' });
    const signature = hmac(KEY, `${URL_}?x=1AccountIdAC1Bodya=b&cEventmessage.receivedTo07012340001`);
    expect(signatureMatches(KEY, { url: `${URL_}?x=1`, method: 'POST', body, signature })).toBe(true);
    expect(signatureMatches(KEY, { url: `${URL_}?x=1`, method: 'POST', body, signature: ` ${signature} ` })).toBe(true);
  });

  it('sorts keys by code point, not by UTF-16 unit, and keeps repeated keys in arrival order', () => {
    // U+FB00 sorts before U+1F600 by code point, after it by UTF-16 unit (0xFB00 > 0xD83D).
    const fields: [string, string][] = [['\u{1F600}', '1'], ['\uFB00', '2'], ['B', '3'], ['a', '4'], ['B', '5']];
    expect(stringToSign('u', fields)).toBe('uB3B5a4\uFB002\u{1F600}1');
    const body = new URLSearchParams(fields).toString();
    const signature = hmac(KEY, 'uB3B5a4\uFB002\u{1F600}1');
    expect(signatureMatches(KEY, { url: 'u', method: 'POST', body, signature })).toBe(true);
    const unitOrder = hmac(KEY, 'uB3B5a4\u{1F600}1\uFB002');
    expect(signatureMatches(KEY, { url: 'u', method: 'POST', body, signature: unitOrder })).toBe(false);
  });

  it('signs a GET by its URL alone, the fields being in the query', () => {
    const url = `${URL_}?MessageId=MG1&Event=message.received`;
    expect(signatureMatches(KEY, { url, method: 'GET', body: '', signature: hmac(KEY, url) })).toBe(true);
    expect(signatureMatches(KEY, { url, method: 'GET', body: '', signature: hmac(KEY, `${url}EventmessageMessageIdMG1`) })).toBe(false);
  });

  it('refuses a wrong key, a changed field, an added or dropped field, another URL, a cut or missing signature', () => {
    const fields = { CallId: 'CA1', Status: 'completed' };
    const good = hmac(KEY, `${URL_}CallIdCA1Statuscompleted`);
    const ok = { url: URL_, method: 'POST', body: form(fields), signature: good };
    expect(signatureMatches(KEY, ok)).toBe(true);
    expect(signatureMatches('whsec_other', ok)).toBe(false);
    expect(signatureMatches(KEY, { ...ok, body: form({ ...fields, Status: 'abandoned' }) })).toBe(false);
    expect(signatureMatches(KEY, { ...ok, body: form({ ...fields, Extra: '' }) })).toBe(false);
    expect(signatureMatches(KEY, { ...ok, body: form({ CallId: 'CA1' }) })).toBe(false);
    expect(signatureMatches(KEY, { ...ok, url: `${URL_}?x=1` })).toBe(false);
    expect(signatureMatches(KEY, { ...ok, url: 'http://my-app.com/webhook' })).toBe(false);
    expect(signatureMatches(KEY, { ...ok, signature: good.slice(0, -1) })).toBe(false);
    expect(signatureMatches(KEY, { ...ok, signature: hmac(KEY, `${URL_}CallIdCA1Statuscompleted`.toLowerCase()) })).toBe(false);
    // A separator the scheme does not have.
    expect(signatureMatches(KEY, { ...ok, signature: hmac(KEY, `${URL_}CallId=CA1&Status=completed`) })).toBe(false);
    expect(signatureMatches(KEY, { ...ok, signature: '' })).toBe(false);
    expect(signatureMatches(KEY, { ...ok, signature: undefined })).toBe(false);
  });

  it('decides the webhook-signature-valid check', () => {
    const body = form({ MessageId: 'MG1', Event: 'message.sent' });
    const received = (signature: string): ReceivedWebhook => ({
      method: 'POST',
      path: '/r/s/events/message.sent',
      url: 'http://127.0.0.1:9/r/s/events/message.sent',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-signature': signature },
      body,
      format: 'form',
      pairs: [...new URLSearchParams(body)],
      fields: Object.fromEntries(new URLSearchParams(body)),
      scope: 's',
      route: '/events/message.sent',
      event: 'message.sent',
      receivedAt: 0,
      answered: 204,
    });
    const verdict = (w: ReceivedWebhook) => checkWebhook(w, { signingKey: KEY }).find((r) => r.id === 'webhook-signature-valid');
    const good = hmac(KEY, 'http://127.0.0.1:9/r/s/events/message.sentEventmessage.sentMessageIdMG1');
    expect(verdict(received(good))).toMatchObject({ passed: true });
    expect(verdict(received(hmac('whsec_other', 'http://127.0.0.1:9/r/s/events/message.sentEventmessage.sentMessageIdMG1')))).toMatchObject({ passed: false, message: expect.stringMatching(/does not verify/) });
  });
});
