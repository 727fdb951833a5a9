// Agent SDK calls end to end on real sockets, with the protocol-faithful runtime as the customer's
// agent and a stand-in for the calls family (agent-sdk-harness.ts): inbound hand-over, the media
// stream's shape and pacing, the phone speaking synthesized audio, the hang-up handshake and
// `call.ended` after the media closed, the 30 s stuck timer, session_failed, media tokens, and
// the manual clock following open media. Each test has a host and an agent of its own, closed when
// it ends, so the tests run side by side (describe.concurrent): most of their time is spent
// waiting on media paced at 20 ms a frame, and those waits overlap.
import { describe, expect, it, type TestContext } from 'vitest';
import { FaithfulAgent, type AgentCall } from './agent-runtime/agent.ts';
import { ACCOUNT, KEY, NUMBERS, startHost, type Host, until } from './agent-sdk-harness.ts';
import { MediaConnection } from './agent-runtime/media.ts';
import { rms } from '../../conformance/agent/audio.ts';

/** A host and a connected agent, both closed when the test `t` ends (agent first). */
async function setup(t: TestContext, agentOpts: Partial<ConstructorParameters<typeof FaithfulAgent>[0]> = {}, hostOpts: Parameters<typeof startHost>[0] = {}) {
  const host: Host = await startHost(hostOpts);
  t.onTestFinished(() => host.close());
  const agent = new FaithfulAgent({ baseUrl: host.baseUrl, accountId: ACCOUNT, apiKey: KEY, number: NUMBERS[0]!, backoffMs: 20, ...agentOpts });
  // onTestFinished hooks run last-registered first: the agent closes before its host.
  t.onTestFinished(() => agent.close());
  await agent.connect();
  return { host, agent };
}

const tone = (ms: number) => Buffer.alloc(ms * 8, 0x9a);

describe.concurrent('Agent SDK inbound calls', () => {
  it('hands the call over with call.incoming, streams connected/start/media, and the phone answers the greeting with speech', async (t) => {
    const { host, agent } = await setup(t);
    const callId = host.inbound(['안녕하세요, 예약 확인하려고요']);
    const call: AgentCall = await agent.nextCall();
    expect(call.callId).toBe(callId);
    const incoming = call.events[0]!;
    expect(incoming).toMatchObject({ event: 'call.incoming', callId, from: '01099998888', callerIdRestricted: false });
    expect(String(incoming.mediaUrl)).toMatch(new RegExp(`^ws://127\\.0\\.0\\.1:\\d+/v1/agent/media/${callId}\\?token=[0-9a-f]{40}$`));
    const media = call.media!;
    await media.started;
    expect(media.streamId).toMatch(/^MZ[0-9a-f]{32}$/);
    expect(media.callId).toBe(callId);
    const start = media.log.received.find((m) => m.event === 'start')!;
    expect(start.start).toMatchObject({ accountId: ACCOUNT, tracks: ['inbound'], mediaFormat: { encoding: 'audio/x-mulaw', sampleRate: 8000, channels: 1 }, customParameters: {} });
    // The agent greets (1 s) with a mark; the echo comes once it has played.
    media.sendAudioPieces(tone(1000), 333);
    await media.mark('greeting');
    expect(media.log.frames.length).toBeGreaterThanOrEqual(50);
    // After the greeting and a short silence the phone speaks: loud frames arrive.
    await until(() => media.log.frames.slice(60).some((f) => rms(f) > 300), 8000);
    const r = await media.hangup();
    expect(r.echoed).toBe(true);
    const end = await call.ended;
    expect(end.status).toBe('completed');
    const hostCall = host.calls.get(callId)!;
    expect(hostCall.endedBy).toBe('agent');
    // call.ended came after the media socket closed, and its duration is the media's length.
    const closed = await media.closed;
    expect(closed.byServer).toBe(false);
    expect(end.duration).toBe(Math.round((hostCall.endedAt! - hostCall.answeredAt!) / 1000));
    expect(Math.abs(hostCall.endedAt! - hostCall.answeredAt! - media.log.frames.length * 20)).toBeLessThanOrEqual(20);
    // Every frame: 160 bytes, timestamps 20 ms apart from 0.
    media.log.frames.forEach((f) => expect(f.length).toBe(160));
    media.log.timestamps.forEach((t, i) => expect(t).toBe(i * 20));
    // The conversation: the agent's greeting, then the phone's line.
    expect(hostCall.turns.map((t) => [t.speaker, t.text])).toEqual([
      ['agent', null],
      ['caller', '안녕하세요, 예약 확인하려고요'],
    ]);
    // The greeting plays from the frame after it arrived (the first, unless the machine was slow)
    // for exactly its length: 1 s of audio is 50 frames on the media clock.
    expect(hostCall.turns[0]!.startMs % 20).toBe(0);
    expect(hostCall.turns[0]!.startMs).toBeLessThanOrEqual(200);
    expect(hostCall.turns[0]!.endMs - hostCall.turns[0]!.startMs).toBe(1000);
  });

  it('the manual clock follows open media: 50 frames move it one second', async (t) => {
    const { host, agent } = await setup(t);
    const t0 = host.clock.now();
    host.inbound(['hi']);
    const call = await agent.nextCall();
    await call.media!.framesReceived(50);
    const moved = host.clock.now() - t0;
    // A frame played is 20 ms of virtual time: the clock is at least at the frames received, in whole frames.
    expect(moved).toBeGreaterThanOrEqual(20 * call.media!.log.frames.length);
    expect(moved).toBeLessThan(20 * call.media!.log.frames.length + 1000);
    expect(moved % 20).toBe(0);
  });

  it('with the realtime clock, virtual time follows wall time while frames flow (the frames do not move it twice)', async (t) => {
    // Wall time is taken before the simulator exists: the clock's reading is only brought up to
    // date at syncs, so a stale t0 would count time from before a later w0.
    const w0 = performance.now();
    const { host, agent } = await setup(t, {}, { clock: 'realtime' });
    const t0 = host.clock.now();
    host.inbound(['hi']);
    const call = await agent.nextCall();
    await call.media!.framesReceived(40);
    const virtual = host.clock.now() - t0;
    const wall = performance.now() - w0;
    expect(virtual).toBeLessThanOrEqual(wall + 50);
    expect(virtual).toBeGreaterThanOrEqual(call.media!.log.frames.length * 20 - 100);
    call.media!.drop();
  });

  it('the phone hanging up (nothing left to say) sends stop, closes the media, then call.ended', async (t) => {
    const { host, agent } = await setup(t);
    const callId = host.inbound([]);
    const call = await agent.nextCall();
    call.media!.sendAudio(tone(200));
    const end = await call.ended;
    const closed = await call.media!.closed;
    expect(call.media!.log.received.at(-1)).toMatchObject({ event: 'stop', stop: { accountId: ACCOUNT, callId } });
    expect(closed.code).toBe(1000);
    expect(end).toMatchObject({ status: 'completed' });
    expect(host.calls.get(callId)!.endedBy).toBe('phone');
  });

  it('with no media socket within 30 s the call ends CALL_STUCK_MEDIA_WS_TIMEOUT', async (t) => {
    const { host, agent } = await setup(t, { mediaDelayMs: 60_000 });
    const callId = host.inbound(['x']);
    await agent.control.waitFor((m) => m.event === 'call.incoming');
    host.clock.advanceTo(host.clock.now() + 29_999);
    expect(host.calls.get(callId)!.endedAt).toBeUndefined();
    host.clock.advanceTo(host.clock.now() + 1);
    expect(host.calls.get(callId)).toMatchObject({ endedBy: 'stuck', detail: 'CALL_STUCK_MEDIA_WS_TIMEOUT' });
    const ended = await agent.control.waitFor((m) => m.event === 'call.ended');
    expect(ended).toMatchObject({ callId, status: 'failed' });
  });

  it('call.session_failed ends the call at once with AGENT_SESSION_INIT_FAILED', async (t) => {
    const { host, agent } = await setup(t, { sessionFails: () => ({ reason: 'RuntimeError', message: 'LLM down' }) });
    const callId = host.inbound(['x']);
    await agent.control.waitFor((m) => m.event === 'call.ended');
    expect(host.calls.get(callId)).toMatchObject({ endedBy: 'app_error', detail: 'AGENT_SESSION_INIT_FAILED: RuntimeError: LLM down' });
  });

  it('a media token works once and only within 30 s; a wrong account key is refused', async (t) => {
    const { host, agent } = await setup(t, { mediaDelayMs: 60_000 });
    host.inbound(['x']);
    const incoming = await agent.control.waitFor((m) => m.event === 'call.incoming');
    const url = String(incoming.mediaUrl);
    const wrongKey = new MediaConnection(url, 'sk_test_2');
    await expect(wrongKey.opened()).rejects.toMatchObject({ status: 403 });
    const unknownKey = new MediaConnection(url, 'sk_nobody');
    await expect(unknownKey.opened()).rejects.toMatchObject({ status: 401 });
    const first = new MediaConnection(url, KEY); // the refusals above did not use the token
    await first.opened();
    first.drop();
    host.inbound(['y']);
    const second = await agent.control.waitFor((m) => m.event === 'call.incoming' && m.mediaUrl !== url);
    host.clock.advanceTo(host.clock.now() + 29_000);
    const ok = new MediaConnection(String(second.mediaUrl), KEY);
    await ok.opened();
    const again = new MediaConnection(String(second.mediaUrl), KEY);
    await expect(again.opened()).rejects.toMatchObject({ status: 401 });
    ok.drop();
  });
});

describe.concurrent('Agent SDK determinism', () => {
  /** One call: the agent greets as soon as the stream starts, the phone answers, then (nothing left to say) hangs up. */
  async function oneCall(t: TestContext) {
    // The greeting goes out as soon as the media socket opens (the runtime flushes a prewarmed
    // greeting so), ahead of the stream's first frame.
    const { host, agent } = await setup(t, {
      onCall: (c) => {
        c.media!.sendAudioPieces(tone(800), 500);
        void c.media!.mark('greeting');
      },
    });
    const callId = host.inbound(['Hello, I would like to check my booking.']);
    const call = await agent.nextCall();
    const end = await call.ended;
    const hostCall = host.calls.get(callId)!;
    const wav = host.model.calls.recording(callId)!;
    return {
      end,
      length: hostCall.endedAt! - hostCall.answeredAt!,
      endedBy: hostCall.endedBy,
      turns: hostCall.turns,
      control: call.events.map((e) => ({ ...e, mediaUrl: e.mediaUrl === undefined ? undefined : String(e.mediaUrl).replace(/:\d+\//, ':PORT/') })),
      frames: call.media!.log.frames.length,
      wav,
    };
  }

  it('the same seed and the same client messages give the same records, events and recording', async (t) => {
    // Two hosts at once: neither run's records depend on the other's, or on when it ran.
    const [a, b] = await Promise.all([oneCall(t), oneCall(t)]);
    expect(b.turns).toEqual(a.turns);
    expect(b.end).toEqual(a.end);
    expect(b.length).toBe(a.length);
    expect(b.endedBy).toBe('phone');
    expect(b.control).toEqual(a.control);
    expect(b.wav.equals(a.wav)).toBe(true);
    // The recording is the call's length, and the audio the agent received is that length too (within a frame).
    expect(a.wav.length - 44).toBe((a.length / 1000) * 8000 * 2);
    expect(Math.abs(a.frames * 20 - a.length)).toBeLessThanOrEqual(20);
    // The phone's line is in the recording where the conversation says it is: loud there, quiet before.
    const caller = a.turns.find((t) => t.speaker === 'caller')!;
    const level = (fromMs: number, toMs: number) => {
      const s = new Int16Array(a.wav.buffer, a.wav.byteOffset + 44 + fromMs * 16, (toMs - fromMs) * 8);
      return Math.sqrt(s.reduce((x, v) => x + v * v, 0) / s.length);
    };
    expect(level(caller.startMs, caller.endMs)).toBeGreaterThan(500);
    expect(level(a.turns[0]!.endMs + 100, caller.startMs)).toBe(0);
  });
});
