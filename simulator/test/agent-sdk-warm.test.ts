// Warm transfers asked for over the Agent SDK control socket, end to end with the faithful runtime
// against the stand-in calls family (agent-sdk-harness.ts): the caller holds with the request's
// holdMedia while the target rings (in the recording, at its place), the target hears the whisper
// (a conversation turn with its text and in the recording), then the caller is bridged; warm
// transfers without a whisper bridge at the answer; blind transfers are unchanged. In return mode
// the media stays open and the phone takes no turn until the leg has ended.
import { afterEach, describe, expect, it } from 'vitest';
import { FaithfulAgent, type TransferRequest } from './agent-runtime/agent.ts';
import { ACCOUNT, KEY, NUMBERS, startHost, type Host, until } from './agent-sdk-harness.ts';
import { holdAudio } from '../resources/agent-sdk/hold-media.ts';
import { decode } from '../peers/speech/mulaw.ts';

const hosts: Host[] = [];
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
  for (const h of hosts.splice(0)) await h.close();
});

/** 16-bit samples of a WAV file (after its 44-byte header). */
const samples = (wav: Buffer) => new Int16Array(wav.buffer.slice(wav.byteOffset + 44, wav.byteOffset + wav.length));
const window = (pcm: Int16Array, fromMs: number, toMs: number) => pcm.subarray(fromMs * 8, toMs * 8);
const rms = (pcm: Int16Array) => Math.sqrt(pcm.reduce((s, v) => s + v * v, 0) / Math.max(1, pcm.length));
/** Goertzel power of one frequency, normalised by the window's length. */
function power(pcm: Int16Array, freq: number): number {
  const k = (2 * Math.cos((2 * Math.PI * freq) / 8000));
  let s1 = 0;
  let s2 = 0;
  for (const x of pcm) {
    const s = x + k * s1 - s2;
    s2 = s1;
    s1 = s;
  }
  return Math.sqrt(s1 * s1 + s2 * s2 - k * s1 * s2) / pcm.length;
}

type Turn = { speaker: string; text: string | null; startMs: number; endMs: number; detail: { events?: string[]; rule?: string } };

/** An inbound call with its media open, a transfer asked for; the leg handle, the call's turns and times. */
async function transferring(t: TransferRequest) {
  const h = await startHost();
  hosts.push(h);
  const a = new FaithfulAgent({ baseUrl: h.baseUrl, accountId: ACCOUNT, apiKey: KEY, number: NUMBERS[0]!, backoffMs: 20 });
  closers.push(() => a.close());
  await a.connect();
  const callId = h.inbound([]);
  const call = await a.nextCall();
  await call.media!.started;
  const result = a.transfer(callId, t);
  await until(() => h.calls.get(callId)!.legs.length === 1);
  await call.media!.closed; // terminate: the media closes when the transfer begins, so the clock is the test's
  const host = h.calls.get(callId)!;
  const startMs = h.clock.now() - host.answeredAt!;
  const at = (ms: number) => h.clock.advanceTo(host.answeredAt! + ms);
  const events = (turns: Turn[]) => turns.flatMap((x) => (x.detail.events ?? []).map((e) => `${x.startMs - startMs}:${e}`));
  return { h, a, callId, call, result, leg: host.legs[0]!, host, startMs, at, events, turns: () => host.turns as Turn[] };
}

describe('Agent SDK warm transfers', () => {
  it('the caller holds, the answering target hears the whisper (a turn with its text, in the recording), then the caller is bridged', async () => {
    const whisper = '고객님 연결합니다. 주문 배송 문의입니다.';
    const x = await transferring({ to: '01077778888', mode: 'warm', whisper, holdMedia: 'silence', timeout: 20 });
    x.at(x.startMs + 3000);
    x.leg.progress({ phase: 'connected' });
    const whisperMs = x.h.synth.speak(whisper).audio.length / 8;
    expect(whisperMs).toBeGreaterThan(1000);
    const said = x.turns().find((t) => t.detail.events?.includes('whisper'))!;
    expect(said).toMatchObject({ speaker: 'agent', text: whisper, startMs: x.startMs + 3000, endMs: x.startMs + 3000 + whisperMs });
    expect(x.events(x.turns())).toEqual(['0:transfer:01077778888', '0:hold', '3000:whisper']);
    x.at(x.startMs + 3000 + whisperMs);
    expect(x.events(x.turns())).toEqual(['0:transfer:01077778888', '0:hold', '3000:whisper', `${3000 + whisperMs}:bridged`]);
    x.at(x.startMs + 10_000);
    x.leg.progress({ phase: 'ended', status: 'completed', duration: 7, connected: true });
    expect(await x.result).toEqual({ status: 'completed', duration: 7 });
    // The agent's events are the blind transfer's: started, connected (the target answered), completed.
    expect(x.a.control.log.received.filter((m) => String(m.event).startsWith('call.transfer')).map((m) => m.event)).toEqual(['call.transfer.started', 'call.transfer.connected', 'call.transfer.completed']);
    await x.call.ended;
    // The inspector's view of the request says how it was asked for.
    expect(x.h.model.calls.calls.get(x.callId)!.transfers).toEqual([{ requestId: expect.any(String), to: '01077778888', how: 'warm, terminate, hold silence, whisper', status: 'completed' }]);
    const pcm = samples(x.h.model.calls.recording(x.callId)!);
    expect(rms(window(pcm, x.startMs + 100, x.startMs + 2900))).toBeLessThan(50); // on hold in silence while the target rings
    expect(rms(window(pcm, x.startMs + 3000, x.startMs + 3000 + whisperMs))).toBeGreaterThan(300); // the whisper
    expect(rms(window(pcm, x.startMs + 3100 + whisperMs, x.startMs + 9900))).toBeLessThan(50); // bridged: the target's side is not simulated
  });

  it('ringback: the caller hears 440 + 480 Hz, 1 s on and 2 s off, from the request until the bridge', async () => {
    const x = await transferring({ to: '01077778888', mode: 'warm', holdMedia: 'ringback' });
    x.at(x.startMs + 4500);
    x.leg.progress({ phase: 'connected' }); // no whisper: bridged at the answer
    expect(x.events(x.turns())).toEqual(['0:transfer:01077778888', '0:hold', '4500:bridged']);
    x.at(x.startMs + 6000);
    x.leg.progress({ phase: 'ended', status: 'completed', duration: 1, connected: true });
    await x.call.ended;
    const pcm = samples(x.h.model.calls.recording(x.callId)!);
    const on = window(pcm, x.startMs + 100, x.startMs + 900);
    const off = window(pcm, x.startMs + 1100, x.startMs + 2900);
    expect(power(on, 440)).toBeGreaterThan(1000);
    expect(power(on, 480)).toBeGreaterThan(1000);
    expect(power(on, 1000)).toBeLessThan(100);
    expect(rms(off)).toBeLessThan(50);
    expect(power(window(pcm, x.startMs + 3100, x.startMs + 3900), 440)).toBeGreaterThan(1000); // the second ring
    expect(rms(window(pcm, x.startMs + 4600, x.startMs + 5900))).toBeLessThan(50); // bridged: the hold is over
    // The recording's hold is the generator's audio from the request's frame on.
    const from = Math.round(x.startMs / 20) * 160;
    expect([...pcm.subarray(from, from + 8000)]).toEqual([...decode(holdAudio('ringback', 50))]);
  });

  it('moh: a tune while the target rings; a leg that fails ends the hold with no bridge and the call ends with it', async () => {
    const x = await transferring({ to: '01077778888', mode: 'warm', whisper: 'never heard', holdMedia: 'moh', timeout: 5 });
    x.at(x.startMs + 5000);
    x.leg.progress({ phase: 'ended', status: 'no-answer', duration: 0, connected: false });
    expect(await x.result).toEqual({ status: 'no-answer', duration: 0 });
    await x.call.ended;
    expect(x.events(x.turns())).toEqual(['0:transfer:01077778888', '0:hold']); // no whisper, no bridge
    const pcm = samples(x.h.model.calls.recording(x.callId)!);
    expect(pcm.length).toBe(((x.startMs + 5000) * 8));
    const first = window(pcm, x.startMs + 40, x.startMs + 360); // the first note, C5
    expect(power(first, 523.25)).toBeGreaterThan(1000);
    expect(power(first, 659.25)).toBeLessThan(power(first, 523.25) / 10);
    expect(power(window(pcm, x.startMs + 440, x.startMs + 760), 659.25)).toBeGreaterThan(1000); // then E5
  });

  it('a target that hangs up during the whisper ends the hold; the bridge never comes', async () => {
    const whisper = 'VIP 고객입니다';
    const x = await transferring({ to: '01077778888', mode: 'warm', whisper, holdMedia: 'ringback' });
    x.at(x.startMs + 1000);
    x.leg.progress({ phase: 'connected' });
    x.leg.progress({ phase: 'ended', status: 'completed', duration: 0, connected: true });
    x.at(x.startMs + 30_000); // past the whisper's end: its timer was cancelled
    expect(x.events(x.turns())).toEqual(['0:transfer:01077778888', '0:hold', '1000:whisper']);
    await x.call.ended;
  });

  it('blind transfers are unchanged: no hold, no whisper (a whisper sent with blind is ignored with a warning), a quiet line after the media closes', async () => {
    const x = await transferring({ to: '01077778888', mode: 'blind', whisper: 'ignored', holdMedia: 'moh' });
    x.at(x.startMs + 2000);
    x.leg.progress({ phase: 'connected' });
    x.at(x.startMs + 4000);
    x.leg.progress({ phase: 'ended', status: 'completed', duration: 2, connected: true });
    await x.call.ended;
    expect(x.turns().filter((t) => t.speaker === 'agent' && (t.text !== null || t.detail.events))).toEqual([]);
    expect(x.h.model.journal.list({ callId: x.callId }).map((e) => e.message)).toContain("call.transfer: whisper ignored: only a warm transfer's target hears one");
    const pcm = samples(x.h.model.calls.recording(x.callId)!);
    expect(rms(window(pcm, x.startMs + 20, x.startMs + 3900))).toBeLessThan(50);
  });

  it('return mode: the media stays open, the phone takes no turn while the leg runs, and speaks again once the caller is back', async () => {
    const h = await startHost();
    hosts.push(h);
    const a = new FaithfulAgent({ baseUrl: h.baseUrl, accountId: ACCOUNT, apiKey: KEY, number: NUMBERS[0]!, backoffMs: 20 });
    closers.push(() => a.close());
    await a.connect();
    const callId = h.inbound(['I am back.']);
    const call = await a.nextCall();
    const media = call.media!;
    await media.started;
    const result = a.transfer(callId, { to: '01077778888', mode: 'warm', afterTransfer: 'return', holdMedia: 'moh' });
    await until(() => h.calls.get(callId)!.legs.length === 1);
    const phone = h.model.calls.calls.get(callId)!.session!.phone;
    const callerTurns = () => phone.turns.filter((t) => t.speaker === 'caller');
    media.sendAudio(Buffer.alloc(300 * 8, 0x9a));
    await media.mark('while-away'); // played out: with the caller present, the phone would answer 700 ms later
    await new Promise((r) => setTimeout(r, 1500));
    expect(media.open).toBe(true);
    expect(callerTurns()).toEqual([]);
    h.calls.get(callId)!.legs[0]!.progress({ phase: 'ended', status: 'no-answer', duration: 0, connected: false });
    expect(await result).toEqual({ status: 'no-answer', duration: 0 });
    await until(() => callerTurns().length === 1, 8000); // back with the agent: it speaks up
    expect(callerTurns()[0]!.text).toBe('I am back.');
    expect(h.calls.get(callId)!.endedAt).toBeUndefined();
    media.drop();
  });
});
