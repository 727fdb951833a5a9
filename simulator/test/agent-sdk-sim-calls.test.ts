// Agent SDK calls in the whole simulator, with the protocol-faithful runtime: an inbound call to a
// number whose slot is held (its phone's lines spoken as synthesized speech), the hang-up
// handshake and the call record, conversation, recording and callbacks that follow; an outbound
// call placed with the runtime's own createCall (201, ringing, outbound_ready) and one nobody
// answers; 409 without an agent; a transfer recorded as a leg, a warm one with its hold and whisper; the number's routing when no agent
// is connected.
import { afterEach, describe, expect, it } from 'vitest';
import { createSimulator, type ListeningServer, type Simulator } from '../index.ts';
import { FaithfulAgent } from './agent-runtime/agent.ts';
import { until } from './agent-sdk-harness.ts';
import { rms } from '../../conformance/agent/audio.ts';

const ACCOUNT = 'AC1a2b3c4d';
const KEY = 'sk_test_acme_4f9c2b7e1d3a5c8f';
const NUMBER = '07012340001';
const running: { sim: Simulator; server: ListeningServer; agents: FaithfulAgent[] }[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) {
    for (const a of r.agents) await a.close();
    await r.server.close();
    await r.sim.close();
  }
});

async function setup(connect = true) {
  const sim = createSimulator();
  const server = await sim.listen();
  const agent = new FaithfulAgent({ baseUrl: server.url, accountId: ACCOUNT, apiKey: KEY, number: NUMBER, backoffMs: 20 });
  running.push({ sim, server, agents: [agent] });
  if (connect) await agent.connect();
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await sim.handle({ method, url: `/v1/accounts/${ACCOUNT}${path}`, headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, json: res.body && res.headers['content-type']?.includes('json') ? JSON.parse(res.body) : undefined, bytes: res.bytes };
  };
  return { sim, server, agent, api };
}

const tone = (ms: number) => Buffer.alloc(ms * 8, 0x9a);

describe('Agent SDK calls in the simulator', () => {
  it('an inbound call: call.incoming at once, the phone speaks its line, the agent hangs up; the record, conversation and recording follow the media', async () => {
    const { sim, agent, api } = await setup();
    const { callId } = await sim.control.request<{ callId: string }>('POST', '/carrier/inbound-calls', { from: '010-2222-3333', to: NUMBER, lines: ['Hello, I would like to check my booking.'] });
    const call = await agent.nextCall();
    expect(call.callId).toBe(callId);
    expect(call.events[0]).toMatchObject({ event: 'call.incoming', from: '01022223333', callerIdRestricted: false });
    const media = call.media!;
    await media.started;
    media.sendAudioPieces(tone(600), 250);
    await media.mark('greeting');
    // The phone answers after the greeting and a short silence: loud frames reach the agent.
    await until(() => media.log.frames.slice(40).some((f) => rms(f) > 300), 10_000);
    await until(() => media.log.frames.length > 0 && rms(media.log.frames.at(-1)!) < 50 && media.log.frames.slice(40).some((f) => rms(f) > 300), 10_000);
    expect((await media.hangup()).echoed).toBe(true);
    const ended = await call.ended;
    expect(ended.status).toBe('completed');
    const got = await api('GET', `/calls/${callId}`);
    expect(got.json).toMatchObject({ status: 'completed', direction: 'inbound', duration: ended.duration });
    const walk = await sim.control.request<any>('GET', `/calls/${callId}`);
    const turns = walk.call.conversation ?? walk.conversation;
    expect(turns?.map((t: any) => [t.speaker, t.text])).toEqual([
      ['agent', null],
      ['caller', 'Hello, I would like to check my booking.'],
    ]);
    // The recording is the real audio: as long as the media, loud where the phone spoke.
    const rec = await api('GET', `/recordings/${callId}`);
    expect(rec.status).toBe(200);
    const wav = Buffer.from(rec.bytes!);
    expect(wav.toString('ascii', 0, 4)).toBe('RIFF');
    const seconds = (wav.length - 44) / 16000;
    expect(Math.abs(seconds - media.log.frames.length * 0.02)).toBeLessThanOrEqual(0.1);
    expect(call.mediaOpenAtEnd).toBe(false); // call.ended came after the media socket had closed
    await until(() => agent.control.log.sent.some((m) => m.event === 'call.metrics'));
    await new Promise((r) => setTimeout(r, 50));
    const sdk = await sim.control.request<any>('GET', `/agent-sdk/calls/${callId}`);
    expect(sdk.reports).toEqual({ telemetry: 1, metrics: 1 }); // accepted, counted, never answered
    expect(sdk.control.map((c: any) => c.event)).toEqual(expect.arrayContaining(['call.incoming', 'call.accept', 'call.ended']));
    expect(sdk.media.framesPlayed).toBe(30);
    expect(sdk.media.marksEchoed).toBe(2);
  });

  it('an outbound call with the runtime\'s createCall: 201, ringing, outbound_ready, media; and one nobody answers gets only call.ended', async () => {
    const { sim, agent } = await setup();
    await sim.control.request('POST', '/carrier/scripts', { number: '010-4444-5555', outcome: 'delivered', delaySeconds: 2, types: ['call'], lines: ['여보세요?'] });
    const placed = await agent.call('010-4444-5555');
    expect(placed.callId).toMatch(/^CA/);
    await sim.clock.advance({ seconds: 1 });
    await agent.control.waitFor((m) => m.event === 'call.ringing' && m.callId === placed.callId);
    await sim.clock.advance({ seconds: 5 });
    const ready = await agent.control.waitFor((m) => m.event === 'call.outbound_ready');
    expect(ready).toMatchObject({ callId: placed.callId, from: NUMBER, to: '01044445555' });
    const call = await agent.nextCall();
    await call.media!.started;
    await call.media!.hangup();
    expect((await call.ended).status).toBe('completed');

    await sim.control.request('POST', '/carrier/scripts', { number: '010-6666-7777', outcome: 'no-answer', types: ['call'] });
    const unanswered = await agent.call('010-6666-7777', { timeout: 10 });
    await sim.clock.advance({ seconds: 60 });
    const end = await unanswered.ended;
    expect(end).toEqual({ status: 'no-answer', duration: 0 });
    expect(unanswered.events.map((e) => e.event)).toEqual(expect.not.arrayContaining(['call.outbound_ready']));
  });

  it('createCall without a mode and no agent holding From is 409 agent_not_connected (the runtime reads any non-201 as an error)', async () => {
    const { api } = await setup();
    const res = await api('POST', '/calls', { To: '010-1234-5678', From: '070-1234-0002', Timeout: 60 });
    expect(res.status).toBe(409);
    expect(res.json).toMatchObject({ code: 'agent_not_connected' });
    const ok = await api('POST', '/calls', { To: '010-1234-5678', From: NUMBER, Timeout: 60 });
    expect(ok.status).toBe(201);
    expect(ok.json).toMatchObject({ status: 'queued' });
  });

  it('a transfer over the control socket is recorded as a leg of the call', async () => {
    const { sim, agent, api } = await setup();
    const { callId } = await sim.control.request<{ callId: string }>('POST', '/carrier/inbound-calls', { from: '010-2222-3333', to: NUMBER, lines: [] });
    const call = await agent.nextCall();
    await call.media!.started;
    call.media!.sendAudio(tone(400));
    const pending = agent.transfer(callId, { to: '010-8888-9999', mode: 'blind', timeout: 20 }, 30_000);
    await agent.control.waitFor((m) => m.event === 'call.transfer.started');
    await call.media!.closed; // the media closes when a terminate transfer begins
    await sim.clock.advance({ seconds: 120 });
    const result = await pending;
    expect(['completed', 'no-answer', 'failed', 'busy']).toContain(result.status);
    const got = await api('GET', `/calls/${callId}`);
    expect(got.json.transfers).toHaveLength(1);
    expect(got.json.transfers[0]).toMatchObject({ sequence: 1, to: '01088889999', mode: 'blind' });
    expect(got.json.transfers[0].status).toBe(result.status);
  });

  it('a warm transfer with a whisper: the caller hears ringback while the target rings, the target hears the whisper (transcript, recording), then the bridge', async () => {
    const { sim, agent, api } = await setup();
    await sim.control.request('POST', '/carrier/scripts', { number: '010-8888-7777', outcome: 'delivered', types: ['call'], delaySeconds: 4, hangupAfterSeconds: 12 });
    const { callId } = await sim.control.request<{ callId: string }>('POST', '/carrier/inbound-calls', { from: '010-2222-3333', to: NUMBER, lines: [] });
    const call = await agent.nextCall();
    await call.media!.started;
    const whisper = 'Booking question from a returning customer.';
    const pending = agent.transfer(callId, { to: '010-8888-7777', mode: 'warm', whisper, holdMedia: 'ringback', timeout: 20 }, 30_000);
    await agent.control.waitFor((m) => m.event === 'call.transfer.started');
    await call.media!.closed;
    await sim.clock.advance({ seconds: 60 });
    expect(await pending).toEqual({ status: 'completed', duration: 12 });
    const got = await api('GET', `/calls/${callId}`);
    expect(got.json.transfers[0]).toMatchObject({ sequence: 1, to: '01088887777', mode: 'warm', status: 'completed' });
    const turns = (await sim.control.request<any>('GET', `/calls/${callId}`)).conversation as { text: string | null; startMs: number; endMs: number; detail: { events?: string[] } }[];
    const hold = turns.find((t) => t.detail.events?.includes('hold'))!;
    const said = turns.find((t) => t.detail.events?.includes('whisper'))!;
    const bridged = turns.find((t) => t.detail.events?.includes('bridged'))!;
    expect(said.text).toBe(whisper);
    expect(said.startMs - hold.startMs).toBe(4000); // the target answered after ringing 4 s
    expect(bridged.startMs).toBe(said.endMs);
    // The transcript holds the whisper (the agent side: AGENT, the fixture's calls being before 2026-08), at its time.
    expect((await api('POST', `/calls/${callId}/transcript`)).status).toBeLessThan(300);
    await sim.clock.advance({ seconds: 120 });
    const transcript = (await api('GET', `/calls/${callId}/transcript`)).json;
    expect(transcript.segments).toContainEqual({ speaker: 'AGENT', start: said.startMs / 1000, end: said.endMs / 1000, text: whisper });
    // The recording: ringback while the target rings, the whisper once it answers.
    const wav = Buffer.from((await api('GET', `/recordings/${callId}`)).bytes!);
    const pcm = new Int16Array(wav.buffer.slice(wav.byteOffset + 44, wav.byteOffset + wav.length));
    const level = (fromMs: number, toMs: number) => Math.sqrt(pcm.subarray(fromMs * 8, toMs * 8).reduce((s, v) => s + v * v, 0) / ((toMs - fromMs) * 8));
    expect(level(hold.startMs + 100, hold.startMs + 900)).toBeGreaterThan(1000); // the first ring
    expect(level(hold.startMs + 1100, hold.startMs + 2900)).toBeLessThan(50); // its pause
    expect(level(said.startMs, said.endMs)).toBeGreaterThan(300);
    expect(level(bridged.startMs + 100, bridged.startMs + 2000)).toBeLessThan(50);
  });

  it('without a connected agent the number\'s routing applies as before', async () => {
    const { sim } = await setup(false);
    const { callId } = await sim.control.request<{ callId: string | null }>('POST', '/carrier/inbound-calls', { from: '010-2222-3333', to: NUMBER });
    const walk = await sim.control.request<any>('GET', `/calls/${callId}`);
    expect(walk.call.status).not.toBe('in-progress');
  });

  it('a body with AI is 410 ai_mode_removed', async () => {
    const { api } = await setup();
    const res = await api('POST', '/calls', { To: '010-1234-5678', From: NUMBER, AI: { prompt: 'hi' } });
    expect(res.status).toBe(410);
    expect(res.json).toMatchObject({ code: 'ai_mode_removed' });
  });

  it('MachineDetection Hangup on a machine: no outbound_ready, only call.ended', async () => {
    const { sim, agent } = await setup();
    await sim.control.request('POST', '/carrier/scripts', { number: '010-4444-5555', outcome: 'delivered', delaySeconds: 2, types: ['call'], answeredBy: 'machine' });
    const placed = await agent.call('010-4444-5555', { machineDetection: 'Hangup' });
    await sim.clock.advance({ seconds: 10 });
    const end = await placed.ended;
    expect(end.duration).toBe(0);
    expect(placed.events.map((e) => e.event)).toEqual(['call.ringing', 'call.ended']);
  });

  it('a transfer with a caller ID the account does not own fails UNOWNED_CALLER_ID; SIP without the sip_trunk add-on fails; the call stays with the agent', async () => {
    const { sim, server, agent } = await setup();
    const { callId } = await sim.control.request<{ callId: string }>('POST', '/carrier/inbound-calls', { from: '010-2222-3333', to: NUMBER, lines: [] });
    const call = await agent.nextCall();
    await call.media!.started;
    call.media!.sendAudio(tone(2000));
    expect(await agent.transfer(callId, { to: '010-8888-9999', callerId: '010-5555-1212' })).toMatchObject({ status: 'failed', reason: 'UNOWNED_CALLER_ID' });
    expect(call.media!.open).toBe(true);
    // The call's original caller and the account's own numbers are allowed: this one starts.
    const started = agent.transfer(callId, { to: '010-8888-9999', callerId: '010-2222-3333' });
    await agent.control.waitFor((m) => m.event === 'call.transfer.started');
    void started.catch(() => {});
    // An account without the add-on.
    const acct = await sim.control.createAccount({ addons: [] });
    const other = new FaithfulAgent({ baseUrl: server.url, accountId: acct.accountId, apiKey: acct.apiKey, number: acct.numbers[0]!, backoffMs: 20 });
    running[0]!.agents.push(other);
    await other.connect();
    const second = await sim.control.request<{ callId: string }>('POST', '/carrier/inbound-calls', { from: '010-2222-3333', to: acct.numbers[0], lines: [] });
    const c2 = await other.nextCall();
    await c2.media!.started;
    c2.media!.sendAudio(tone(2000));
    expect(await other.transfer(second.callId, { to: 'sip:desk@pbx.example.com', destinationType: 'sip' })).toMatchObject({ status: 'failed', reason: 'a SIP transfer needs the sip_trunk add-on' });
    expect(c2.media!.open).toBe(true);
  });
});
