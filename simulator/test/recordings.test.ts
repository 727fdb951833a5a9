// A call's artifacts (docs/decisions.md "Recordings, transcripts and summaries"): WAV recordings whole and per record
// block, retention and deletion, the recording webhook, transcripts and summaries on the clock
// with scripted outcomes, no_recording/no_audio, the organisation schema and the usage meters.
import { afterEach, describe, expect, it } from 'vitest';
import { ACME, BISTRO, harness } from './helpers.ts';
import { voiceSteps } from './voice-steps.ts';
import { closeAllReceivers, startReceiver } from './receivers.ts';
import type { FlowGraph } from '../resources/calls/flow-graph.ts';
import { summaryFor } from '../resources/recordings/text.ts';
import { MAX_WHOLE_SECONDS } from '../resources/recordings/wav.ts';
import { signedLink } from './signed-links.ts';

afterEach(closeAllReceivers);

/** The RIFF header read independently of the generator: format, and seconds of audio. */
function readWav(bytes: Uint8Array) {
  const b = Buffer.from(bytes);
  expect(b.toString('ascii', 0, 4)).toBe('RIFF');
  expect(b.toString('ascii', 8, 12)).toBe('WAVE');
  expect(b.readUInt32LE(4)).toBe(b.length - 8);
  const dataBytes = b.readUInt32LE(40);
  return {
    format: b.readUInt16LE(20),
    channels: b.readUInt16LE(22),
    rate: b.readUInt32LE(24),
    bits: b.readUInt16LE(34),
    seconds: dataBytes / (b.readUInt32LE(24) * b.readUInt16LE(32)),
    silent: b.subarray(44).every((x) => x === 0),
  };
}

const twoRecords: FlowGraph = {
  version: 1,
  start: 'r',
  nodes: { r: { type: 'record', prompt: 'Leave a message', maxLengthSec: 5, saveAs: 'memo', next: 'r2' }, r2: { type: 'record', playBeep: false, next: null } },
};

function sim(seed?: number) {
  const h = harness(seed === undefined ? {} : { seed });
  const { flow, script, place, advance } = voiceSteps(h);
  /** A call through two record blocks: 5 s (capped) + `speak` s, ended after two minutes. */
  const recordedCall = async (speak = 8, number = '010-6200-0001') => {
    await script({ number, speakSeconds: speak, keys: ['#', ''] });
    const id = await place(number, await flow(twoRecords));
    await advance(120);
    return id;
  };
  const usage = async (meter: string) => {
    const r = await h.call('GET', h.acme(`/usage?from=2026-03-01T00:00:00Z&to=2026-05-31T00:00:00Z&meter=${meter}&includeToday=true`));
    return r.json.totals.find((t: { meter: string }) => t.meter === meter)?.quantity ?? 0;
  };
  return { ...h, flow, script, place, recordedCall, advance, usage };
}

describe('recordings', () => {
  it('the whole-call recording and each record block\'s are WAV files of the recorded lengths, the same for the same seed', async () => {
    const h = sim();
    const hook = await startReceiver();
    await h.call('POST', h.acme('/webhooks'), { url: hook.url, events: ['recording.completed', 'callflow.ended'] });
    const id = await h.recordedCall(8);
    await h.sim.webhooks.settle();
    const base = `/v1/accounts/${ACME.accountId}/recordings/${id}`;
    const whole = await h.call('GET', base);
    expect(whole.status).toBe(200);
    expect(whole.headers['content-type']).toBe('audio/wav');
    expect(whole.headers['content-disposition']).toBe(`inline; filename="${id}.wav"`);
    expect(readWav(whole.bytes!)).toEqual({ format: 1, channels: 1, rate: 8000, bits: 16, seconds: 13, silent: false });
    expect(readWav((await h.call('GET', `${base}/verb/memo`)).bytes!).seconds).toBe(5);
    expect(readWav((await h.call('GET', `${base}/verb/r2`)).bytes!).seconds).toBe(8);
    const missing = await h.call('GET', `${base}/verb/nothing`);
    expect([missing.status, missing.json.code]).toEqual([404, 'recording_not_found']);
    // The variables, the recording webhook and the file agree on the lengths.
    const ended = hook.requests.find((r) => r.fields.Event === 'callflow.ended')!;
    expect(JSON.parse(ended.fields.Variables!)).toMatchObject({ memo_duration: '5', recording_duration: '8' });
    const rec = hook.requests.find((r) => r.fields.Event === 'recording.completed')!;
    expect(rec.fields).toMatchObject({ CallId: id, AccountId: ACME.accountId, RecordingUrl: signedLink(base), RecordingDuration: '13' });
    // Generated when read, from the seed: the same bytes again, and in another simulator with the
    // same seed and traffic; another seed gives other audio.
    expect(Buffer.from((await h.call('GET', base)).bytes!).equals(Buffer.from(whole.bytes!))).toBe(true);
    const fileOf = async (seed: number) => {
      const o = sim(seed);
      const callId = await o.recordedCall(8);
      return { callId, bytes: Buffer.from((await o.call('GET', `/v1/accounts/${ACME.accountId}/recordings/${callId}`)).bytes!) };
    };
    const [a, b, c] = [await fileOf(7), await fileOf(7), await fileOf(99)];
    expect(b.callId).toBe(a.callId);
    expect(b.bytes.equals(a.bytes)).toBe(true);
    expect(c.bytes.length).toBe(a.bytes.length);
    expect(c.bytes.equals(a.bytes)).toBe(false);
  });

  it('a live call has no whole-call recording yet; a call without record blocks has none; unknown and foreign calls are 404, another account\'s path 403', async () => {
    const h = sim();
    await h.script({ number: '010-6200-0002', speakSeconds: 40, keys: ['#', ''] });
    const id = await h.place('010-6200-0002', await h.flow(twoRecords));
    await h.advance(20); // the first block has recorded 5 s, the second records 40 s
    const base = `/v1/accounts/${ACME.accountId}/recordings/${id}`;
    expect((await h.call('GET', base)).status).toBe(404);
    expect(readWav((await h.call('GET', `${base}/verb/memo`)).bytes!).seconds).toBe(5);
    expect((await h.call('GET', `${base}/verb/r2`)).status).toBe(404);
    const plain = await h.place('010-6200-0003', await h.flow({ version: 1, start: 's', nodes: { s: { type: 'say', text: 'hi', next: null } } }));
    await h.advance(60);
    const none = await h.call('GET', `/v1/accounts/${ACME.accountId}/recordings/${plain}`);
    expect([none.status, none.json.code]).toEqual([404, 'recording_not_found']);
    expect((await h.call('GET', h.acme(`/calls/${plain}`))).json.recordingUrl).toBeNull();
    const unknown = await h.call('GET', h.acme('/recordings/CA00000000000000000000000000000000'));
    expect([unknown.status, unknown.json.code]).toEqual([404, 'call_not_found']);
    const foreign = await h.call('GET', h.bistro(`/recordings/${id}`), undefined, { key: BISTRO.key });
    expect([foreign.status, foreign.json.code]).toEqual([404, 'call_not_found']);
    expect((await h.call('GET', h.bistro(`/recordings/${id}`))).status).toBe(403);
    expect((await h.call('DELETE', h.bistro(`/recordings/${id}`), undefined, { key: BISTRO.key })).status).toBe(404);
  });

  it('kept 90 days from the call\'s end, then 404 and recordingUrl null', async () => {
    const h = sim();
    const id = await h.recordedCall(3);
    const base = `/v1/accounts/${ACME.accountId}/recordings/${id}`;
    const view = await h.sim.control.request<any>('GET', `/calls/${id}/artifacts`);
    const end = Date.parse(view.recording.endedAt);
    expect(Date.parse(view.recording.expiresAt) - end).toBe(90 * 86_400_000);
    await h.sim.clock.advance({ to: new Date(end + 90 * 86_400_000 - 1000).toISOString() });
    expect((await h.call('GET', base)).status).toBe(200);
    expect((await h.call('GET', h.acme(`/calls/${id}`))).json.recordingUrl).toEqual(signedLink(base)); // issued in March: signed
    await h.advance(1);
    for (const path of [base, `${base}/verb/memo`]) {
      const r = await h.call('GET', path);
      expect([r.status, r.json.code]).toEqual([404, 'recording_not_found']);
    }
    expect((await h.call('GET', h.acme(`/calls/${id}`))).json.recordingUrl).toBeNull();
    const t = await h.call('POST', h.acme(`/calls/${id}/transcript`));
    expect([t.status, t.json.code]).toEqual([400, 'no_recording']);
    expect((await h.call('GET', h.acme(`/calls/${id}/transcript`))).json).toEqual({ status: 'not_requested' });
  });

  it('deleteRecording: 204 every time, recordings gone, recordingUrl null; an unknown call 404', async () => {
    const h = sim();
    const id = await h.recordedCall(3);
    const base = `/v1/accounts/${ACME.accountId}/recordings/${id}`;
    expect((await h.call('DELETE', base)).status).toBe(204);
    expect((await h.call('DELETE', base)).status).toBe(204);
    expect((await h.call('GET', base)).status).toBe(404);
    expect((await h.call('GET', `${base}/verb/memo`)).status).toBe(404);
    expect((await h.call('GET', h.acme(`/calls/${id}`))).json.recordingUrl).toBeNull();
    const unknown = await h.call('DELETE', h.acme('/recordings/CAnope'));
    expect([unknown.status, unknown.json.code]).toEqual([404, 'call_not_found']);
  });
});

describe('transcripts and summaries', () => {
  it('request: pending, then completed with Korean segments covering the recording; then the summary; usage from the recording\'s length', async () => {
    const h = sim();
    const hook = await startReceiver();
    await h.call('POST', h.acme('/webhooks'), { url: hook.url, events: ['transcript.completed', 'summary.completed'] });
    const id = await h.recordedCall(8);
    const path = h.acme(`/calls/${id}/transcript`);
    expect((await h.call('GET', path)).json).toEqual({ status: 'not_requested' });
    expect((await h.call('GET', h.acme(`/calls/${id}/summary`))).json).toEqual({ status: 'not_requested' });
    const asked = await h.call('POST', path, undefined, { rawBody: '' });
    expect([asked.status, asked.json]).toEqual([202, { status: 'pending', callId: id }]);
    const pending = (await h.call('GET', path)).json;
    expect(pending).toEqual({ status: 'pending', startedAt: h.sim.clock.now() });
    const again = await h.call('POST', path);
    expect([again.status, again.json.code, again.json.status, again.json.startedAt]).toEqual([409, 'transcript_already_requested', 'pending', pending.startedAt]);
    await h.advance(10);
    const t = (await h.call('GET', path)).json;
    expect(Object.keys(t)).toEqual(['status', 'callId', 'segmentCount', 'segments']);
    expect(t.status).toBe('completed');
    expect(t.segmentCount).toBe(t.segments.length);
    expect(t.segments[0].start).toBe(0);
    expect(t.segments.at(-1).end).toBeCloseTo(13 - 0.25);
    // The clock starts in March 2026: before 2026-08, AGENT and CUSTOMER.
    expect(new Set(t.segments.map((s: { speaker: string }) => s.speaker))).toEqual(new Set(['AGENT', 'CUSTOMER']));
    for (const s of t.segments) expect(s.text).toMatch(/[가-힣]/);
    expect((await h.call('GET', path)).json).toEqual(t); // the same text every read
    expect((await h.call('GET', h.acme(`/calls/${id}/summary`))).json).toEqual({ status: 'pending' });
    await h.advance(10);
    const s = (await h.call('GET', h.acme(`/calls/${id}/summary`))).json;
    expect(s).toMatchObject({ status: 'completed', callId: id, promptVersion: 'default:v1', schemaVersion: 'default:v1', updatedAt: h.sim.clock.now() });
    expect(Object.keys(s.resultJson)).toEqual(['coreSummary', 'decisions', 'followUps', 'sentiment']);
    expect((await h.call('POST', path)).json).toMatchObject({ code: 'transcript_already_requested', status: 'completed' });
    expect(await h.usage('transcription_seconds')).toBe(13);
    expect(await h.usage('summary_seconds')).toBe(13);
    await h.sim.webhooks.settle();
    expect(hook.requests.map((r) => r.fields.Event)).toEqual(['transcript.completed', 'summary.completed']);
    expect(hook.requests[0]!.fields.SegmentCount).toBe(String(t.segments.length)); // counted without making the text
  });

  it('speaker_0.. for calls from 2026-08 on', async () => {
    const h = sim();
    await h.sim.clock.advance({ to: '2026-08-01T00:00:00Z' });
    const id = await h.recordedCall(30);
    await h.call('POST', h.acme(`/calls/${id}/transcript`));
    await h.advance(10);
    const t = (await h.call('GET', h.acme(`/calls/${id}/transcript`))).json;
    expect(new Set(t.segments.map((s: { speaker: string }) => s.speaker))).toEqual(new Set(['speaker_0', 'speaker_1']));
  });

  it('one more speaker per transfer party: a call that dialed a number that answered has speaker_0..2', async () => {
    const h = sim();
    await h.sim.clock.advance({ to: '2026-08-01T00:00:00Z' });
    await h.script({ number: '010-6300-0009', delaySeconds: 2, hangupAfterSeconds: 20 });
    await h.script({ number: '010-6300-0001', speakSeconds: 20, keys: ['#'] });
    const graph: FlowGraph = {
      version: 1,
      start: 'r',
      nodes: {
        r: { type: 'record', prompt: 'Leave a message', maxLengthSec: 30, next: 'd' },
        d: { type: 'dial', target: { kind: 'number', value: '010-6300-0009' }, timeoutSec: 20, next: null },
      },
    };
    const id = await h.place('010-6300-0001', await h.flow(graph));
    await h.advance(180);
    expect((await h.call('GET', h.acme(`/calls/${id}`))).json).toMatchObject({ transferStatus: 'completed' });
    await h.call('POST', h.acme(`/calls/${id}/transcript`));
    await h.advance(10);
    const t = (await h.call('GET', h.acme(`/calls/${id}/transcript`))).json;
    expect(t.status).toBe('completed');
    expect(new Set(t.segments.map((s: { speaker: string }) => s.speaker))).toEqual(new Set(['speaker_0', 'speaker_1', 'speaker_2']));
  });

  it('speakSeconds 0: an empty recording, no_audio on every retry, then 409 after the third; no usage', async () => {
    const h = sim();
    const hook = await startReceiver();
    await h.call('POST', h.acme('/webhooks'), { url: hook.url, events: ['callflow.ended'] });
    const id = await h.recordedCall(0);
    await h.sim.webhooks.settle();
    expect(JSON.parse(hook.requests[0]!.fields.Variables!)).toMatchObject({ memo_duration: '0', recording_duration: '0' });
    const wav = readWav((await h.call('GET', h.acme(`/recordings/${id}`))).bytes!);
    expect(wav.seconds).toBe(0);
    const path = h.acme(`/calls/${id}/transcript`);
    for (let i = 0; i < 3; i++) {
      expect((await h.call('POST', path)).status).toBe(202);
      await h.advance(10);
      expect((await h.call('GET', path)).json).toEqual({ status: 'failed', stage: 'audio', error: 'no_audio' });
      expect((await h.call('GET', h.acme(`/calls/${id}/summary`))).json).toEqual({ status: 'not_requested' });
    }
    const limit = await h.call('POST', path);
    expect(limit.json).toMatchObject({ code: 'transcript_retry_limit', status: 'failed', stage: 'audio', error: 'no_audio' });
    expect(limit.status).toBe(409);
    expect(await h.usage('transcription_seconds')).toBe(0);
  });

  it('scripted: a transcript fails once at a stage and takes 30 s, then succeeds; a summary fails with a reason code', async () => {
    const h = sim();
    const id = await h.recordedCall(4);
    const set = await h.sim.control.request<any>('POST', `/calls/${id}/artifacts`, { transcript: { failAt: 'transcription', failTimes: 1, seconds: 30 }, summary: { failedReason: 'summary_failed' } });
    expect(set).toEqual({ id, transcript: { failAt: 'transcription', failTimes: 1, seconds: 30 }, summary: { failedReason: 'summary_failed', seconds: 10 } });
    const path = h.acme(`/calls/${id}/transcript`);
    await h.call('POST', path);
    await h.advance(29);
    expect((await h.call('GET', path)).json.status).toBe('pending');
    await h.advance(1);
    expect((await h.call('GET', path)).json).toEqual({ status: 'failed', stage: 'transcription', error: 'transcription_failed' });
    expect((await h.call('POST', path)).status).toBe(202);
    await h.advance(30);
    expect((await h.call('GET', path)).json.status).toBe('completed');
    await h.advance(10);
    expect((await h.call('GET', h.acme(`/calls/${id}/summary`))).json).toEqual({ status: 'failed', failedReason: 'summary_failed' });
    expect(await h.usage('transcription_seconds')).toBe(8); // 4 s in each block
    expect(await h.usage('summary_seconds')).toBe(0);
  });

  it('an organisation schema: resultJson follows it, versions org:{accountId}:{hash}; auto-transcription; no_recording', async () => {
    const h = sim();
    const schema = { type: 'object', properties: { intent: { type: 'string', enum: ['book', 'cancel'] }, callback: { type: 'boolean' }, score: { type: 'integer', minimum: 1, maximum: 5 } } };
    const set = await h.sim.control.request<any>('PUT', `/accounts/${ACME.accountId}/artifact-settings`, { autoTranscribe: true, summarySchema: schema });
    expect(set.schemaVersion).toMatch(new RegExp(`^org:${ACME.accountId}:[0-9a-f]{12}$`));
    const reordered = await h.sim.control.request<any>('PUT', `/accounts/${ACME.accountId}/artifact-settings`, { summarySchema: { properties: schema.properties, type: 'object' } });
    expect(reordered).toEqual(set);
    const id = await h.recordedCall(6);
    // recordedCall ran two minutes: transcribed 10 s after the end, summarised 10 s later.
    expect((await h.call('GET', h.acme(`/calls/${id}/transcript`))).json.status).toBe('completed');
    const s = (await h.call('GET', h.acme(`/calls/${id}/summary`))).json;
    expect(s).toMatchObject({ status: 'completed', promptVersion: set.schemaVersion, schemaVersion: set.schemaVersion });
    expect(['book', 'cancel']).toContain(s.resultJson.intent);
    expect(typeof s.resultJson.callback).toBe('boolean');
    expect(s.resultJson.score).toBeGreaterThanOrEqual(1);
    expect(s.resultJson.score).toBeLessThanOrEqual(5);
    // Auto-transcription of an answered call that recorded nothing: no_recording at once, and requesting it is a 400.
    const plain = await h.place('010-6200-0009', await h.flow({ version: 1, start: 's', nodes: { s: { type: 'say', text: 'hi', next: null } } }));
    await h.advance(60);
    expect((await h.call('GET', h.acme(`/calls/${plain}/transcript`))).json).toEqual({ status: 'failed', stage: 'download', error: 'no_recording' });
    const refused = await h.call('POST', h.acme(`/calls/${plain}/transcript`));
    expect([refused.status, refused.json.code]).toEqual([400, 'no_recording']);
    expect((await h.call('GET', h.acme(`/calls/${plain}/transcript`))).json.error).toBe('no_recording');
  });

  it('a snapshot taken while a transcript is pending restores and finishes the same way', async () => {
    const h = sim();
    const id = await h.recordedCall(7);
    await h.sim.control.request('POST', `/calls/${id}/artifacts`, { transcript: { seconds: 40 } });
    await h.call('POST', h.acme(`/calls/${id}/transcript`));
    await h.advance(20);
    const snap = h.sim.snapshot();
    await h.advance(60);
    const done = (await h.call('GET', h.acme(`/calls/${id}/transcript`))).json;
    const summary = (await h.call('GET', h.acme(`/calls/${id}/summary`))).json;
    expect(done.status).toBe('completed');
    const other = sim();
    await other.sim.restore(snap);
    expect((await other.call('GET', other.acme(`/calls/${id}/transcript`))).json.status).toBe('pending');
    await other.advance(60);
    expect((await other.call('GET', other.acme(`/calls/${id}/transcript`))).json).toEqual(done);
    expect((await other.call('GET', other.acme(`/calls/${id}/summary`))).json).toEqual(summary);
    const head = await other.call('HEAD', other.acme(`/recordings/${id}`));
    expect([head.status, head.headers['content-type'], head.text]).toEqual([200, 'audio/wav', '']);
  });

  it('bad input: unknown and foreign calls 404 on every artifact route, control routes 404/400, nothing changed', async () => {
    const h = sim();
    const id = await h.recordedCall(3);
    const before = JSON.stringify(h.sim.snapshot());
    for (const [method, p] of [['GET', 'transcript'], ['POST', 'transcript'], ['GET', 'summary']] as const) {
      const unknown = await h.call(method, h.acme(`/calls/CA0000/${p}`));
      expect([unknown.status, unknown.json.code]).toEqual([404, 'call_not_found']);
      const foreign = await h.call(method, h.bistro(`/calls/${id}/${p}`), undefined, { key: BISTRO.key });
      expect([foreign.status, foreign.json.code]).toEqual([404, 'call_not_found']);
    }
    await expect(h.sim.control.request('POST', '/calls/CA0000/artifacts', { transcript: { seconds: 5 } })).rejects.toMatchObject({ status: 404 });
    await expect(h.sim.control.request('POST', `/calls/${id}/artifacts`, { transcript: { failAt: 'nowhere' } })).rejects.toMatchObject({ status: 400 });
    await expect(h.sim.control.request('PUT', '/accounts/ACnope/artifact-settings', { autoTranscribe: true })).rejects.toMatchObject({ status: 404 });
    expect(JSON.stringify(h.sim.snapshot())).toBe(before);
    // A test event naming no real call (the webhook trigger) is delivered as usual and leaves no artifacts.
    const fake = await h.sim.control.request<any>('POST', '/webhooks/events', { accountId: ACME.accountId, type: 'callflow.ended', payload: { CallId: 'CAfake' }, resourceId: 'CAfake' });
    expect(fake.deliveries).toEqual([]);
    expect(h.sim.snapshot().models.recordings).toEqual(JSON.parse(before).models.recordings);
  });
});

describe('summary values for an organisation schema', () => {
  it('stays within bounds whatever the schema asks, the same for the same seed', () => {
    const schema = {
      type: 'object',
      properties: {
        tags: { type: 'array', items: { type: 'string', maxLength: 5 }, minItems: 1_000_000 },
        odd: { type: 'integer', minimum: 9, maximum: 2 },
        ratio: { type: ['number', 'null'], minimum: 0.5, maximum: 0.6 },
        kind: { const: 'fixed' },
        deep: { type: 'object', properties: { a: { type: 'object', properties: { b: { type: 'array', items: { type: 'boolean' } } } } } },
        nothing: { enum: [] },
      },
    };
    const v = summaryFor(schema, 7, 'CA1') as any;
    expect(v.tags.length).toBeLessThanOrEqual(20);
    for (const t of v.tags) expect([...t].length).toBeLessThanOrEqual(5);
    expect(v.odd).toBe(9);
    expect(v.ratio).toBeGreaterThanOrEqual(0.5);
    expect(v.ratio).toBeLessThanOrEqual(0.6);
    expect(v.kind).toBe('fixed');
    expect(v.deep.a.b.every((x: unknown) => typeof x === 'boolean')).toBe(true);
    expect(typeof v.nothing).toBe('string');
    expect(summaryFor(schema, 7, 'CA1')).toEqual(v);
    expect(summaryFor('not a schema', 7, 'CA1')).toEqual({ value: expect.any(String) });
  });
});

describe('a flow that records in a loop', () => {
  it('keeps the first hour in the whole-call recording, and says so everywhere', async () => {
    const h = sim();
    const hook = await startReceiver();
    await h.call('POST', h.acme('/webhooks'), { url: hook.url, events: ['recording.completed'] });
    const flowId = await h.flow({ version: 1, start: 'r', nodes: { r: { type: 'record', maxLengthSec: 600, playBeep: false, next: 'r' } } });
    await h.script({ number: '010-6200-0077', speakSeconds: 600, keys: [], hangupAfterSeconds: 5000 }); // eight recordings of 10 minutes
    const id = await h.place('010-6200-0077', flowId);
    await h.advance(5100);
    expect((await h.sim.control.request<any>('GET', `/calls/${id}/artifacts`)).recording.pieces).toHaveLength(8);
    await h.sim.webhooks.settle();
    expect(hook.requests[0]!.fields.RecordingDuration).toBe(String(MAX_WHOLE_SECONDS));
    const whole = await h.call('GET', h.acme(`/recordings/${id}`));
    expect(readWav(whole.bytes!).seconds).toBe(MAX_WHOLE_SECONDS);
    expect(readWav((await h.call('GET', h.acme(`/recordings/${id}/verb/r`))).bytes!).seconds).toBe(600);
  });
});
