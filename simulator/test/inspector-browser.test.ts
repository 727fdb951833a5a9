// The inspector (GET /_sim/ui) in a real browser: Debian's Chromium driven by playwright-core
// after a scripted scenario (a text, a verification, a failing webhook): every view shows what
// happened, the clock buttons move the clock, live updates arrive without a reload, a wrong
// token and an unknown id get a clear message, a reset under the page is announced, and the page
// logs no console error. Screenshots go to artifacts/inspector/ (gitignored). Where Chromium
// cannot be installed this file skips, saying so loudly.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { createSimulator, type ListeningServer } from '../index.ts';
import { call, ACME } from './helpers.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
const ARTIFACTS = join(process.cwd(), 'artifacts', 'inspector');
const TOKEN = 'inspector-test-token';

if (!available) {
  console.warn(`\n${'!'.repeat(78)}\n!! SKIPPED: the inspector browser test needs Chromium at ${CHROMIUM}.\n!! Install it (apt-get install -y chromium) or set CHROMIUM_PATH; .ci/run does this.\n${'!'.repeat(78)}\n`);
}

describe.skipIf(!available)('the inspector in Chromium', () => {
  const sim = createSimulator({ controlToken: TOKEN });
  let server: ListeningServer;
  let browser: BrowserContext;
  let profile: string;
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    server = await sim.listen(0, '127.0.0.1');
    // The scripted scenario: a webhook that cannot be reached, a text and a verification.
    await call(sim, 'POST', `/v1/accounts/${ACME.accountId}/webhooks`, { url: 'http://127.0.0.1:9/unreachable', events: ['message.sent'] });
    await call(sim, 'POST', `/v1/accounts/${ACME.accountId}/messages`, { From: '07012340001', To: '010-2020-3030', Body: 'Your parcel is on its way' });
    await call(sim, 'POST', '/v2/verifications', { to: '010-2020-4040' });
    await sim.clock.advance({ seconds: 5 });
    await sim.webhooks.settle();
    profile = mkdtempSync(join(tmpdir(), 'chromium-profile-'));
    browser = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await sim.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  async function open(hash = ''): Promise<Page> {
    const page = await browser.newPage();
    page.on('console', (m) => {
      // The browser logs every 4xx answer as a console error; the test provokes those on purpose
      // (a wrong token, unknown ids). Anything else logged as an error, and every script error, counts.
      if (m.type() === 'error' && !/^Failed to load resource: the server responded with a status of 4\d\d/.test(m.text())) consoleErrors.push(m.text());
    });
    page.on('pageerror', (e) => consoleErrors.push(String(e)));
    await page.goto(`${server.url}/_sim/ui${hash}`);
    return page;
  }

  async function signIn(page: Page, token = TOKEN) {
    await page.getByLabel('Control-plane token').fill(token);
    await page.getByRole('button', { name: 'Open' }).click();
  }

  const shot = (page: Page, name: string) => page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });

  it('asks for the token, refuses a wrong one with a clear message, then shows the accounts with masked keys', async () => {
    const page = await open();
    await expect.poll(() => page.getByLabel('Control-plane token').isVisible()).toBe(true);
    await signIn(page, 'wrong');
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('refused the token');
    await signIn(page);
    await expect.poll(() => page.locator('#view').textContent()).toContain('Acme Logistics');
    const text = (await page.locator('#view').textContent())!;
    expect(text).toContain('AC1a2b3c4d');
    expect(text).toContain('07012340001');
    expect(text).toContain('sk_test_ac…5c8f');
    expect(text).not.toContain(ACME.key);
    await shot(page, '1-accounts');
    await page.close();
  });

  it('shows the text, the verification with the code the phone received, and the phone', async () => {
    const page = await open('#/messages');
    await signIn(page);
    await expect.poll(() => page.locator('#view').textContent()).toContain('Your parcel is on its way');
    await shot(page, '2-messages');
    await page.getByRole('link', { name: 'Verifications' }).click();
    const phone = (await call(sim, 'GET', '/_sim/carrier/phones/01020204040', undefined, { key: TOKEN })).json;
    const code = phone.messages[0].code as string;
    expect(code).toMatch(/^\d{6}$/);
    await expect.poll(() => page.locator('#view').textContent()).toContain(code);
    await shot(page, '3-verifications');
    await page.getByRole('link', { name: '01020204040' }).first().click();
    await expect.poll(() => page.locator('#view').textContent()).toContain(`Your verification code is ${code}`);
    await shot(page, '4-phone');
    await page.close();
  });

  it('shows the failing webhook delivery with its attempts and a valid signature', async () => {
    const page = await open('#/webhooks');
    await signIn(page);
    await expect.poll(() => page.locator('#view').textContent()).toContain('message.sent');
    await page.locator('details summary').first().click();
    const view = (await page.locator('#view').textContent())!;
    expect(view).toContain('connection refused');
    expect(view).toContain('valid');
    expect(view).not.toContain('invalid');
    await shot(page, '5-webhooks');
    await page.close();
  });

  it('moves the clock with its buttons and updates live from domain events, without a reload', async () => {
    const page = await open('#/clock');
    await signIn(page);
    await expect.poll(() => page.locator('#live').textContent()).toBe('live');
    const clockNow = async () => (await call(sim, 'GET', '/_sim/clock', undefined, { key: TOKEN })).json.now as string;
    const before = await clockNow();
    await page.getByRole('button', { name: '+1 h' }).click();
    // The clock moves by an hour, and the page ends up showing exactly the simulator's time (it
    // may show the instants the advance passes through on the way).
    await expect.poll(clockNow).toBe(new Date(Date.parse(before) + 3_600_000).toISOString());
    await expect.poll(async () => (await page.locator('#now').textContent()) === (await clockNow())).toBe(true);
    await page.getByRole('button', { name: 'Next job' }).click();
    // A text sent through the API shows up on the open messages view by itself.
    await page.getByRole('link', { name: 'Messages' }).click();
    await call(sim, 'POST', `/v1/accounts/${ACME.accountId}/messages`, { From: '07012340001', To: '010-2020-5050', Body: 'Sent while you watch' });
    await sim.clock.advance({ seconds: 5 });
    await expect.poll(() => page.locator('#view').textContent(), { timeout: 10_000 }).toContain('Sent while you watch');
    await shot(page, '6-live');
    await page.close();
  });

  it('says so for an unknown view, an unknown id and a reset under the open page', async () => {
    const page = await open('#/nothing-here');
    await signIn(page);
    await expect.poll(() => page.locator('#view').textContent()).toContain('There is no view called nothing-here');
    await page.evaluate("location.hash = '#/messages/AC00000000'");
    await expect.poll(() => page.locator('#view').textContent()).toContain('No account AC00000000');
    await page.evaluate("location.hash = '#/calls/CA0000'");
    await expect.poll(() => page.locator('#view').textContent()).toMatch(/No call CA0000|serves no call/);
    await page.evaluate("location.hash = '#/clock'");
    await expect.poll(() => page.locator('#live').textContent()).toBe('live');
    await call(sim, 'POST', '/_sim/reset', {}, { key: TOKEN });
    await expect.poll(() => page.getByRole('alert').textContent(), { timeout: 10_000 }).toContain('was reset');
    await shot(page, '7-reset');
    await page.close();
    expect(consoleErrors, consoleErrors.join("\n")).toEqual([]);
  });
});
