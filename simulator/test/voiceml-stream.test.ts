// VoiceML <Connect><Stream> (docs/decisions.md "VoiceML"): the simulator opens a real WebSocket to a server on
// 127.0.0.1 and sends the documented message sequence (connected, start, 20 ms μ-law media
// frames for the phone's speakSeconds, one dtmf per key, stop), then the call goes on with the
// next verb once the stream's length has passed on the virtual clock. A stream that cannot open
// (egress refusal, refused connection, failed handshake, no answer within the deadline) ends the
// call with app_error from the app.
import { afterEach, describe, expect, it } from 'vitest';
import { harness } from './helpers.ts';
import { voiceSteps } from './voice-steps.ts';
import { closeAllReceivers, startReceiver, type Behaviour } from './receivers.ts';
import { startWsServer, type WsBehaviour, type WsServer } from './ws-server.ts';
import { runtimeOf } from '../internal.ts';
import { frameAudio, muLaw } from '../resources/calls/voiceml/media-stream.ts';

const servers: WsServer[] = [];
afterEach(async () => {
  await closeAllReceivers();
  for (const s of servers.splice(0)) await s.close();
});

async function ws(b: WsBehaviour = {}) {
  const s = await startWsServer(b);
  servers.push(s);
  return s;
}

const xml = (body: string): Behaviour => ({ status: 200, body: `<Response>${body}</Response>`, headers: { 'content-type': 'application/xml' } });

async function app(docs: Record<string, (fields: Record<string, string>) => Behaviour>) {
  const requests: Record<string, string>[] = [];
  const r = await startReceiver((_, req): Behaviour => {
    const path = req.path.split('?')[0]!;
    requests.push({ path, ...req.fields });
    const d = docs[path];
    return d ? d(req.fields) : { status: 404 };
  }, '/');
  return { at: (p: string) => `${r.origin}${p}`, requests };
}

function sim(seed?: number) {
  const h = harness(seed === undefined ? {} : { seed });
  const steps = voiceSteps(h);
  const walk = async (id: string) => (await h.sim.control.request<any>('GET', `/calls/${id}`)).walk;
  const phone = async (n: string) => (await h.sim.control.request<any>('GET', `/carrier/phones/${n}`)).calls[0];
  return { ...h, ...steps, walk, phone };
}

/** Places a call whose document streams to `wsUrl` then says "after"; returns the call id. */
async function streamCall(h: ReturnType<typeof sim>, number: string, wsUrl: string, script: Record<string, unknown> = {}, tail = '<Say>after</Say>') {
  const a = await app({ '/start': () => xml(`<Connect><Stream url="${wsUrl}" name="agent"/></Connect>${tail}`) });
  await h.script({ number, ...script });
  const id = await h.placeVoiceMl(number, a.at('/start'));
  return { id, a };
}

describe('VoiceML <Connect><Stream>', () => {
  it('sends connected, start, 50 frames per second of the phone talking, one dtmf per key, stop; then the next verb runs', async () => {
    const h = sim();
    const server = await ws({ onMessage: (_, peer, i) => i === 2 && peer.send(JSON.stringify({ event: 'mark', mark: { name: 'm1' } })) });
    const { id } = await streamCall(h, '010-8600-0001', server.url, { speakSeconds: 2, keys: ['12'] });
    await h.advance(60);
    expect(server.connections).toHaveLength(1);
    const msgs = server.connections[0]!.map((t) => JSON.parse(t));
    expect(msgs.map((m) => m.event)).toEqual(['connected', 'start', ...Array(100).fill('media'), 'dtmf', 'dtmf', 'stop']);
    expect(server.closedByClient[0]).toBe(true);
    const [connected, start] = msgs;
    expect(connected).toEqual({ event: 'connected', protocol: 'Call', version: '1.0.0' });
    const sid = start.streamSid;
    expect(sid).toMatch(/^MZ[0-9a-f]{32}$/);
    expect(start).toMatchObject({ sequenceNumber: '1', start: { streamSid: sid, callId: id, from: '07012340001', name: 'agent', tracks: ['inbound'], customParameters: {}, mediaFormat: { encoding: 'audio/x-mulaw', sampleRate: 8000, channels: 1 } } });
    msgs.slice(1).forEach((m, i) => expect(m.sequenceNumber).toBe(String(i + 1)));
    msgs.slice(2, 102).forEach((m, i) => {
      expect(m).toMatchObject({ streamSid: sid, media: { track: 'inbound', chunk: String(i + 1), timestamp: String(i * 20) } });
      expect(Buffer.from(m.media.payload, 'base64')).toEqual(frameAudio(i));
    });
    expect(msgs.slice(102, 104).map((m) => m.dtmf.digit)).toEqual(['1', '2']);
    expect(msgs[104]).toMatchObject({ event: 'stop', streamSid: sid, stop: { callId: id } });
    // The call went on with <Say> after the 2 s stream: 2 s + 1 s of speech ("after").
    const call = await h.get(id);
    expect(call).toMatchObject({ status: 'completed', duration: 3, hangupCause: 'normal_clearing' });
    expect((await h.phone('010-8600-0001')).texts).toEqual(['after']);
    const walk = await h.walk(id);
    expect(walk.steps.map((s: any) => s.type)).toEqual(['fetch', 'connect', 'say']);
    expect(walk.steps[1]).toMatchObject({ action: `media stream to ${server.url}/`, result: 'streamed 100 media frames' });
  });

  it('the same seed gives the same stream; the audio is a μ-law 440 Hz tone', async () => {
    const run = async () => {
      const h = sim(7);
      const server = await ws();
      await streamCall(h, '010-8600-0002', server.url);
      await h.advance(60);
      // The URL's port differs between runs; everything the app receives is the same.
      return server.connections[0]!;
    };
    const first = await run();
    expect(first).toHaveLength(2 + 150 + 1); // default speakSeconds 3: 150 frames, no keys
    expect(await run()).toEqual(first);
    expect(muLaw(0)).toBe(0xff);
    expect(muLaw(32767)).toBe(0x80);
    expect(muLaw(-32768)).toBe(0x00);
    expect(frameAudio(0)[0]).toBe(0xff); // sin(0): silence
  });

  it('a <Connect action> gets the StreamSid once the stream is over and its answer runs', async () => {
    const h = sim();
    const server = await ws();
    const a = await app({
      '/start': () => xml(`<Connect action="/after"><Stream url="${server.url}/media"/></Connect><Say>never</Say>`),
      '/after': () => xml('<Say>done</Say>'),
    });
    await h.script({ number: '010-8600-0003', speakSeconds: 1 });
    const id = await h.placeVoiceMl('010-8600-0003', a.at('/start'));
    await h.advance(60);
    const sid = JSON.parse(server.connections[0]![1]!).streamSid;
    expect(a.requests.map((r) => r.path)).toEqual(['/start', '/after']);
    expect(a.requests[1]).toMatchObject({ CallId: id, StreamSid: sid });
    expect((await h.phone('010-8600-0003')).texts).toEqual(['done']);
  });

  it('the app answering and closing the socket itself does not stop the call: it goes on after the stream', async () => {
    const h = sim();
    const server = await ws({ onMessage: (_, peer, i) => { peer.send(JSON.stringify({ event: 'mark', mark: { name: String(i) } })); if (i === 1) peer.close(); } });
    const { id } = await streamCall(h, '010-8600-0004', server.url, { speakSeconds: 10 });
    await h.advance(60);
    expect(await h.get(id)).toMatchObject({ status: 'completed', hangupCause: 'normal_clearing' });
    const walk = await h.walk(id);
    expect(walk.steps.map((s: any) => s.type)).toEqual(['fetch', 'connect', 'say']);
    expect(walk.steps[1].result).toMatch(/^streamed \d+ media frames/);
  });

  const failures: [string, () => Promise<string>, RegExp][] = [
    ['a refused connection', async () => { const s = await ws(); await s.close(); servers.splice(servers.indexOf(s), 1); return s.url; }, /could not open a WebSocket/],
    ['a handshake answered 400', async () => (await ws({ handshake: 'refuse' })).url, /could not open a WebSocket/],
    ['a server that never answers the handshake', async () => (await ws({ handshake: 'hang' })).url, /did not accept the WebSocket within 300 ms/],
  ];
  it.each(failures)('%s ends the call with app_error from the app', async (_, url, reason) => {
    const h = sim();
    runtimeOf(h.sim).calls.streams.timeoutMs = 300;
    const { id } = await streamCall(h, '010-8600-0005', await url());
    await h.advance(60);
    expect(await h.get(id)).toMatchObject({ status: 'completed', hangupCause: 'app_error', hangupSource: 'app' });
    const walk = await h.walk(id);
    expect(walk.status).toBe('abandoned');
    expect(walk.steps.at(-1)).toMatchObject({ type: 'connect' });
    expect(walk.steps.at(-1).result).toMatch(reason);
    expect((await h.phone('010-8600-0005')).texts).toEqual([]);
  });

  it('under strict egress a stream to a loopback address is refused without connecting: app_error', async () => {
    const h = sim();
    const server = await ws();
    const a = await app({ '/start': () => xml(`<Say>${'Please hold. '.repeat(5)}</Say><Connect><Stream url="${server.url}"/></Connect>`) });
    await h.script({ number: '010-8600-0006' });
    const id = await h.placeVoiceMl('010-8600-0006', a.at('/start'));
    for (let i = 0; i < 20 && a.requests.length === 0; i++) await h.advance(1); // the document fetched, the speech playing
    await h.sim.control.request('PUT', '/egress', { strict: true });
    await h.advance(60);
    expect(server.connections).toHaveLength(0);
    expect(await h.get(id)).toMatchObject({ status: 'completed', hangupCause: 'app_error', hangupSource: 'app' });
    expect((await h.walk(id)).steps.at(-1).result).toContain('egress policy');
  });

  it('under strict egress a name the fake DNS resolves to loopback is refused at the connection: app_error', async () => {
    const h = sim();
    const server = await ws();
    const a = await app({ '/start': () => xml(`<Say>${'Please hold. '.repeat(5)}</Say><Connect><Stream url="ws://media.example.com:${new URL(server.url).port}/"/></Connect>`) });
    await h.sim.control.request('PUT', '/dns/records/media.example.com', { records: [{ type: 'A', value: '127.0.0.1' }] });
    await h.script({ number: '010-8600-0009' });
    const id = await h.placeVoiceMl('010-8600-0009', a.at('/start'));
    for (let i = 0; i < 20 && a.requests.length === 0; i++) await h.advance(1);
    await h.sim.control.request('PUT', '/egress', { strict: true });
    await h.advance(60);
    expect(server.connections).toHaveLength(0);
    expect(await h.get(id)).toMatchObject({ status: 'completed', hangupCause: 'app_error', hangupSource: 'app' });
    expect((await h.walk(id)).steps.at(-1).result).toContain('could not open a WebSocket');
  });

  it('without strict egress the same name reaches the server (the refusal above is the policy, not the name)', async () => {
    const h = sim();
    const server = await ws();
    const { id } = await streamCall(h, '010-8600-0010', `ws://media.example.com:${new URL(server.url).port}/`, { speakSeconds: 1 });
    await h.sim.control.request('PUT', '/dns/records/media.example.com', { records: [{ type: 'A', value: '127.0.0.1' }] });
    await h.advance(60);
    expect(server.connections).toHaveLength(1);
    expect(await h.get(id)).toMatchObject({ status: 'completed', hangupCause: 'normal_clearing' });
  });

  it.each([
    ['no Stream', '<Connect/>'],
    ['a Stream without url', '<Connect><Stream/></Connect>'],
    ['an http url', '<Connect><Stream url="http://127.0.0.1:9/media"/></Connect>'],
    ['an unknown Stream attribute', '<Connect><Stream url="ws://127.0.0.1:9/" track="both_tracks"/></Connect>'],
    ['nested Parameter (not supported)', '<Connect><Stream url="ws://127.0.0.1:9/"><Parameter name="a" value="b"/></Stream></Connect>'],
  ])('%s is an application error before any connection', async (_, doc) => {
    const h = sim();
    const a = await app({ '/start': () => xml(doc) });
    await h.script({ number: '010-8600-0007' });
    const id = await h.placeVoiceMl('010-8600-0007', a.at('/start'));
    await h.advance(30);
    expect(await h.get(id)).toMatchObject({ status: 'completed', hangupCause: 'app_error', hangupSource: 'app' });
    expect((await h.walk(id)).steps.at(-1).result).toContain('app_error');
  });

  it('a snapshot taken while the stream plays restores and the call goes on the same way', async () => {
    const h = sim();
    const server = await ws();
    const { id } = await streamCall(h, '010-8600-0008', server.url, { speakSeconds: 4 });
    for (let i = 0; i < 20 && server.connections.length === 0; i++) await h.advance(1); // answered, fetched, streamed (wall time)
    expect(server.connections).toHaveLength(1); // at most 1 s of the 4 s stream is over on the clock
    expect((await h.get(id)).status).toBe('in-progress');
    const snap = h.sim.snapshot();
    await h.advance(60);
    const direct = await h.get(id);
    h.sim.restore(JSON.parse(JSON.stringify(snap)));
    expect(h.sim.snapshot()).toEqual(snap);
    await h.advance(60);
    expect(await h.get(id)).toEqual(direct);
    expect(server.connections).toHaveLength(1); // restoring does not stream again
  });
});
