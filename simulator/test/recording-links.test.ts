// Recording links (spec Limits): issued before 2026-07-28 they are signed links valid for 24
// hours, downloadable without the bearer header; from the cutoff on, plain paths that need it.
import { afterEach, describe, expect, it } from 'vitest';
import { ACME, harness } from './helpers.ts';
import { voiceSteps } from './voice-steps.ts';
import { closeAllReceivers, startReceiver } from './receivers.ts';
import type { FlowGraph } from '../resources/calls/flow-graph.ts';
import { signedLink } from './signed-links.ts';

afterEach(closeAllReceivers);

const twoRecords: FlowGraph = {
  version: 1,
  start: 'r',
  nodes: { r: { type: 'record', prompt: 'Leave a message', maxLengthSec: 5, saveAs: 'memo', next: 'r2' }, r2: { type: 'record', playBeep: false, next: null } },
};

function sim(seed?: number) {
  const h = harness(seed === undefined ? {} : { seed });
  const { flow, script, place, advance } = voiceSteps(h);
  const recordedCall = async (number = '010-6300-0001') => {
    await script({ number, speakSeconds: 4, keys: ['#', ''] });
    const id = await place(number, await flow(twoRecords));
    await advance(120);
    return id;
  };
  const anonymous = (url: string) => h.call('GET', url, undefined, { key: null });
  return { ...h, recordedCall, anonymous };
}

describe('recording links before 2026-07-28', () => {
  it('the call\'s recordingUrl, the block variables and RecordingUrl download without the bearer header, the same bytes', async () => {
    const h = sim();
    const hook = await startReceiver();
    await h.call('POST', h.acme('/webhooks'), { url: hook.url, events: ['recording.completed', 'callflow.ended'] });
    const id = await h.recordedCall();
    await h.sim.webhooks.settle();
    const base = `/v1/accounts/${ACME.accountId}/recordings/${id}`;
    const link = (await h.call('GET', h.acme(`/calls/${id}`))).json.recordingUrl as string;
    expect(link).toEqual(signedLink(base));
    const keyed = await h.call('GET', base);
    const signed = await h.anonymous(link);
    expect([signed.status, signed.headers['content-type']]).toEqual([200, 'audio/wav']);
    expect(Buffer.from(signed.bytes!).equals(Buffer.from(keyed.bytes!))).toBe(true);
    const vars = JSON.parse(hook.requests.find((r) => r.fields.Event === 'callflow.ended')!.fields.Variables!);
    expect(vars.memo).toEqual(signedLink(`${base}/verb/memo`));
    const memo = await h.anonymous(vars.memo);
    expect(Buffer.from(memo.bytes!).equals(Buffer.from((await h.call('GET', `${base}/verb/memo`)).bytes!))).toBe(true);
    const webhookLink = hook.requests.find((r) => r.fields.Event === 'recording.completed')!.fields.RecordingUrl!;
    expect(webhookLink).toEqual(signedLink(base));
    expect((await h.anonymous(webhookLink)).status).toBe(200);
    // The plain path still needs the key.
    const bare = await h.anonymous(base);
    expect([bare.status, bare.json.code]).toEqual([401, 'UNAUTHORIZED']);
  });

  it('valid for 24 virtual hours from issue, then 401 recording_link_expired; the path with the key still downloads', async () => {
    const h = sim();
    const id = await h.recordedCall();
    const link = (await h.call('GET', h.acme(`/calls/${id}`))).json.recordingUrl as string;
    const expires = Number(new URL(link, 'http://x').searchParams.get('expires'));
    const call = (await h.call('GET', h.acme(`/calls/${id}`))).json;
    // Issued again by each record block: 24 h after the last one started, to the second.
    const walk = await h.sim.control.request<any>('GET', `/calls/${id}`);
    const recordStart = Date.parse(walk.walk.steps.find((s: any) => s.blockId === 'r2').at);
    expect(expires * 1000 - recordStart).toBe(24 * 3600_000);
    expect(Date.parse(call.dateUpdated)).toBeLessThan(expires * 1000);
    await h.sim.clock.advance({ to: new Date(expires * 1000 - 1000).toISOString() });
    expect((await h.anonymous(link)).status).toBe(200);
    await h.sim.clock.advance({ seconds: 1 });
    const late = await h.anonymous(link);
    expect([late.status, late.json.code]).toEqual([401, 'recording_link_expired']);
    expect((await h.call('GET', link)).status).toBe(200); // the bearer header decides when sent
  });

  it('an altered link is 401 recording_link_invalid: signature, expiry, path, or expires missing', async () => {
    const h = sim();
    const id = await h.recordedCall();
    const other = await h.recordedCall('010-6300-0002');
    const link = (await h.call('GET', h.acme(`/calls/${id}`))).json.recordingUrl as string;
    const [path, query] = link.split('?') as [string, string];
    const q = new URLSearchParams(query);
    const sig = q.get('signature')!;
    const flipped = sig.slice(0, -1) + (sig.endsWith('0') ? '1' : '0');
    const cases = [
      `${path}?expires=${q.get('expires')}&signature=${flipped}`,
      `${path}?expires=${Number(q.get('expires')) + 3600}&signature=${sig}`,
      `/v1/accounts/${ACME.accountId}/recordings/${other}?${query}`,
      `${path}/verb/memo?${query}`,
      `${path}?signature=${sig}`,
    ];
    for (const url of cases) {
      const r = await h.anonymous(url);
      expect([r.status, r.json.code], url).toEqual([401, 'recording_link_invalid']);
    }
  });

  it('deterministic: the same seed and traffic give the same link; another seed another signature', async () => {
    const linkOf = async (seed: number) => {
      const h = sim(seed);
      const id = await h.recordedCall();
      return (await h.call('GET', h.acme(`/calls/${id}`))).json.recordingUrl as string;
    };
    const [a, b, c] = [await linkOf(7), await linkOf(7), await linkOf(99)];
    expect(b).toBe(a);
    expect(new URL(c, 'http://x').searchParams.get('signature')).not.toBe(new URL(a, 'http://x').searchParams.get('signature'));
  });

  it('a deleted recording: the signed link is 404 like the path', async () => {
    const h = sim();
    const id = await h.recordedCall();
    const link = (await h.call('GET', h.acme(`/calls/${id}`))).json.recordingUrl as string;
    expect((await h.call('DELETE', h.acme(`/recordings/${id}`))).status).toBe(204);
    const gone = await h.anonymous(link);
    expect([gone.status, gone.json.code]).toEqual([404, 'recording_not_found']);
  });
});

describe('recording links from 2026-07-28', () => {
  it('plain paths everywhere; without the key 401; a made-up signature is refused', async () => {
    const h = sim();
    await h.sim.clock.advance({ to: '2026-07-28T00:00:00Z' });
    const hook = await startReceiver();
    await h.call('POST', h.acme('/webhooks'), { url: hook.url, events: ['recording.completed', 'callflow.ended'] });
    const id = await h.recordedCall();
    await h.sim.webhooks.settle();
    const base = `/v1/accounts/${ACME.accountId}/recordings/${id}`;
    expect((await h.call('GET', h.acme(`/calls/${id}`))).json.recordingUrl).toBe(base);
    const vars = JSON.parse(hook.requests.find((r) => r.fields.Event === 'callflow.ended')!.fields.Variables!);
    expect(vars).toMatchObject({ memo: `${base}/verb/memo`, recording_url: `${base}/verb/r2` });
    expect(hook.requests.find((r) => r.fields.Event === 'recording.completed')!.fields.RecordingUrl).toBe(base);
    expect((await h.anonymous(base)).status).toBe(401);
    expect((await h.anonymous(`${base}?expires=9999999999&signature=${'0'.repeat(64)}`)).json.code).toBe('recording_link_invalid');
    expect((await h.call('GET', base)).status).toBe(200);
  });
});
