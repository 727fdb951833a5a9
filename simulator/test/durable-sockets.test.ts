// Durable state and live sockets (docs/decisions.md "Durable state"): an Agent SDK runtime holds a
// control socket and a call's media socket when the simulator dies. The restarted simulator
// replays what the sockets did (the upgrades, the messages, the frames the pacer played), then
// closes them as a crash closes a socket (1006): the number's agent is disconnected and the call
// ends as the protocol says for a dropped media socket (app_error). Those closes are journaled, so
// a second restart stands exactly where the first one did.
import { afterEach, describe, expect, it } from 'vitest';
import { FaithfulAgent } from './agent-runtime/agent.ts';
import { until } from './agent-sdk-harness.ts';
import { closeDurableTests, crashAndReopen, journalLines, onDir, stateDir } from './durable-helpers.ts';
import type { ListeningServer } from '../index.ts';

const ACCOUNT = 'AC1a2b3c4d';
const KEY = 'sk_test_acme_4f9c2b7e1d3a5c8f';
const NUMBER = '07012340001';
const agents: FaithfulAgent[] = [];
const servers: ListeningServer[] = [];
afterEach(async () => {
  for (const a of agents.splice(0)) await a.close();
  for (const s of servers.splice(0)) await s.close();
  await closeDurableTests();
});

describe('durable state: live sockets', () => {
  it('replays what the sockets did, then closes them as a crash would; the closes are journaled', async () => {
    const dir = stateDir();
    const h = await onDir(dir);
    const server = await h.sim.listen();
    servers.push(server);
    const agent = new FaithfulAgent({ baseUrl: server.url, accountId: ACCOUNT, apiKey: KEY, number: NUMBER, backoffMs: 60_000 });
    agents.push(agent);
    await agent.connect();
    const { callId } = await h.sim.control.request<{ callId: string }>('POST', '/carrier/inbound-calls', { from: '010-2222-3333', to: NUMBER, lines: ['Hello there.'] });
    const call = await agent.nextCall();
    await call.media!.started;
    call.media!.sendAudioPieces(Buffer.alloc(1600, 0x9a), 200);
    await until(() => call.media!.log.frames.length > 20, 10_000);
    const live = (await h.call('GET', `/v1/accounts/${ACCOUNT}/calls/${callId}`)).json;
    expect(live.status).toBe('in-progress');
    const kinds = new Set(journalLines(dir).map((e) => e.t));
    expect([...kinds]).toEqual(expect.arrayContaining(['u', 'm', 'e'])); // sockets opened, their messages, pacer wakes

    const first = await crashAndReopen(h.sim, dir);
    const after = (await first.call('GET', `/v1/accounts/${ACCOUNT}/calls/${callId}`)).json;
    expect(after).toMatchObject({ callId, status: 'completed', hangupCause: 'app_error', hangupSource: 'app', dateCreated: live.dateCreated });
    // The 20 ms frames played live were played again: the call ended that far into its media.
    expect(Date.parse(after.dateUpdated)).toBeGreaterThanOrEqual(Date.parse(live.dateCreated) + 400);
    const closes = journalLines(dir).filter((e) => e.t === 'x');
    expect(closes.map((e) => e.c)).toEqual([1006, 1006]); // the control and the media socket
    expect((await first.sim.control.request<{ data: unknown[] }>('GET', '/agent-sdk/connections')).data).toEqual([]);
    await first.sim.webhooks.settle();
    const state = first.sim.snapshot();

    const second = await crashAndReopen(first.sim, dir);
    expect(second.sim.snapshot()).toEqual(state);
    expect(journalLines(dir).filter((e) => e.t === 'x')).toHaveLength(2); // nothing was left open to close again
  }, 30_000);
});
