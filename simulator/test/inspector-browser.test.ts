// The inspector (GET /_sim/ui) in a real browser: Debian's Chromium driven by playwright-core
// after a scripted scenario (a text, a verification, a call through a menu, a failing webhook): every view shows what
// happened, the clock buttons move the clock, live updates arrive without a reload, a wrong
// token and an unknown id get a clear message, a reset under the page is announced, and the page
// logs no console error. Screenshots go to artifacts/inspector/ (gitignored). Where Chromium
// cannot be installed this file skips, saying so loudly.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { artifactsDir, chromiumAvailable, collectConsoleErrors, launchChromium } from './chromium.ts';
import { createSimulator, type ListeningServer } from '../index.ts';
import { call, ACME } from './helpers.ts';
import { closeAllReceivers, startReceiver } from './receivers.ts';

const available = chromiumAvailable('the inspector browser test');
const TOKEN = 'inspector-test-token';


describe.skipIf(!available)('the inspector in Chromium', () => {
  const sim = createSimulator({ controlToken: TOKEN });
  let server: ListeningServer;
  let browser: BrowserContext;
  let chromium: Awaited<ReturnType<typeof launchChromium>> | undefined;
  let ARTIFACTS = '';
  const consoleErrors: string[] = [];
  let callId = '';
  let agentCallId = '';
  let flowId = '';

  beforeAll(async () => {
    ARTIFACTS = artifactsDir('inspector');
    server = await sim.listen(0, '127.0.0.1');
    // The scripted scenario: a webhook that cannot be reached, a text and a verification.
    await call(sim, 'POST', `/v1/accounts/${ACME.accountId}/webhooks`, { url: 'http://127.0.0.1:9/unreachable', events: ['message.sent'] });
    await call(sim, 'POST', `/v1/accounts/${ACME.accountId}/messages`, { From: '07012340001', To: '010-2020-3030', Body: 'Your parcel is on its way' });
    await call(sim, 'POST', '/v2/verifications', { to: '010-2020-4040' });
    // A call through two menus: the callee's keys are scripted on the carrier, a receiver takes callflow.ended.
    const hook = await startReceiver();
    await call(sim, 'POST', `/v1/accounts/${ACME.accountId}/webhooks`, { url: hook.url, events: ['callflow.ended'] });
    const flow = await call(sim, 'POST', `/v1/accounts/${ACME.accountId}/call-flows`, {
      name: 'bookings line',
      graph: {
        version: 1,
        start: 'welcome',
        nodes: {
          welcome: { type: 'say', text: 'Welcome to Acme, {{name}}', next: 'main' },
          main: { type: 'menu', prompt: 'Press 1 for bookings, 2 for billing', branches: { '1': 'day', '2': 'bye' }, saveAs: 'choice', timeoutNext: 'bye', invalidNext: 'bye' },
          day: { type: 'menu', prompt: 'Which day? Press 9 to go back', branches: { '9': 'main' }, saveAs: 'day', invalidNext: 'book', timeoutNext: 'bye' },
          book: { type: 'setvar', assignments: [{ name: 'booked', value: 'day {{day}}' }], next: 'bye' },
          bye: { type: 'hangup', message: 'Goodbye' },
        },
      },
    });
    expect(flow.status, flow.text).toBe(201);
    flowId = flow.json.callFlowId;
    const script = await call(sim, 'POST', '/_sim/carrier/scripts', { number: '010-2020-6060', types: ['call'], outcome: 'delivered', keys: ['1', '5'], times: 1 }, { key: TOKEN });
    expect(script.status).toBe(201);
    const placed = await call(sim, 'POST', `/v1/accounts/${ACME.accountId}/calls`, { To: '010-2020-6060', From: '07012340001', CallFlowId: flow.json.callFlowId, Variables: { name: 'Kim' } });
    expect(placed.status).toBe(201);
    callId = placed.json.callId;
    // An agent call with a real MCP tool call (docs/agents.md): its conversation view.
    const mcp = await call(sim, 'POST', '/_sim/mcp/servers', { tools: [{ name: 'get_order', result: { status: 'shipped' } }] }, { key: TOKEN });
    const conn = await call(sim, 'POST', `/v1/accounts/${ACME.accountId}/mcp-connections`, { name: 'shop', url: mcp.json.url });
    await call(sim, 'POST', `/v1/accounts/${ACME.accountId}/mcp-connections/${conn.json.connectionId}/test`);
    const agent = await call(sim, 'POST', `/v1/accounts/${ACME.accountId}/agents`, { name: 'orders' });
    await call(sim, 'PUT', `/v1/accounts/${ACME.accountId}/agents/${agent.json.agentId}/mcp-connections/${conn.json.connectionId}`, { allowedTools: ['get_order'] });
    await call(sim, 'PUT', `/_sim/agents/${agent.json.agentId}/behaviour`, { greeting: 'Orders desk', rules: [{ heard: 'order', tool: { name: 'get_order' }, say: 'It is {{tool.status}}' }] }, { key: TOKEN });
    await call(sim, 'POST', '/_sim/carrier/scripts', { number: '010-2020-7070', types: ['call'], outcome: 'delivered', lines: ['Where is my order?'] }, { key: TOKEN });
    agentCallId = (await call(sim, 'POST', `/v1/accounts/${ACME.accountId}/calls`, { To: '010-2020-7070', From: '07012340001', AgentId: agent.json.agentId })).json.callId;
    await sim.clock.advance({ seconds: 5 });
    await sim.clock.advance({ seconds: 60 });
    await sim.webhooks.settle();
    expect(hook.requests.map((r) => r.fields.CallId)).toEqual([callId]);
    chromium = await launchChromium();
    browser = chromium.browser;
  }, 60_000);

  afterAll(async () => {
    await chromium?.close();
    await closeAllReceivers();
    await server?.close();
    await sim.close();
  });

  async function open(hash = ''): Promise<Page> {
    const page = await browser.newPage();
    collectConsoleErrors(page, consoleErrors);
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

  it('shows an agent call\'s conversation turn by turn, with the rule that fired and the tool call', async () => {
    await sim.clock.advance({ seconds: 60 });
    const page = await open(`#/calls/${agentCallId}`);
    await signIn(page);
    await expect.poll(() => page.getByRole('heading', { name: 'Conversation' }).isVisible()).toBe(true);
    const rows = await page.locator('section[aria-labelledby="call-conversation"] tbody tr').allTextContents();
    expect(rows[0]).toContain('Orders desk');
    expect(rows[1]).toContain('Where is my order?');
    expect(rows[2]).toMatch(/It is shipped.*rule 0 \(order\).*get_order.*shipped.*300 ms/);
    await shot(page, '9-agent-call');
    await page.close();
  });

  it('shows a call through a menu: its timeline, the blocks walked with the keys pressed and the variables, and the callflow.ended payload', async () => {
    const page = await open(`#/calls/${ACME.accountId}`);
    await signIn(page);
    await expect.poll(() => page.locator('#view').textContent()).toContain(callId);
    await shot(page, '8-calls');
    await page.getByRole('link', { name: callId }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Flow walk' }).isVisible()).toBe(true);
    const timeline = page.locator('section[aria-labelledby="call-timeline"] tbody tr');
    expect(await timeline.allTextContents()).toEqual([
      expect.stringMatching(/^queued.*0 s$/),
      expect.stringMatching(/^ringing.*1 s$/),
      expect.stringMatching(/^in-progress.*6 s$/),
      expect.stringMatching(/^completed/),
    ]);
    const walk = page.locator('section[aria-labelledby="call-walk"]');
    const rows = await walk.locator('tbody tr').allTextContents();
    expect(rows.map((r) => /(welcome|main|day|book|bye) (say|menu|setvar|hangup)/.exec(r)?.[0])).toEqual(['welcome say', 'main menu', 'day menu', 'book setvar', 'bye hangup']);
    expect(rows[0]).toContain('Welcome to Acme, Kim');
    expect(rows[1]).toContain('Press 1 for bookings, 2 for billing');
    expect(await walk.locator('kbd').allTextContents()).toEqual(['1', '5']);
    expect(rows[1]).toContain('branch');
    expect(rows[2]).toContain('invalid');
    expect(await walk.locator('tbody tr').nth(3).locator('strong').allTextContents()).toEqual(['booked = day 5']);
    expect(rows[4]).toContain('choice = 1');
    expect(rows[4]).toContain('day = 5');
    const ended = page.locator('section[aria-labelledby="call-ended"]');
    const payload = (await ended.textContent())!;
    expect(payload).toContain(callId);
    expect(payload).toContain('"booked": "day 5"');
    expect(payload).toMatch(/Status\s*completed/);
    expect(payload).toContain('delivered');
    expect(await page.locator('section[aria-labelledby="call-recordings"]').textContent()).toContain('No recordings');
    await shot(page, '9-call');
    // The phone it called lists the call, linked back to this view.
    await page.getByRole('link', { name: '01020206060' }).click();
    await expect.poll(() => page.locator('#view').textContent()).toContain('What 01020206060 received');
    expect(await page.locator('#view').textContent()).toContain('Welcome to Acme, Kim');
    expect(await page.getByRole('link', { name: callId }).count()).toBe(1);
    // A call placed while the page is open shows its walk as the clock moves, without a reload.
    const placed = await call(sim, 'POST', `/v1/accounts/${ACME.accountId}/calls`, { To: '010-2020-7070', From: '07012340001', CallFlowId: flowId });
    await page.evaluate(`location.hash = '#/calls/${placed.json.callId}'`);
    await expect.poll(() => walk.textContent()).toContain('The flow has not entered a block yet.');
    expect(await ended.textContent()).toContain('The flow has not ended yet.');
    await sim.clock.advance({ seconds: 60 });
    await expect.poll(() => ended.textContent(), { timeout: 10_000 }).toContain(placed.json.callId);
    expect(await walk.textContent()).toContain('timeout');
    await page.close();
  });

  it('plays a call\'s recordings in the page (fetched through the control plane with the token) and shows its transcript state', async () => {
    const flow = await call(sim, 'POST', `/v1/accounts/${ACME.accountId}/call-flows`, {
      name: 'voicemail',
      graph: { version: 1, start: 'r', nodes: { r: { type: 'record', prompt: 'Leave a message', saveAs: 'memo', next: 'r2' }, r2: { type: 'record', playBeep: false, next: null } } },
    });
    expect((await call(sim, 'POST', '/_sim/carrier/scripts', { number: '010-2020-8080', types: ['call'], outcome: 'delivered', speakSeconds: 4, keys: ['#', '#'] }, { key: TOKEN })).status).toBe(201);
    const placed = await call(sim, 'POST', `/v1/accounts/${ACME.accountId}/calls`, { To: '010-2020-8080', From: '07012340001', CallFlowId: flow.json.callFlowId });
    await sim.clock.advance({ seconds: 120 });
    expect((await call(sim, 'POST', `/v1/accounts/${ACME.accountId}/calls/${placed.json.callId}/transcript`)).status).toBe(202);
    const page = await open(`#/calls/${placed.json.callId}`);
    await signIn(page);
    const section = page.locator('section[aria-labelledby="call-recordings"]');
    await expect.poll(() => section.locator('audio').count()).toBe(3);
    expect(await section.locator('figcaption').allTextContents()).toEqual(['Whole call · 8 s', 'Record block memo · 4 s', 'Record block r2 · 4 s']);
    // The elements really load the WAV files: the browser reads their durations.
    const durations = () => page.evaluate<number[]>('[...document.querySelectorAll("audio")].map((a) => Math.round(a.duration))');
    await expect.poll(durations, { timeout: 10_000 }).toEqual([8, 4, 4]);
    expect(await page.evaluate('[...document.querySelectorAll("audio")].every((a) => a.src.startsWith("blob:"))')).toBe(true);
    expect(await page.locator('section[aria-labelledby="call-transcript"]').textContent()).toContain('pending');
    // Live: the transcript completes as the clock moves; the players keep their audio.
    await sim.clock.advance({ seconds: 10 });
    await expect.poll(() => page.locator('section[aria-labelledby="call-transcript"]').textContent(), { timeout: 10_000 }).toContain('completed');
    await expect.poll(durations, { timeout: 10_000 }).toEqual([8, 4, 4]);
    await shot(page, '10-recordings');
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
