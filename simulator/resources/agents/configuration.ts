// The agent's configuration rules (guides "Managed agents", public API document): the defaults
// of an agent created with only a name (external_tts, gpt-realtime-2.1-mini, Cartesia sonic-3.5
// with Minji, Korean, knowledge off), the model/voice shortcuts (not with a configuration),
// PATCH replacing the configuration whole, and the fields the agent's answer derives from it.
import { ApiError, defineError, type FieldError } from '../../core/errors.ts';
import { schemaErrors } from '../../core/schema.ts';
import {
  CONFIGURATION_BRANCHES,
  CartesiaTts,
  OUTPUT_MODES,
  XaiTts,
  type AgentConfiguration,
  type OutputMode,
} from './configuration-schema.ts';
import { DEFAULT_VOICE_ID, VOICE_MODEL, VOICE_PROVIDER } from './voices.ts';

export const DEFAULT_LANGUAGE = 'ko';
export const DEFAULT_MODEL = 'gpt-realtime-2.1-mini';
export const DEFAULT_TOP_K = 5;

export const configurationErrors = {
  MODE_CONFLICT: defineError({
    code: 'agent_mode_conflict', status: 409, origin: 'reference',
    description: 'PATCH model on an agent whose LLM is not OpenAI Realtime (pipeline), or voice on one whose voice is not Cartesia (realtime_voice, xAI): change the configuration instead (reference updateAgent 409).',
  }),
};

/** What an agent created with only a name runs on. */
export function defaultConfiguration(): AgentConfiguration {
  return {
    outputMode: 'external_tts',
    language: DEFAULT_LANGUAGE,
    knowledge: { enabled: false, topK: DEFAULT_TOP_K },
    stt: null,
    llm: { provider: 'openai-realtime', model: DEFAULT_MODEL },
    tts: { provider: VOICE_PROVIDER, model: VOICE_MODEL, voice: DEFAULT_VOICE_ID, language: DEFAULT_LANGUAGE },
    vad: null,
    session: null,
  };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function fail(errors: FieldError[]): never {
  const first = errors[0]!;
  throw ApiError.validation(`configuration is invalid: ${first.path}: ${first.message}${errors.length > 1 ? ` (and ${errors.length - 1} more)` : ''}`, errors);
}

/** The TTS part checked against its provider's schema, so errors name that provider's fields. */
function ttsErrors(tts: unknown, path: string): FieldError[] {
  if (!isObject(tts)) return [{ path, message: 'must be an object with provider cartesia or xai' }];
  if (tts.provider === 'cartesia') return schemaErrors(CartesiaTts, tts, path);
  if (tts.provider === 'xai') return schemaErrors(XaiTts, tts, path);
  return [{ path: `${path}.provider`, message: 'must be one of cartesia, xai' }];
}

/** A requested configuration, checked against the branch its outputMode names, defaults filled. */
export function parseConfiguration(raw: Record<string, unknown>, path = 'configuration'): AgentConfiguration {
  const mode = raw.outputMode;
  if (mode === undefined) fail([{ path: `${path}.outputMode`, message: 'is required' }]);
  if (typeof mode !== 'string' || !(OUTPUT_MODES as readonly string[]).includes(mode)) fail([{ path: `${path}.outputMode`, message: `must be one of ${OUTPUT_MODES.join(', ')}` }]);
  const branch = CONFIGURATION_BRANCHES[mode as OutputMode];
  let errors = schemaErrors(branch, raw, path);
  if ('tts' in raw && 'tts' in branch.properties) errors = [...errors.filter((e) => !e.path.startsWith(`${path}.tts`)), ...ttsErrors(raw.tts, `${path}.tts`)];
  if (errors.length > 0) fail(errors);
  const c = raw as Record<string, Record<string, unknown> | undefined> & { language?: string };
  const language = c.language ?? DEFAULT_LANGUAGE;
  const withLanguage = (part: Record<string, unknown> | undefined) => (part === undefined ? null : { ...part, language: part.language ?? DEFAULT_LANGUAGE });
  return {
    outputMode: mode as OutputMode,
    language,
    knowledge: (c.knowledge as AgentConfiguration['knowledge'] | undefined) ?? { enabled: false, topK: DEFAULT_TOP_K },
    stt: withLanguage(c.stt) as AgentConfiguration['stt'],
    llm: { ...(c.llm as AgentConfiguration['llm']) },
    tts: withLanguage(c.tts) as AgentConfiguration['tts'],
    vad: (c.vad as AgentConfiguration['vad'] | undefined) ?? null,
    session: (c.session as AgentConfiguration['session'] | undefined) ?? null,
  };
}

/** The request fields that choose the configuration (create and update bodies). */
export interface ConfigurationRequest {
  model?: string;
  voice?: string;
  configuration?: Record<string, unknown>;
}

function shortcutsWithConfiguration(req: ConfigurationRequest): void {
  const used = (['model', 'voice'] as const).filter((k) => req[k] !== undefined);
  if (req.configuration !== undefined && used.length > 0) {
    throw ApiError.validation(`${used.join(' and ')} cannot be combined with configuration; set them inside configuration`, used.map((k) => ({ path: k, message: 'not with configuration' })));
  }
}

/** createAgent: the defaults, a whole configuration, or the defaults with the shortcuts applied. */
export function configurationForCreate(req: ConfigurationRequest): AgentConfiguration {
  shortcutsWithConfiguration(req);
  if (req.configuration !== undefined) return parseConfiguration(req.configuration);
  const c = defaultConfiguration();
  if (req.model !== undefined) c.llm = { ...c.llm, model: req.model };
  if (req.voice !== undefined) c.tts = { ...c.tts!, voice: req.voice.toLowerCase() } as AgentConfiguration['tts'];
  return c;
}

/**
 * updateAgent: a configuration replaces the stored one whole; `model` changes the realtime model
 * (409 on a pipeline agent), `voice` the Cartesia voice (409 when the voice is not Cartesia).
 */
export function configurationForUpdate(current: AgentConfiguration, req: ConfigurationRequest): AgentConfiguration {
  shortcutsWithConfiguration(req);
  if (req.configuration !== undefined) return parseConfiguration(req.configuration);
  let c = current;
  if (req.model !== undefined) {
    if (c.llm.provider !== 'openai-realtime') {
      throw configurationErrors.MODE_CONFLICT(`model applies to OpenAI Realtime agents; this agent runs ${c.outputMode} with ${c.llm.provider}: change configuration.llm instead`, { errors: [{ path: 'model', message: 'not in this mode' }] });
    }
    c = { ...c, llm: { ...c.llm, model: req.model } };
  }
  if (req.voice !== undefined) {
    if (c.tts?.provider !== 'cartesia') {
      throw configurationErrors.MODE_CONFLICT(`voice applies to agents speaking through Cartesia; this agent's voice is ${c.tts?.provider ?? 'the model\'s own'}: change configuration instead`, { errors: [{ path: 'voice', message: 'not in this mode' }] });
    }
    c = { ...c, tts: { ...c.tts, voice: req.voice.toLowerCase() } };
  }
  return c;
}

/** The Cartesia voice a configuration speaks with (checked against clones), if any. */
export function cartesiaVoiceOf(c: AgentConfiguration): string | null {
  return c.tts?.provider === 'cartesia' ? c.tts.voice : null;
}

/** The summary fields of the agent's answer: model, voice, voiceProvider, voiceModel, language. */
export function summaryOf(c: AgentConfiguration): { language: string; model: string; voice: string | null; voiceProvider: string | null; voiceModel: string | null } {
  if (c.tts !== null) return { language: c.language, model: c.llm.model, voice: c.tts.voice, voiceProvider: c.tts.provider, voiceModel: c.tts.model };
  const builtIn = typeof c.llm.voice === 'string' ? c.llm.voice : null;
  return { language: c.language, model: c.llm.model, voice: builtIn, voiceProvider: builtIn === null ? null : 'openai', voiceModel: null };
}
