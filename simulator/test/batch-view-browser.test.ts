// The inspector's batch view in a real browser (Debian's Chromium through playwright-core): a
// campaign of 600 recipients, one dial a minute, in three rounds with weekday windows runs on the virtual clock; the
// view lists it, draws it, and its numbers are the API's: the chart's last bucket and the
// legend equal getCallBatch's counts, every dials-per-hour bar stays under the pace's line, the
// window stripes are the rounds' stretches, the rounds table is the route's tally. The clock's
// button moves it on while the page is open. Screenshots go to artifacts/batch-view/ (gitignored)
// and their paths are printed. Where Chromium cannot be installed this file skips, saying so.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { artifactsDir, chromiumAvailable, collectConsoleErrors, launchChromium } from './chromium.ts';
import { createSimulator, type ListeningServer } from '../index.ts';
import { call, ACME } from './helpers.ts';

const available = chromiumAvailable('the batch view browser test');
const TOKEN = 'batch-view-token';
const STATUSES = ['pending', 'dialing', 'done', 'failed', 'canceled', 'suppressed', 'expired'];

describe.skipIf(!available)('the inspector\'s batch view in Chromium', () => {
  const sim = createSimulator({ controlToken: TOKEN });
  let server: ListeningServer;
  let browser: BrowserContext;
  let chromium: Awaited<ReturnType<typeof launchChromium>> | undefined;
  let ARTIFACTS = '';
  const consoleErrors: string[] = [];
  let batchId = '';

  const api = (method: string, path: string, body?: unknown) => call(sim, method, `/v1/accounts/${ACME.accountId}${path}`, body);
  const chart = async () => (await call(sim, 'GET', `/_sim/call-batches/${batchId}/chart`, undefined, { key: TOKEN })).json;

  beforeAll(async () => {
    ARTIFACTS = artifactsDir('batch-view');
    server = await sim.listen(0, '127.0.0.1');
    const flow = await api('POST', '/call-flows', { name: 'reminder', graph: { version: 1, start: 'hi', nodes: { hi: { type: 'say', text: 'See you tomorrow', next: 'bye' }, bye: { type: 'hangup' } } } });
    // 30 % of the recipients ring out unanswered, a tenth are busy (the carrier's prefix + share scripts, docs/decisions.md "Calls").
    await call(sim, 'POST', '/_sim/carrier/scripts', { prefix: '0105', types: ['call'], outcome: 'no-answer', share: 0.3 }, { key: TOKEN });
    await call(sim, 'POST', '/_sim/carrier/scripts', { prefix: '0106', types: ['call'], outcome: 'busy' }, { key: TOKEN });
    const tasks = Array.from({ length: 600 }, (_, i) => ({ To: `010${i % 10 === 0 ? 6 : 5}${String(i).padStart(7, '0')}` }));
    const weekdays = [1, 2, 3, 4, 5];
    const r = await api('POST', '/call-batches', {
      Name: 'spring reminders',
      From: '07012340001',
      CallFlowId: flow.json.callFlowId,
      MaxConcurrency: 20,
      PacingPerMinute: 1,
      Rounds: [
        { Windows: [{ Days: weekdays, Start: '10:00', End: '18:00' }] },
        { After: 30, On: ['no-answer', 'busy'], Windows: [{ Days: weekdays, Start: '18:00', End: '21:00' }] },
        { After: 60, On: ['no-answer'], Windows: [{ Days: weekdays, Start: '09:00', End: '10:00' }] },
      ],
      Tasks: tasks,
    });
    expect(r.status, r.text).toBe(200);
    batchId = r.json.batchId;
    await sim.clock.advance({ seconds: 30 * 3600 }); // to Tuesday 15:00 Korea time: mid-campaign
    chromium = await launchChromium();
    browser = chromium.browser;
  }, 60_000);

  afterAll(async () => {
    await chromium?.close();
    await server?.close();
    await sim.close();
  });

  async function open(hash: string): Promise<Page> {
    const page = await browser.newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    collectConsoleErrors(page, consoleErrors);
    await page.goto(`${server.url}/_sim/ui${hash}`);
    await page.getByLabel('Control-plane token').fill(TOKEN);
    await page.getByRole('button', { name: 'Open' }).click();
    return page;
  }

  async function shot(page: Page, name: string): Promise<void> {
    const path = join(ARTIFACTS, `${name}.png`);
    await page.screenshot({ path, fullPage: true });
    expect(existsSync(path)).toBe(true);
    console.log(`batch view screenshot: ${path}`);
  }

  /** What the page shows: the legend's chart and API columns, the bars, the window stripes, the rounds table. */
  async function shown(page: Page) {
    return page.evaluate(`(() => {
      const nums = (sel, attr) => Object.fromEntries([...document.querySelectorAll(sel)].map((e) => [e.getAttribute(attr), Number(e.textContent)]));
      return {
        status: document.getElementById('batch-status').textContent,
        chart: nums('[data-chart-count]', 'data-chart-count'),
        api: nums('[data-api-count]', 'data-api-count'),
        bars: [...document.querySelectorAll('[data-dials]')].map((e) => Number(e.getAttribute('data-dials'))),
        limit: Number(document.getElementById('batch-pace-limit').getAttribute('data-limit')),
        windows: [...document.querySelectorAll('rect.window')].map((e) => ({ round: Number(e.getAttribute('data-round')), from: e.getAttribute('data-from'), to: e.getAttribute('data-to') })),
        dialed: [...document.querySelectorAll('[data-round-dialed]')].map((e) => Number(e.textContent)),
        layers: document.querySelectorAll('#batch-states polygon').length,
      };
    })()`) as Promise<{ status: string; chart: Record<string, number>; api: Record<string, number>; bars: number[]; limit: number; windows: { round: number; from: string; to: string }[]; dialed: number[]; layers: number }>;
  }

  async function expectMatchesApi(page: Page) {
    const batch = (await api('GET', `/call-batches/${batchId}`)).json;
    const c = await chart();
    const s = await shown(page);
    expect(s.status).toBe(batch.status);
    expect(s.api).toEqual(batch.counts);
    expect(s.chart).toEqual(batch.counts); // the chart's last bucket is where the API stands
    expect(Object.keys(s.chart).sort()).toEqual([...STATUSES].sort());
    expect(s.layers).toBe(7);
    expect(s.limit).toBe(60);
    expect(s.bars.length).toBeGreaterThan(0);
    for (const b of s.bars) expect(b).toBeLessThanOrEqual(s.limit);
    expect(s.bars.reduce((a, b) => a + b, 0)).toBe(c.dialsPerHour.values.reduce((a: number, b: number) => a + b, 0));
    expect(s.windows).toEqual(c.windows);
    expect(s.dialed).toEqual(c.rounds.map((r: { dialed: number }) => r.dialed));
    return { batch, chart: c, shown: s };
  }

  it('lists the account\'s batches and draws one mid-campaign with the API\'s numbers', async () => {
    const page = await open('#/batches');
    await expect.poll(() => page.locator('#view').textContent()).toContain('spring reminders');
    await shot(page, '1-batches');
    await page.getByRole('link', { name: batchId }).click();
    await expect.poll(() => page.locator('#batch-states').count()).toBe(1);
    const { batch, shown: s } = await expectMatchesApi(page);
    expect(batch.status).toBe('running');
    expect(s.chart.done! + s.chart.failed!).toBeGreaterThan(0);
    expect(s.chart.pending).toBeGreaterThan(0);
    // Round 1's stripes: Monday and Tuesday 10:00-18:00 Korea time (01:00-09:00 UTC) while the span lasts.
    expect(s.windows.filter((w) => w.round === 1).slice(0, 2)).toEqual([
      { round: 1, from: '2026-03-02T01:00:00.000Z', to: '2026-03-02T09:00:00.000Z' },
      { round: 1, from: '2026-03-03T01:00:00.000Z', to: expect.any(String) },
    ]);
    expect(await page.getByRole('link', { name: 'Call batches' }).getAttribute('aria-current')).toBe('page');
    await shot(page, '2-mid-campaign');
    await page.close();
  });

  it('moves on with the clock\'s button while open, to the campaign\'s end, still matching the API', async () => {
    const page = await open(`#/batches/${batchId}`);
    await expect.poll(() => page.locator('#batch-states').count()).toBe(1);
    for (let day = 0; day < 4; day++) {
      const before = (await call(sim, 'GET', '/_sim/clock', undefined, { key: TOKEN })).json.now as string;
      await page.getByRole('button', { name: '+1 day' }).click();
      await expect.poll(async () => (await call(sim, 'GET', '/_sim/clock', undefined, { key: TOKEN })).json.now, { timeout: 20_000 }).not.toBe(before);
    }
    const done = await api('GET', `/call-batches/${batchId}`);
    expect(done.json.status).toBe('completed');
    await expect.poll(() => page.locator('#batch-status').textContent(), { timeout: 20_000 }).toBe('completed');
    const { chart: c } = await expectMatchesApi(page);
    expect(c.rounds.map((r: { dialed: number }) => r.dialed)[0]).toBe(600);
    expect(c.rounds[1].dialed).toBe(c.rounds[0].retried);
    expect(c.rounds[2].dialed).toBe(c.rounds[1].retried);
    const rows = await page.locator('section[aria-labelledby="batch-rounds-h"] tbody tr').allTextContents();
    expect(rows).toHaveLength(3);
    await shot(page, '3-completed');
    await page.close();
  });

  it('logged no console error', () => {
    expect(consoleErrors).toEqual([]);
  });
});
