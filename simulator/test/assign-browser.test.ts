// The end user's issuing page in a real browser: Debian's Chromium driven by playwright-core
// through the whole flow (subscriber type, consents, the fake provider's page, finalize, the
// automatic return to returnUrl without the number), plus a cancelled identity check and an
// expired link. Screenshots go to artifacts/browser/ (gitignored). .ci/run installs chromium;
// where it cannot be installed this file skips, saying so loudly.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { artifactsDir, chromiumAvailable, launchChromium } from './chromium.ts';
import { ACME, harness } from './helpers.ts';
import { closeAllReceivers, startReceiver, type TestReceiver } from './receivers.ts';
import type { ListeningServer } from '../index.ts';

const available = chromiumAvailable('the issuing-page browser test');


describe.skipIf(!available)('the issuing page in Chromium', () => {
  const h = harness();
  let server: ListeningServer;
  let back: TestReceiver;
  let browser: BrowserContext;
  let chromium: Awaited<ReturnType<typeof launchChromium>> | undefined;
  let ARTIFACTS = '';

  beforeAll(async () => {
    ARTIFACTS = artifactsDir('browser');
    server = await h.sim.listen(0, '127.0.0.1');
    back = await startReceiver(() => ({ status: 200, body: '<!doctype html><title>Back at the shop</title><h1>Back at the shop</h1>', headers: { 'content-type': 'text/html' } }), '/back');
    await h.sim.control.request('PUT', `/accounts/${ACME.accountId}/issuing-page`, { domains: ['127.0.0.1'] });
    chromium = await launchChromium();
    browser = chromium.browser;
  }, 60_000);

  afterAll(async () => {
    await chromium?.close();
    await server?.close();
    await closeAllReceivers();
    await h.sim.close();
  });

  async function newLink(body: Record<string, unknown> = {}): Promise<{ token: string; url: string }> {
    const r = await h.call('POST', h.acme('/assignment-links'), body, { headers: { host: new URL(server.url).host } });
    expect(r.status).toBe(201);
    return r.json;
  }

  async function shot(page: Page, name: string) {
    await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
  }

  async function throughConsents(page: Page, labels: { type: string; next: string; required: string[] }) {
    await page.getByLabel(labels.type, { exact: true }).check();
    await page.getByRole('button', { name: labels.next }).click();
    await expect.poll(() => page.locator('#step-consents').isVisible()).toBe(true);
    for (const clause of labels.required) await page.getByLabel(clause).check();
    await page.getByRole('button', { name: labels.next }).click();
    await expect.poll(() => page.locator('#step-verify').isVisible()).toBe(true);
  }

  it('walks the whole flow in Korean and returns to returnUrl without the number', async () => {
    const link = await newLink({ note: 'browser', returnUrl: `${back.origin}/back?shop=1` });
    const page = await browser.newPage();
    await page.goto(link.url);
    expect(await page.getAttribute('html', 'lang')).toBe('ko');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('전화번호 발급');
    await shot(page, '1-select-type');

    await throughConsents(page, { type: '개인', next: '다음', required: ['서비스 이용약관', '회선 명의 및 계정 관리 약관', '개인정보 수집 및 이용', '개인정보 제3자 제공'] });
    await shot(page, '2-verify');
    await page.getByRole('button', { name: '본인인증 시작' }).click();
    await page.waitForURL(/\/identity\//);
    await page.getByLabel('이름').fill('홍길동');
    await page.getByLabel('생년월일').fill('1990-05-17');
    await shot(page, '3-provider');
    await page.getByRole('button', { name: '인증하기' }).click();
    await page.waitForURL((u) => u.pathname === `/assign/${link.token}`);
    await expect.poll(() => page.locator('#step-ready').isVisible()).toBe(true);
    expect(page.url()).not.toContain('identityVerificationId'); // dropped after resuming
    await shot(page, '4-ready');

    await page.getByRole('button', { name: '번호 발급받기' }).click();
    await expect.poll(() => page.locator('#assigned-number').textContent()).toMatch(/^070\d{8}$/);
    const number = await page.locator('#assigned-number').textContent();
    expect(await page.getByRole('link', { name: '돌아가기' }).getAttribute('href')).toBe(`${back.origin}/back?shop=1`);
    await shot(page, '5-done');

    await page.waitForURL((u) => u.pathname === '/back', { timeout: 15_000 });
    expect(page.url()).toBe(`${back.origin}/back?shop=1`);
    expect(page.url()).not.toContain(number!);
    const got = (await h.call('GET', h.acme(`/assignment-links/${link.token}`))).json;
    expect(got).toMatchObject({ status: 'consumed', assignment: { number, name: '홍길동' } });

    // Opening the used link again says so.
    await page.goto(link.url);
    expect(await page.locator('#closed').getAttribute('data-reason')).toBe('used');
    await shot(page, '6-used');
    await page.close();
  }, 60_000);

  it('in English: a cancelled identity check is announced and can be retried; an expired link gets its page', async () => {
    const link = await newLink();
    const page = await browser.newPage();
    await page.goto(`${link.url}?lang=en`);
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    await throughConsents(page, { type: 'Individual', next: 'Next', required: ['Terms of service', 'Line holder and account terms', 'Collection and use of personal data', 'Sharing personal data with third parties'] });
    await page.getByRole('button', { name: 'Start identity check' }).click();
    await page.waitForURL(/\/identity\//);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForURL((u) => u.pathname === `/assign/${link.token}`);
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('The identity check was not completed. Please try again.');
    expect(await page.locator('#step-verify').isVisible()).toBe(true);
    await shot(page, '7-cancelled-en');
    expect((await h.call('GET', h.acme(`/assignment-links/${link.token}`))).json.status).toBe('pending');

    await h.sim.clock.advance({ seconds: 604800 });
    await page.reload();
    expect(await page.locator('#closed').getAttribute('data-reason')).toBe('expired');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('This link has expired');
    await shot(page, '8-expired-en');
    await page.close();
  }, 60_000);
});
