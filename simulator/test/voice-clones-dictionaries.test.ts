// Voice clones and transcription dictionaries over HTTP: the public API document's operations,
// their refusals (naming the field, storing nothing), the clone's life on the virtual clock and
// its voice in agents, and numbers' dictionaryId checked against the account's dictionaries.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { harness, BISTRO } from './helpers.ts';
import { multipart } from './multipart.ts';

type H = ReturnType<typeof harness>;
let h: H;
beforeEach(() => {
  h = harness();
});
afterEach(async () => {
  await h.sim.close();
});

const WAV = new Uint8Array([...'RIFF\0\0\0\0WAVEfmt '].map((c) => c.charCodeAt(0)));
const upload = (parts: Parameters<typeof multipart>[2], key?: string) => multipart(h.sim, key ? h.bistro('/voice-clones') : h.acme('/voice-clones'), parts, key);

describe('voice clones', () => {
  it('cloning -> ready on the virtual clock; then an agent of this account may speak with it, another account may not', async () => {
    const c = await upload({ name: '내 목소리', consent: 'true', clip: { fileName: 'me.wav', bytes: WAV } });
    expect(c.status).toBe(201);
    expect(c.json).toMatchObject({ name: '내 목소리', description: null, status: 'cloning' });
    const early = await h.call('POST', h.acme('/agents'), { name: 'x', voice: c.json.voice });
    expect(early.status).toBe(400);
    expect(early.json.code).toBe('voice_not_ready');
    await h.sim.control.request('POST', '/clock/advance', { seconds: 30 });
    expect((await h.call('GET', h.acme('/voice-clones'))).json.data[0]).toMatchObject({ id: c.json.id, status: 'ready' });
    const voices = (await h.call('GET', h.acme('/agents/voices'))).json.data;
    expect(voices.at(-1)).toMatchObject({ id: c.json.voice, name: '내 목소리', isCustom: true });
    const mine = await h.call('POST', h.acme('/agents'), { name: 'x', voice: c.json.voice });
    expect(mine.status).toBe(201);
    const theirs = await h.call('POST', h.bistro('/agents'), { name: 'y', voice: c.json.voice }, { key: BISTRO.key });
    expect(theirs.status).toBe(403);
    expect(theirs.json.code).toBe('call_flow_voice_forbidden');
    const inUse = await h.call('DELETE', h.acme(`/voice-clones/${c.json.id}`));
    expect(inUse.status).toBe(409);
    expect(inUse.json.code).toBe('voice_clone_in_use');
    await h.call('DELETE', h.acme(`/agents/${mine.json.agentId}`));
    expect((await h.call('DELETE', h.acme(`/voice-clones/${c.json.id}`))).status).toBe(204);
    expect((await h.call('DELETE', h.acme(`/voice-clones/${c.json.id}`))).status).toBe(404);
  });

  it('call flows: another account\'s flow may not speak with the clone (403); the account\'s flow keeps it from being deleted', async () => {
    const c = await upload({ name: 'v', consent: 'true', clip: { fileName: 'me.wav', bytes: WAV } });
    await h.sim.control.request('POST', '/clock/advance', { seconds: 30 });
    const graph = { version: 1, start: 'a', voice: { provider: 'tts_paid_1', voiceId: c.json.voice }, nodes: { a: { type: 'say', text: 'hi', next: null } } };
    const theirs = await h.call('POST', h.bistro('/call-flows'), { name: 'f', graph }, { key: BISTRO.key });
    expect(theirs.status).toBe(403);
    expect(theirs.json.code).toBe('call_flow_voice_forbidden');
    const mine = await h.call('POST', h.acme('/call-flows'), { name: 'f', graph });
    expect(mine.status, mine.text).toBe(201);
    const refused = await h.call('DELETE', h.acme(`/voice-clones/${c.json.id}`));
    expect(refused.status).toBe(409);
    expect(refused.json.usedBy).toEqual([`call flow ${mine.json.callFlowId}`]);
  });

  it('a clone fails when the control plane says so', async () => {
    await h.sim.control.request('PUT', '/voice-clones/provider', { outcome: 'failed', seconds: 5 });
    const c = await upload({ name: 'n', consent: 'on', clip: { fileName: 'me.flac', bytes: 'fLaC....' } });
    await h.sim.control.request('POST', '/clock/advance', { seconds: 5 });
    expect((await h.call('GET', h.acme('/voice-clones'))).json.data[0]).toMatchObject({ id: c.json.id, status: 'failed' });
    const other = await upload({ name: 'm', consent: 'true', clip: { fileName: 'a.wav', bytes: WAV } });
    expect((await h.sim.control.request('POST', `/voice-clones/${other.json.id}/finish`, { status: 'ready' }))).toMatchObject({ status: 'ready' });
  });

  it.each<[string, Parameters<typeof multipart>[2], string]>([
    ['an empty clip', { name: 'n', consent: 'true', clip: { fileName: 'a.wav', bytes: '' } }, 'clip'],
    ['a clip that is no audio', { name: 'n', consent: 'true', clip: { fileName: 'a.wav', bytes: 'hello' } }, 'clip'],
    ['no consent', { name: 'n', clip: { fileName: 'a.wav', bytes: WAV } }, 'consent'],
    ['consent "yes"', { name: 'n', consent: 'yes', clip: { fileName: 'a.wav', bytes: WAV } }, 'consent'],
    ['a name over 60', { name: 'x'.repeat(61), consent: 'true', clip: { fileName: 'a.wav', bytes: WAV } }, 'name'],
    ['an unknown field', { name: 'n', consent: 'true', clip: { fileName: 'a.wav', bytes: WAV }, lang: 'ko' }, 'lang'],
  ])('refuses %s, storing nothing', async (_, parts, path) => {
    const r = await upload(parts);
    expect(r.status).toBe(400);
    expect(r.json.errors[0].path).toBe(path);
    expect((await h.call('GET', h.acme('/voice-clones'))).json.data).toEqual([]);
  });

  it('at most ten uploads an hour', async () => {
    for (let i = 0; i < 10; i++) expect((await upload({ name: `v${i}`, consent: 'true', clip: { fileName: 'a.wav', bytes: WAV } })).status).toBe(201);
    const r = await upload({ name: 'v10', consent: 'true', clip: { fileName: 'a.wav', bytes: WAV } });
    expect(r.status).toBe(429);
    await h.sim.control.request('POST', '/clock/advance', { seconds: 3601 });
    expect((await upload({ name: 'v11', consent: 'true', clip: { fileName: 'a.wav', bytes: WAV } })).status).toBe(201);
  });
});

describe('dictionaries', () => {
  it('the first is the default; terms unique; numbers\' dictionaryId checked and reset when deleted', async () => {
    const d1 = await h.call('POST', h.acme('/dictionaries'), { name: '우리 회사 용어' });
    expect(d1.status).toBe(201);
    expect(d1.json).toMatchObject({ name: '우리 회사 용어', isDefault: true, itemCount: 0 });
    const d2 = (await h.call('POST', h.acme('/dictionaries'), { name: '두번째' })).json;
    expect(d2.isDefault).toBe(false);
    const t = await h.call('POST', h.acme(`/dictionaries/${d2.id}/terms`), { term: '클로옵스', canonical: 'ClawOps' });
    expect(t.status).toBe(201);
    expect(t.json).toMatchObject({ term: '클로옵스', canonical: 'ClawOps', enabled: true });
    const dup = await h.call('POST', h.acme(`/dictionaries/${d2.id}/terms`), { term: '클로옵스' });
    expect(dup.status).toBe(409);
    expect(dup.json).toMatchObject({ code: 'dictionary_term_exists', itemId: t.json.id });
    expect((await h.call('PATCH', h.acme(`/dictionaries/${d2.id}/terms/${t.json.id}`), { enabled: false })).json.enabled).toBe(false);
    const detail = await h.call('GET', h.acme(`/dictionaries/${d2.id}`));
    expect(detail.json).toMatchObject({ itemCount: 1, items: [{ id: t.json.id, enabled: false }] });
    expect((await h.call('PATCH', h.acme(`/dictionaries/${d2.id}`), { isDefault: true })).json.isDefault).toBe(true);
    expect((await h.call('GET', h.acme('/dictionaries'))).json.dictionaries.map((d: { id: string }) => d.id)).toEqual([d2.id, d1.json.id]);
    const unset = await h.call('PATCH', h.acme(`/dictionaries/${d2.id}`), { isDefault: false });
    expect(unset.status).toBe(400);
    expect(unset.json.errors[0].path).toBe('isDefault');

    const n = ((await h.call('GET', h.acme('/numbers'))).json.data as { number: string; numberType: string }[]).find((x) => x.numberType === 'did')!.number;
    expect((await h.call('PUT', h.acme(`/numbers/${n}`), { dictionaryId: 'DCnope' })).status).toBe(400);
    const theirs = (await h.call('POST', h.bistro('/dictionaries'), { name: 'b' }, { key: BISTRO.key })).json.id;
    expect((await h.call('PUT', h.acme(`/numbers/${n}`), { dictionaryId: theirs })).status).toBe(400);
    expect((await h.call('PUT', h.acme(`/numbers/${n}`), { dictionaryId: d1.json.id })).json.dictionaryId).toBe(d1.json.id);
    expect((await h.call('DELETE', h.acme(`/dictionaries/${d1.json.id}`))).json).toEqual({ ok: true });
    const after = ((await h.call('GET', h.acme('/numbers'))).json.data as { number: string; dictionaryId: string | null }[]).find((x) => x.number === n)!;
    expect(after.dictionaryId).toBeNull();
    expect((await h.call('DELETE', h.acme(`/dictionaries/${d2.id}/terms/${t.json.id}`))).json).toEqual({ ok: true });
    expect((await h.call('GET', h.bistro(`/dictionaries/${d2.id}`), undefined, { key: BISTRO.key })).status).toBe(404);
  });
});
