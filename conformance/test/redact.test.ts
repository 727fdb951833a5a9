// What a recording never holds (conformance/recording/redact.ts, docs/decisions.md "Record and
// replay"): each secret becomes `[secret:N]`, the same N for the same value wherever it shows up;
// per-message signatures and cookies become `[redacted]`; a body cut at the recording's limit is
// redacted too (its JSON no longer parses, and it may end inside a UTF-8 character).
import http from 'node:http';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_RECORDED_BODY } from '../recording/format.ts';
import { startRecorder } from '../recording/proxy.ts';
import { REDACTED, Redactor } from '../recording/redact.ts';

const KEY = 'sk_test_acme_4f9c2b7e1d3a5c8f';
const OTHER = 'sk_test_bistro_9a8b7c6d5e4f3a2b';

describe('Redactor', () => {
  it('numbers each secret once: credential headers keep their scheme, the same key is the same placeholder', () => {
    const r = new Redactor();
    expect(r.header('Authorization', `Bearer ${KEY}`)).toBe('Bearer [secret:1]');
    expect(r.header('authorization', `Bearer ${OTHER}`)).toBe('Bearer [secret:2]');
    expect(r.header('x-api-key', KEY)).toBe('[secret:1]');
    expect(r.header('X-Signature', 'v1=abcdef0123456789')).toBe(REDACTED);
    expect(r.header('set-cookie', 'session=abc; HttpOnly')).toBe(REDACTED);
    expect(r.header('content-type', 'application/json')).toBe('application/json');
  });

  it('redacts secret fields of JSON and form bodies, secret query parameters, and known secrets anywhere later', () => {
    const r = new Redactor();
    const json = JSON.parse(r.body(JSON.stringify({ name: 'CRM', secret: 'mcp-secret-42', nested: [{ password: 'Sip-Pass-77' }] }), 'application/json'));
    expect(json).toEqual({ name: 'CRM', secret: '[secret:1]', nested: [{ password: '[secret:2]' }] });
    expect(r.body('username=desk&password=Sip-Pass-77', 'application/x-www-form-urlencoded')).toBe('username=desk&password=%5Bsecret%3A2%5D');
    expect(r.path('/media?token=tok-abcdef-123&page=2')).toBe('/media?token=[secret:3]&page=2');
    expect(r.body('the secret was mcp-secret-42, see?', 'text/plain')).toBe('the secret was [secret:1], see?');
    expect(r.path('/hooks/mcp-secret-42/x')).toBe('/hooks/[secret:1]/x');
  });

  it('redacts the secret fields of JSON that does not parse (a body cut at the limit)', () => {
    const r = new Redactor();
    const cut = '{"items":[{"name":"a","apiKey":"sk_live_0123456789abcdef"},{"name":"b","clientSecret":"cs-9876543210"},{"name":"c","no';
    const out = r.body(cut, 'application/json');
    expect(out).not.toContain('sk_live_0123456789abcdef');
    expect(out).not.toContain('cs-9876543210');
    expect(out).toContain('"apiKey":"[secret:1]"');
    expect(out).toContain('"clientSecret":"[secret:2]"');
    expect(out).toContain('"name":"c","no');
  });
});

describe('the recording proxy and bodies over the limit', () => {
  const closers: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const c of closers) await c();
  });

  it('writes a cut answer as text with its secret fields redacted, even when the cut falls inside a character', async () => {
    // Secrets first, then Hangul (3 bytes each in UTF-8) past the limit so that the cut splits a character.
    const filler = '가'.repeat(Math.ceil(MAX_RECORDED_BODY / 3) + 10);
    const answer = JSON.stringify({ secret: 'mcp-secret-in-a-big-body', text: `x${filler}` });
    const upstream = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(answer);
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise<void>((resolve) => upstream.close(() => resolve())));
    const out = path.join(mkdtempSync(path.join(os.tmpdir(), 'recording-')), 'big');
    const recorder = await startRecorder({ upstream: `http://127.0.0.1:${(upstream.address() as { port: number }).port}`, port: 0, out });
    closers.push(() => recorder.close());

    const res = await fetch(`${recorder.url}/big`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(await res.text()).toBe(answer); // the client gets all of it, unchanged
    const [exchange] = readFileSync(path.join(out, 'exchanges.ndjson'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(exchange.response.truncated).toBe(true);
    expect(exchange.response.bodyBase64).toBeUndefined();
    expect(exchange.response.body).toContain('"secret":"[secret:2]"');
    expect(readFileSync(path.join(out, 'exchanges.ndjson'), 'utf8')).not.toContain('mcp-secret-in-a-big-body');
    expect(exchange.request.headers.authorization).toBe('Bearer [secret:1]');
  });
});
