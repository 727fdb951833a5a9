// Agent SDK outbound calls, transfers over the control socket and bad input, end to end with the
// faithful runtime against the stand-in calls family (agent-sdk-harness.ts).
import { afterEach, describe, expect, it } from 'vitest';
import { FaithfulAgent } from './agent-runtime/agent.ts';
import { ACCOUNT, KEY, NUMBERS, startHost, type Host, until } from './agent-sdk-harness.ts';
import { ControlClient, MediaClient } from '../../conformance/agent/client.ts';

const hosts: Host[] = [];
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
  for (const h of hosts.splice(0)) await h.close();
});

async function setup(hostOpts: Parameters<typeof startHost>[0] = {}, o: Partial<ConstructorParameters<typeof FaithfulAgent>[0]> = {}) {
  const h = await startHost(hostOpts);
  hosts.push(h);
  const a = new FaithfulAgent({ baseUrl: h.baseUrl, accountId: ACCOUNT, apiKey: KEY, number: NUMBERS[0]!, backoffMs: 20, ...o });
  closers.push(() => a.close());
  await a.connect();
  return { h, a };
}


describe('Agent SDK outbound calls', () => {
  it('ringing, then on answer call.outbound_ready {callId, from, to, mediaUrl} and the media', async () => {
    const { h, a } = await setup();
    // The runtime's own createCall needs the REST API (wired with the calls family); here the host places the call.
    a.placed('CA_OUT_1', '01055556666');
    const c = h.outbound('CA_OUT_1', '01055556666', ['여보세요?']);
    const ringing = await a.control.waitFor((m) => m.event === 'call.ringing');
    expect(ringing).toEqual({ event: 'call.ringing', callId: 'CA_OUT_1' });
    c.answer();
    const ready = await a.control.waitFor((m) => m.event === 'call.outbound_ready');
    expect(ready).toMatchObject({ event: 'call.outbound_ready', callId: 'CA_OUT_1', from: NUMBERS[0], to: '01055556666', mediaUrl: expect.stringMatching(/\/v1\/agent\/media\/CA_OUT_1\?token=/) });
    await until(() => a.calls.get('CA_OUT_1')?.media !== undefined);
    const media = a.calls.get('CA_OUT_1')!.media!;
    await media.started;
    expect(media.callId).toBe('CA_OUT_1');
    media.drop();
  });

  it('an unanswered call gets only call.ended with its status and duration 0', async () => {
    const { h, a } = await setup();
    const c = h.outbound('CA_OUT_2', '01055556666', []);
    await a.control.waitFor((m) => m.event === 'call.ringing');
    c.fail('no-answer');
    const ended = await a.control.waitFor((m) => m.event === 'call.ended');
    expect(ended).toEqual({ event: 'call.ended', callId: 'CA_OUT_2', status: 'no-answer', duration: 0 });
    expect(a.control.log.received.map((m) => m.event)).toEqual(['call.ringing', 'call.ended']);
  });

  it('a call.outbound_ready the process did not place gets session_failed UnknownOutboundCall: the call ends at once', async () => {
    const { h, a } = await setup();
    const c = h.outbound('CA_OUT_3', '01055556666', []);
    c.answer();
    await a.control.waitFor((m) => m.event === 'call.ended');
    expect(h.calls.get('CA_OUT_3')).toMatchObject({ endedBy: 'app_error', detail: expect.stringMatching(/^AGENT_SESSION_INIT_FAILED: UnknownOutboundCall/) });
  });
});

describe('Agent SDK transfers over the control socket', () => {
  it('started (media closed in terminate mode), connected, completed with requestId and transfer {status, duration}; then the call ends', async () => {
    const { h, a } = await setup();
    const callId = h.inbound(['x']);
    const call = await a.nextCall();
    await call.media!.started;
    const result = a.transfer(callId, { to: '01077778888', mode: 'warm', whisper: '고객 연결합니다', context: { orderId: 7 }, timeout: 20 });
    await until(() => h.calls.get(callId)!.legs.length === 1);
    const leg = h.calls.get(callId)!.legs[0]!;
    expect(leg.request).toMatchObject({ to: '01077778888', mode: 'warm', whisper: '고객 연결합니다', context: '{"orderId":7}', timeout: 20, afterTransfer: 'terminate', holdMedia: 'ringback' });
    const closed = await call.media!.closed;
    expect(closed.code).toBe(1000); // the platform closed the media when the transfer began
    expect(call.media!.log.received.at(-1)).toMatchObject({ event: 'stop' });
    leg.progress({ phase: 'connected' });
    leg.progress({ phase: 'ended', status: 'completed', duration: 42, connected: true });
    expect(await result).toEqual({ status: 'completed', duration: 42 });
    const events = a.control.log.received.filter((m) => String(m.event).startsWith('call.transfer'));
    const requestId = (a.control.log.sent.find((m) => m.event === 'call.transfer')!.transfer as { requestId: string }).requestId;
    expect(events).toEqual([
      { event: 'call.transfer.started', callId, requestId },
      { event: 'call.transfer.connected', callId, requestId },
      { event: 'call.transfer.completed', callId, requestId, transfer: { status: 'completed', duration: 42 } },
    ]);
    expect((await call.ended).status).toBe('completed');
    expect(h.calls.get(callId)!.endedBy).toBe('party');
  });

  it('a refused transfer (e.g. UNOWNED_CALLER_ID) fails at once and the call stays with the agent', async () => {
    const { h, a } = await setup({ transferRefusal: { status: 'failed', reason: 'UNOWNED_CALLER_ID' } });
    const callId = h.inbound(['x']);
    const call = await a.nextCall();
    await call.media!.started;
    expect(await a.transfer(callId, { to: '01077778888', callerId: '01012341234' })).toEqual({ status: 'failed', duration: 0, reason: 'UNOWNED_CALLER_ID' });
    expect(call.media!.open).toBe(true);
    expect(h.calls.get(callId)!.endedAt).toBeUndefined();
    call.media!.drop();
  });

  it('a transfer with a bad field fails naming it; a failed leg in terminate mode says failureMessage, then hangs up', async () => {
    const { h, a } = await setup();
    const callId = h.inbound(['x']);
    const call = await a.nextCall();
    await call.media!.started;
    expect(await a.transfer(callId, { to: '01077778888', timeout: 2 })).toMatchObject({ status: 'failed', reason: expect.stringContaining('transfer.timeout') });
    const pending = a.transfer(callId, { to: '01077778888', failureMessage: '연결이 어렵습니다. 다시 전화 주세요.' });
    await until(() => h.calls.get(callId)!.legs.length === 1);
    const t0 = h.clock.now();
    h.calls.get(callId)!.legs[0]!.progress({ phase: 'ended', status: 'no-answer', duration: 0, connected: false });
    expect(await pending).toEqual({ status: 'no-answer', duration: 0 });
    expect(h.calls.get(callId)!.endedAt).toBeUndefined(); // the message is being said
    const said = h.calls.get(callId)!.turns.find((t) => t.text === '연결이 어렵습니다. 다시 전화 주세요.')!;
    expect(said.speaker).toBe('agent');
    h.clock.advanceTo(t0 + (said.endMs - said.startMs));
    expect(h.calls.get(callId)!.endedBy).toBe('agent');
  });
});

describe('Agent SDK bad input', () => {
  it('ignores malformed media messages with a journal warning, refuses oversized ones with 1009, and never crashes', async () => {
    const { h, a } = await setup();
    const callId = h.inbound(['x']);
    const call = await a.nextCall();
    await call.media!.started;
    const raw = (call.media as unknown as { ws: { send(t: string): void } }).ws;
    raw.send('{nope');
    raw.send(JSON.stringify({ event: 'media', media: { payload: '***' } }));
    raw.send(JSON.stringify({ event: 'wave' }));
    await until(() => h.model.journal.list({ callId }).length === 3);
    expect(h.model.journal.list({ callId }).map((e) => e.message)).toEqual([
      'media message ignored: not JSON',
      'media message ignored: media.payload is not valid base64',
      'media message ignored: unknown event "wave"',
    ]);
    raw.send('x'.repeat(200_000));
    const closed = await call.media!.closed;
    expect(closed.code).toBe(1009);
    // The agent broke the protocol: the call ends as the app's failure.
    await call.ended;
    expect(h.calls.get(callId)!.endedBy).toBe('app_error');
  });

  it('a callId that is not the connection\'s gets an error event; another account\'s call is untouched', async () => {
    const { h, a } = await setup();
    const callId = h.inbound(['x'], NUMBERS[1]); // a call for the other number, no agent there
    a.control.send({ event: 'call.session_failed', callId, reason: 'X', message: 'y' });
    const error = await a.control.waitFor((m) => m.event === 'error');
    expect(error).toEqual({ event: 'error', code: 'CALL_NOT_FOUND', message: `call ${callId} is not a call of this connection`, callId });
    expect(h.calls.get(callId)!.endedAt).toBeUndefined();
  });

  it('media for a finished call is refused (its token went with the call: 401); a second call.accept is ignored with a warning', async () => {
    const { h } = await setup({}, {});
    const t = { socketBase: h.baseUrl.replace('http', 'ws'), accountId: ACCOUNT, apiKey: KEY };
    const { client } = await ControlClient.connect(t, NUMBERS[1]!);
    closers.push(async () => void (await client.channel.close()));
    const callId = h.inbound(['x'], NUMBERS[1]);
    const incoming = await client.channel.take({ event: 'call.incoming' }, 2000);
    const url = String(('message' in incoming && incoming.message.mediaUrl) || '');
    client.send({ event: 'call.accept', callId });
    client.send({ event: 'call.accept', callId });
    await until(() => h.model.journal.list({ callId }).length === 1);
    expect(h.model.journal.list({ callId })[0]!.message).toBe(`a second call.accept for call ${callId} was ignored`);
    h.model.calls.stuck(callId); // not waiting long: end it as the timer would
    h.clock.advanceTo(h.clock.now() + 30_000);
    const { open } = await MediaClient.open(url, KEY);
    expect(open).toMatchObject({ open: false, status: 401 }); // the token went with the call
  });
});
