// The issuing page and the fake provider's page as HTTP answers (the browser test drives them in
// Chromium): languages, the page for each closed link, escaping, the provider's form round trip.
import { describe, expect, it } from 'vitest';
import { ACME, harness } from './helpers.ts';
import { runtimeOf } from '../internal.ts';

type H = ReturnType<typeof harness>;

async function link(h: H, body: unknown = {}): Promise<string> {
  return (await h.call('POST', h.acme('/assignment-links'), body)).json.token;
}
const page = (h: H, url: string) => h.call('GET', url, undefined, { key: null });
const reason = (html: string) => /data-reason="(\w+)"/.exec(html)?.[1];

async function toVerify(h: H, token: string): Promise<string> {
  const post = (p: string, b?: unknown) => h.call('POST', `/v1/assignment-sessions/${token}${p}`, b, { key: null });
  await post('/subscriber-type', { subscriberType: 'individual' });
  await post('/consents', { items: ['management.terms', 'management.account', 'management.privacy', 'management.thirdParty'].map((clauseKey) => ({ clauseKey, agreed: true })) });
  return (await post('/identity-verifications')).json.identityVerificationId;
}

describe('the issuing page', () => {
  it('is Korean by default and English with ?lang=en, with the session step and no number in it', async () => {
    const h = harness();
    const token = await link(h);
    const ko = await page(h, `/assign/${token}`);
    expect(ko.status).toBe(200);
    expect(ko.headers['content-type']).toMatch(/^text\/html/);
    expect(ko.text).toMatch(/^<!doctype html>\n<html lang="ko">/);
    expect(ko.text).toContain('전화번호 발급');
    expect(ko.text).toContain('"step":"selectType"');
    expect(ko.text).toContain(`href="/assign/${token}?lang=en"`);
    const en = await page(h, `/assign/${token}?lang=en`);
    expect(en.text).toContain('<html lang="en">');
    expect(en.text).toContain('Get your phone number');
    // Every control has a label; the alert region is announced.
    for (const id of ['type-individual', 'type-corporate', 'clause-management-terms', 'clause-management-marketing']) expect(ko.text).toContain(`<label for="${id}">`);
    expect(ko.text).toContain('role="alert"');
  });

  it('shows the brand of the issuing-page settings: service name, colour, logo; the session carries them', async () => {
    const h = harness();
    await h.sim.control.request('PUT', `/accounts/${ACME.accountId}/issuing-page`, { domains: [], brandServiceName: 'Acme 회선', brandColor: '#0a7f3f', brandLogoUrl: 'https://cdn.example.com/logo.png' });
    const token = await link(h);
    const html = (await page(h, `/assign/${token}`)).text;
    expect(html).toContain('<p class="org">Acme 회선</p>');
    expect(html).toContain(':root { --accent: #0a7f3f; }');
    expect(html).toContain('<img class="logo" src="https://cdn.example.com/logo.png" alt=""');
    const s = (await h.call('GET', `/v1/assignment-sessions/${token}`, undefined, { key: null })).json;
    expect(s).toMatchObject({ brandServiceName: 'Acme 회선', brandColor: '#0a7f3f', brandLogoUrl: 'https://cdn.example.com/logo.png' });
    for (const bad of [{ brandColor: 'red; }' }, { brandLogoUrl: 'javascript:alert(1)' }, { brandLogoUrl: 'http://cdn.example.com/x.png' }]) {
      const r = await h.call('PUT', `/_sim/accounts/${ACME.accountId}/issuing-page`, { domains: [], ...bad }, { key: null });
      expect(r.status, JSON.stringify(bad)).toBe(400);
    }
  });

  it('escapes the organisation name', async () => {
    const h = harness();
    await h.sim.control.request('PATCH', `/accounts/${ACME.accountId}`, { name: '<script>alert(1)</script> & Co' });
    const html = (await page(h, `/assign/${await link(h)}`)).text;
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; Co');
    expect(html).not.toContain('<script>alert(1)');
  });

  it('says so for unknown, expired, revoked, used and switched-off links', async () => {
    const h = harness();
    expect(reason((await page(h, `/assign/${'x'.repeat(43)}`)).text)).toBe('notFound');
    const short = await link(h, { ttlSeconds: 60 });
    await h.sim.clock.advance({ seconds: 60 });
    expect(reason((await page(h, `/assign/${short}`)).text)).toBe('expired');
    const revoked = await link(h);
    await h.call('DELETE', h.acme(`/assignment-links/${revoked}`));
    expect(reason((await page(h, `/assign/${revoked}?lang=en`)).text)).toBe('revoked');
    const used = await link(h);
    const iv = await toVerify(h, used);
    await h.sim.control.request('POST', `/kyc/verifications/${iv}/complete`, { name: '홍길동', birthDate: '1990-01-01' });
    await h.call('POST', `/v1/assignment-sessions/${used}/identity-verifications/resume`, undefined, { key: null });
    const number = (await h.call('POST', `/v1/assignment-sessions/${used}/finalize`, undefined, { key: null })).json.assignedNumber;
    const usedPage = (await page(h, `/assign/${used}`)).text;
    expect(reason(usedPage)).toBe('used');
    expect(usedPage).not.toContain(number); // a reopened link does not show the number
    const off = await link(h);
    await h.sim.control.request('PATCH', `/accounts/${ACME.accountId}`, { addons: [] });
    expect(reason((await page(h, `/assign/${off}`)).text)).toBe('disabled');
  });
});

describe('the fake provider page', () => {
  const form = (h: H, iv: string, fields: Record<string, string>) =>
    h.call('POST', `/identity/${iv}?lang=ko`, undefined, { key: null, rawBody: new URLSearchParams(fields).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } });

  it('verifies from the form and sends the person back to the issuing page (303) to resume', async () => {
    const h = harness();
    const token = await link(h);
    const iv = await toVerify(h, token);
    const shown = await page(h, `/identity/${iv}`);
    expect(shown.text).toContain('<label for="kyc-name">');
    const missing = await form(h, iv, { action: 'verify', name: '' });
    expect(missing.status).toBe(200);
    expect(missing.text).toMatch(/role="alert">[^<]+/);
    expect(runtimeOf(h.sim).kyc.get(iv)!.status).toBe('pending');
    const done = await form(h, iv, { action: 'verify', name: '홍길동', birthDate: '1990-05-17' });
    expect(done.status).toBe(303);
    expect(done.headers.location).toBe(`/assign/${token}?identityVerificationId=${iv}&lang=ko`);
    expect(runtimeOf(h.sim).kyc.get(iv)).toMatchObject({ status: 'verified', name: '홍길동' });
    const again = await form(h, iv, { action: 'verify', name: '김철수', birthDate: '1990-01-01' });
    expect(again.status).toBe(200); // already finished: a page that says so, nothing changes
    expect(runtimeOf(h.sim).kyc.get(iv)!.name).toBe('홍길동');
  });

  it('cancel abandons the check; an unknown verification is 404', async () => {
    const h = harness();
    const token = await link(h);
    const iv = await toVerify(h, token);
    expect((await form(h, iv, { action: 'cancel' })).status).toBe(303);
    expect(runtimeOf(h.sim).kyc.get(iv)!.status).toBe('abandoned');
    const resumed = await h.call('POST', `/v1/assignment-sessions/${token}/identity-verifications/resume`, undefined, { key: null });
    expect(resumed.json.code).toBe('IDENTITY_NOT_VERIFIED');
    expect((await form(h, 'identity-verification-unknown', { action: 'cancel' })).status).toBe(404);
  });
});
