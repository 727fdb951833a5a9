// The inspector's control-plane parts without a browser: the page is served without data, the
// live feed carries domain events and clock moves (and stops when closed), the job list follows
// the clock's order, and both sit behind the control-plane token.
import { describe, expect, it } from 'vitest';
import { createSimulator } from '../index.ts';
import { ACME, call } from './helpers.ts';

describe('the inspector page and its feed', () => {
  it('serves the page as HTML without data, needing no token', async () => {
    const sim = createSimulator({ controlToken: 't' });
    const page = await sim.handle({ method: 'GET', url: '/_sim/ui' });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('<title>Simulator inspector</title>');
    expect(page.body).not.toContain(ACME.key);
    expect(page.body).not.toContain(ACME.accountId);
    // The families' section scripts (the Agent SDK's call section) run before the inspector's own.
    const body = String(page.body);
    expect(body.indexOf('window.inspectorSections.sdkCall = function')).toBeGreaterThan(0);
    expect(body.indexOf('window.inspectorSections.sdkCall = function')).toBeLessThan(body.indexOf('window.inspectorSections.sdkCall(r[3]'));
    expect((await sim.handle({ method: 'GET', url: '/_sim/events' })).status).toBe(401);
    expect((await sim.handle({ method: 'GET', url: '/_sim/clock/jobs' })).status).toBe(401);
    await sim.close();
  });

  it('streams domain events and clock moves as server-sent events until closed', async () => {
    const sim = createSimulator();
    const res = await sim.handle({ method: 'GET', url: '/_sim/events' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    const chunks: string[] = [];
    const stop = res.stream!.open((c) => chunks.push(c));
    await call(sim, 'POST', `/v1/accounts/${ACME.accountId}/messages`, { From: '07012340001', To: '01012345678', Body: 'hi' });
    await sim.clock.advance({ seconds: 5 });
    const events = chunks.map((c) => {
      const [, name, data] = /^event: (\w+)\ndata: (.*)\n\n$/.exec(c)!;
      return { name, data: JSON.parse(data!) };
    });
    expect(events.find((e) => e.name === 'domain')?.data).toMatchObject({ type: 'message.sent', accountId: ACME.accountId, resourceId: expect.stringMatching(/^MG/) });
    expect(events.at(-1)).toEqual({ name: 'clock', data: { now: '2026-03-02T00:00:05.000Z' } });
    stop();
    const seen = chunks.length;
    await sim.clock.advance({ seconds: 5 });
    expect(chunks.length).toBe(seen);
    await sim.close();
  });

  it('lists pending jobs in the order they run', async () => {
    const sim = createSimulator();
    await call(sim, 'POST', `/v1/accounts/${ACME.accountId}/messages`, { From: '07012340001', To: '01012345678', Body: 'a' });
    await call(sim, 'POST', '/v2/verifications', { to: '01012345679' });
    const jobs = (await call(sim, 'GET', '/_sim/clock/jobs', undefined, { key: null })).json.data;
    expect(jobs.length).toBe((await call(sim, 'GET', '/_sim/clock', undefined, { key: null })).json.pendingJobs);
    expect(jobs.length).toBeGreaterThanOrEqual(2);
    const order = jobs.map((j: any) => `${j.due}|${String(j.id).padStart(8, '0')}`);
    expect(order).toEqual([...order].sort());
    expect(jobs[0]).toEqual({ id: expect.any(Number), due: expect.any(String), kind: expect.any(String) });
    await sim.close();
  });
});
