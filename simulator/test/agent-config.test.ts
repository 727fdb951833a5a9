// Pure rules behind the agents, voice clones and dictionaries: configuration defaults, modes and
// bounds; the model/voice shortcuts and PATCH; what a dictionary does to an utterance; what a
// clone's clip is.
import { describe, expect, it } from 'vitest';
import { configurationForCreate, configurationForUpdate, defaultConfiguration, parseConfiguration, summaryOf } from '../resources/agents/configuration.ts';
import { DEFAULT_VOICE_ID, STOCK_VOICES } from '../resources/agents/voices.ts';
import { rewriter } from '../resources/dictionaries/rewrite.ts';
import { clipFormat } from '../resources/voice-clones/clip.ts';
import { ApiError } from '../core/errors.ts';

function errorOf(f: () => unknown): { status: number; code: string; paths: string[] } {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    const err = e as ApiError;
    return { status: err.status, code: err.code, paths: ((err.extra.errors ?? []) as { path: string }[]).map((x) => x.path) };
  }
  throw new Error('accepted');
}

const cartesia = { provider: 'cartesia', model: 'sonic-3.5', voice: DEFAULT_VOICE_ID };

describe('agent configuration', () => {
  it('defaults to external_tts, gpt-realtime-2.1-mini, Cartesia sonic-3.5 with Minji, Korean, knowledge off', () => {
    const c = configurationForCreate({});
    expect(c).toEqual(defaultConfiguration());
    expect(summaryOf(c)).toEqual({ language: 'ko', model: 'gpt-realtime-2.1-mini', voice: DEFAULT_VOICE_ID, voiceProvider: 'cartesia', voiceModel: 'sonic-3.5' });
    expect(c.knowledge).toEqual({ enabled: false, topK: 5 });
    expect(STOCK_VOICES).toHaveLength(14);
  });

  it('applies the shortcuts to the defaults, never with a configuration', () => {
    const voice = STOCK_VOICES[1]!.id;
    const c = configurationForCreate({ model: 'gpt-realtime-2.1', voice: voice.toUpperCase() });
    expect(summaryOf(c)).toMatchObject({ model: 'gpt-realtime-2.1', voice });
    expect(errorOf(() => configurationForCreate({ model: 'gpt-realtime-2.1', configuration: { outputMode: 'realtime_voice' } })).paths).toEqual(['model']);
  });

  it('reads each mode, filling languages and null parts', () => {
    const rt = parseConfiguration({ outputMode: 'realtime_voice', llm: { provider: 'openai-realtime', model: 'gpt-realtime-2.1', voice: 'marin' } });
    expect(rt).toMatchObject({ stt: null, tts: null, vad: null, session: null, language: 'ko' });
    expect(summaryOf(rt)).toEqual({ language: 'ko', model: 'gpt-realtime-2.1', voice: 'marin', voiceProvider: 'openai', voiceModel: null });
    const p = parseConfiguration({
      outputMode: 'pipeline',
      language: 'en',
      knowledge: { enabled: true, topK: 3 },
      stt: { provider: 'openai', model: 'whisper-1' },
      llm: { provider: 'openai', model: 'gpt-4o-mini', temperature: 2 },
      tts: { provider: 'xai', model: 'tts-1', voice: 'eve' },
      vad: { provider: 'silero', sample_rate: 8000 },
    });
    expect(p.stt).toEqual({ provider: 'openai', model: 'whisper-1', language: 'ko' });
    expect(p.tts).toEqual({ provider: 'xai', model: 'tts-1', voice: 'eve', language: 'ko' });
    expect(p.session).toBeNull();
    expect(summaryOf(p)).toMatchObject({ model: 'gpt-4o-mini', voiceProvider: 'xai', voiceModel: 'tts-1' });
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['no outputMode', { llm: {} }, 'configuration.outputMode'],
    ['an unknown mode', { outputMode: 'psychic' }, 'configuration.outputMode'],
    ['TTS speed beyond 1.5', { outputMode: 'external_tts', llm: { provider: 'openai-realtime', model: 'gpt-realtime-2.1' }, tts: { ...cartesia, speed: 1.6 } }, 'configuration.tts.speed'],
    ['TTS volume below 0.5', { outputMode: 'external_tts', llm: { provider: 'openai-realtime', model: 'gpt-realtime-2.1' }, tts: { ...cartesia, volume: 0.4 } }, 'configuration.tts.volume'],
    ['an xAI voice with tuning', { outputMode: 'external_tts', llm: { provider: 'openai-realtime', model: 'gpt-realtime-2.1' }, tts: { provider: 'xai', model: 'tts-1', voice: 'x', speed: 1 } }, 'configuration.tts.speed'],
    ['an unknown TTS provider', { outputMode: 'external_tts', llm: { provider: 'openai-realtime', model: 'gpt-realtime-2.1' }, tts: { provider: 'acme' } }, 'configuration.tts.provider'],
    ['a realtime voice not in the list', { outputMode: 'realtime_voice', llm: { provider: 'openai-realtime', model: 'gpt-realtime-2.1', voice: 'bob' } }, 'configuration.llm.voice'],
    ['topK 11', { outputMode: 'realtime_voice', knowledge: { enabled: true, topK: 11 }, llm: { provider: 'openai-realtime', model: 'gpt-realtime-2.1', voice: 'ash' } }, 'configuration.knowledge.topK'],
    ['a pipeline LLM temperature of 2.5', { outputMode: 'pipeline', stt: { provider: 'openai', model: 'whisper-1' }, llm: { provider: 'openai', model: 'gpt-5', temperature: 2.5 }, tts: cartesia }, 'configuration.llm.temperature'],
    ['a VAD sample rate of 44100', { outputMode: 'pipeline', stt: { provider: 'openai', model: 'whisper-1' }, llm: { provider: 'openai', model: 'gpt-5' }, tts: cartesia, vad: { provider: 'silero', sample_rate: 44100 } }, 'configuration.vad.sample_rate'],
    ['a session endpointing delay of 16', { outputMode: 'pipeline', stt: { provider: 'openai', model: 'whisper-1' }, llm: { provider: 'openai', model: 'gpt-5' }, tts: cartesia, session: { max_endpointing_delay: 16 } }, 'configuration.session.max_endpointing_delay'],
    ['a part another mode has', { outputMode: 'realtime_voice', llm: { provider: 'openai-realtime', model: 'gpt-realtime-2.1', voice: 'ash' }, tts: cartesia }, 'configuration.tts'],
  ])('refuses %s, naming the field', (_, raw, path) => {
    const e = errorOf(() => parseConfiguration(raw));
    expect(e.status).toBe(400);
    expect(e.paths).toContain(path);
  });

  it('PATCH: configuration replaces the whole; model and voice only where they apply (409)', () => {
    const realtime = parseConfiguration({ outputMode: 'realtime_voice', llm: { provider: 'openai-realtime', model: 'gpt-realtime-2.1', voice: 'ash' } });
    expect(configurationForUpdate(realtime, { model: 'gpt-realtime-2.1-mini' }).llm).toEqual({ provider: 'openai-realtime', model: 'gpt-realtime-2.1-mini', voice: 'ash' });
    expect(errorOf(() => configurationForUpdate(realtime, { voice: DEFAULT_VOICE_ID }))).toMatchObject({ status: 409, code: 'agent_mode_conflict', paths: ['voice'] });
    const pipeline = parseConfiguration({ outputMode: 'pipeline', stt: { provider: 'openai', model: 'whisper-1' }, llm: { provider: 'openai', model: 'gpt-5' }, tts: cartesia });
    expect(errorOf(() => configurationForUpdate(pipeline, { model: 'gpt-realtime-2.1' }))).toMatchObject({ status: 409, paths: ['model'] });
    expect(configurationForUpdate(pipeline, { voice: STOCK_VOICES[2]!.id }).tts).toMatchObject({ voice: STOCK_VOICES[2]!.id });
    expect(configurationForUpdate(pipeline, { configuration: { outputMode: 'realtime_voice', llm: { provider: 'openai-realtime', model: 'gpt-realtime-2.1', voice: 'ash' } } })).toEqual(realtime);
  });
});

describe('dictionary rewriting', () => {
  it('replaces exact matches, longest first, in one pass', () => {
    const r = rewriter([
      { term: '클로옵스', canonical: 'ClawOps' },
      { term: '클로옵스 코리아', canonical: 'ClawOps Korea' },
      { term: 'ClawOps', canonical: 'never again' },
    ]);
    expect(r('클로옵스에 전화했어요')).toBe('ClawOps에 전화했어요');
    expect(r('클로옵스 코리아입니다')).toBe('ClawOps Korea입니다');
  });

  it('keeps Latin terms to whole words and is case-sensitive', () => {
    const r = rewriter([{ term: 'cat', canonical: 'CAT' }]);
    expect(r('cat category Cat cat.')).toBe('CAT category Cat CAT.');
  });

  it('leaves text alone without usable terms and escapes pattern characters', () => {
    expect(rewriter([])('a+b')).toBe('a+b');
    expect(rewriter([{ term: 'a+b', canonical: 'sum' }])('a+b aab')).toBe('sum aab');
  });
});

describe('voice clone clips', () => {
  const bytes = (...parts: (string | number[])[]) => new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...p].map((c) => c.charCodeAt(0)) : p)));
  it.each<[string, Uint8Array, string | undefined]>([
    ['wav', bytes('RIFF', [0, 0, 0, 0], 'WAVEfmt '), 'wav'],
    ['flac', bytes('fLaC', [0]), 'flac'],
    ['ogg', bytes('OggS', [0]), 'ogg'],
    ['webm', bytes([0x1a, 0x45, 0xdf, 0xa3, 0]), 'webm'],
    ['m4a', bytes([0, 0, 0, 0x20], 'ftypM4A '), 'm4a'],
    ['mp3 with ID3', bytes('ID3', [4]), 'mp3'],
    ['an mp3 frame', bytes([0xff, 0xfb, 0x90]), 'mp3'],
    ['a PNG', bytes([0x89], 'PNG'), undefined],
    ['nothing', new Uint8Array(0), undefined],
  ])('%s', (_, b, format) => {
    expect(clipFormat(b)).toBe(format);
  });
});
