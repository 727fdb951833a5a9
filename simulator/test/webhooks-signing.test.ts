// X-Signature (spec Authentication 8; scheme of the official SDK's verifier): the SDK's test
// vectors, the request-level helper customers use, and properties of the scheme.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { computeSignature, parseFormBody, signatureBase, verifySignature, verifyWebhookRequest } from '../core/signing.ts';
import { buildRequest, toFormFields } from '../peers/webhooks/request.ts';

describe('webhook signature', () => {
  it('matches the official SDK\'s test vectors', () => {
    expect(computeSignature('test_key', 'https://my-app.com/webhook', { CallId: 'CA123', CallStatus: 'completed' })).toBe(
      'J3dZchH2utI+voZ5StWa4YrMirKJhtPAr9QEPsTUIeU=',
    );
    expect(computeSignature('test_key', 'https://my-app.com/webhook')).toBe('d0WyN5XsnORsCvzz2RHdEVMfXBrSHkvOx1Mp+m8pSs8=');
    expect(computeSignature('test_key', 'https://my-app.com/webhook', {})).toBe('d0WyN5XsnORsCvzz2RHdEVMfXBrSHkvOx1Mp+m8pSs8=');
    expect(verifySignature('test_key', 'https://my-app.com/webhook', { CallStatus: 'completed', CallId: 'CA123' }, 'J3dZchH2utI+voZ5StWa4YrMirKJhtPAr9QEPsTUIeU=')).toBe(true);
  });

  it('signs the URL then each key and value, sorted by code point (uppercase first), no separators', () => {
    expect(signatureBase('https://a.example/h?x=1', { b: '2', B: '1', a: '3' })).toBe('https://a.example/h?x=1B1a3b2');
    // Repeated keys (never sent by the simulator): all kept, equal keys in arrival order.
    expect(signatureBase('u', [['k', '2'], ['A', 'x'], ['k', '1']])).toBe('uAxk2k1');
  });

  it('refuses a wrong key, a changed field, a changed URL and a missing header', () => {
    const url = 'https://my-app.com/webhook';
    const fields = { CallId: 'CA123', Status: 'completed' };
    const sig = computeSignature('key-1', url, fields);
    expect(verifySignature('key-1', url, fields, sig)).toBe(true);
    expect(verifySignature('key-2', url, fields, sig)).toBe(false);
    expect(verifySignature('key-1', url, { ...fields, Status: 'abandoned' }, sig)).toBe(false);
    expect(verifySignature('key-1', `${url}/`, fields, sig)).toBe(false);
    expect(verifySignature('key-1', url, fields, undefined)).toBe(false);
    expect(verifySignature('key-1', url, fields, '')).toBe(false);
    expect(verifySignature('key-1', url, fields, sig.slice(1))).toBe(false);
  });

  it('verifies what the engine builds: POST from the raw body, GET from the URL alone', () => {
    const fields = toFormFields({ CallId: 'CA1', Status: 'completed', Variables: { menu: '1', note: 'a b&c=d' }, Skipped: null, Count: 3 });
    expect(fields).toEqual([
      ['CallId', 'CA1'],
      ['Status', 'completed'],
      ['Variables', '{"menu":"1","note":"a b&c=d"}'],
      ['Count', '3'],
    ]);
    const post = buildRequest({ url: 'http://127.0.0.1:3000/in?tenant=t1', method: 'POST', fields, headers: { 'X-Tenant': 't1' }, signingKey: 'k' });
    expect(post.headers['Content-Type']).toBe('application/x-www-form-urlencoded');
    expect(post.headers['X-Tenant']).toBe('t1');
    expect(parseFormBody(post.body)).toEqual(fields);
    expect(verifyWebhookRequest({ signingKey: 'k', url: post.url, body: post.body, signature: post.headers['X-Signature'] })).toBe(true);
    expect(verifyWebhookRequest({ signingKey: 'k', url: post.url, body: `${post.body}&Extra=1`, signature: post.headers['X-Signature'] })).toBe(false);

    const get = buildRequest({ url: 'http://127.0.0.1:3000/in?tenant=t1', method: 'GET', fields, headers: {}, signingKey: 'k' });
    expect(get.body).toBe('');
    expect(get.headers['Content-Type']).toBeUndefined();
    expect(new URL(get.url).searchParams.get('tenant')).toBe('t1');
    expect(new URL(get.url).searchParams.get('Variables')).toBe('{"menu":"1","note":"a b&c=d"}');
    expect(verifyWebhookRequest({ signingKey: 'k', url: get.url, method: 'GET', signature: get.headers['X-Signature'] })).toBe(true);
    expect(verifyWebhookRequest({ signingKey: 'k', url: get.url.replace('CA1', 'CA2'), method: 'GET', signature: get.headers['X-Signature'] })).toBe(false);
  });

  const fieldsArb = fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), fc.string({ maxLength: 40 }), { maxKeys: 8 });

  it('property: what is signed verifies, whatever the field order', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fieldsArb, (key, fields) => {
        const url = 'https://receiver.example/hook';
        const sig = computeSignature(key, url, fields);
        const reversed = Object.fromEntries(Object.entries(fields).reverse());
        expect(verifySignature(key, url, reversed, sig)).toBe(true);
        const req = buildRequest({ url, method: 'POST', fields: Object.entries(fields), headers: {}, signingKey: key });
        expect(verifyWebhookRequest({ signingKey: key, url: req.url, body: req.body, signature: req.headers['X-Signature'] })).toBe(true);
      }),
    );
  });

  it('property: changing any one value breaks the signature', () => {
    fc.assert(
      fc.property(fieldsArb.filter((f) => Object.keys(f).length > 0), fc.nat(), fc.string({ minLength: 1, maxLength: 5 }), (fields, pick, extra) => {
        const keys = Object.keys(fields);
        const k = keys[pick % keys.length]!;
        const sig = computeSignature('key', 'https://r.example/h', fields);
        expect(verifySignature('key', 'https://r.example/h', { ...fields, [k]: fields[k] + extra }, sig)).toBe(false);
      }),
    );
  });
});
