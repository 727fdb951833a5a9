// The agent's run configuration as the public API document shapes it: three output modes
// (realtime_voice, external_tts, pipeline), each with its own parts, and every bound and enum
// of the guides (TTS speed 0.6-1.5 and volume 0.5-1.5, STT temperature 0-1, LLM temperature
// 0-2, VAD and session ranges...). Requests are checked branch by branch (configuration.ts)
// so that an error names the field of the mode the request chose.
import { FormatRegistry, Kind, Type, TypeRegistry, type Static, type TSchema } from '@sinclair/typebox';
import { Nullable, StringEnum } from '../../core/schema.ts';

export const OUTPUT_MODES = ['realtime_voice', 'external_tts', 'pipeline'] as const;
export const REALTIME_MODELS = ['gpt-realtime-2.1', 'gpt-realtime-2.1-mini'] as const;
export const REALTIME_VOICES = ['marin', 'cedar', 'alloy', 'ash', 'ballad', 'coral', 'echo', 'sage', 'shimmer', 'verse'] as const;
export const PIPELINE_MODELS = [
  'gpt-5.6-luna', 'gpt-5.6-sol', 'gpt-5.6-terra', 'gpt-5.5', 'gpt-5.4', 'gpt-5.4-mini', 'gpt-5.4-nano', 'gpt-5.2', 'gpt-5.1',
  'gpt-5', 'gpt-5-mini', 'gpt-5-nano', 'gpt-4.1', 'gpt-4.1-mini', 'gpt-4.1-nano', 'gpt-4o', 'gpt-4o-mini',
] as const;
export type OutputMode = (typeof OUTPUT_MODES)[number];

// Voice ids are UUIDs (Cartesia's); any version, compared in lowercase.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
if (!FormatRegistry.Has('uuid')) FormatRegistry.Set('uuid', (v) => UUID.test(v));

const Language = Type.String({ minLength: 2, maxLength: 16, description: 'Default ko.' });

export const AgentKnowledgeConfiguration = Type.Object(
  {
    enabled: Type.Boolean({ description: 'Knowledge search during calls; default false.' }),
    topK: Type.Integer({ minimum: 1, maximum: 10, description: 'Chunks retrieved per search; default 5.' }),
  },
  { $id: 'AgentKnowledgeConfiguration', additionalProperties: false },
);

export const AgentSttConfiguration = Type.Object(
  {
    provider: StringEnum(['openai']),
    model: StringEnum(['gpt-4o-transcribe', 'gpt-4o-mini-transcribe', 'whisper-1']),
    language: Type.Optional(Language),
    prompt: Type.Optional(Type.String({ maxLength: 4000 })),
    temperature: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
    detect_language: Type.Optional(Type.Boolean()),
    noise_reduction_type: Type.Optional(StringEnum(['near_field', 'far_field'])),
    use_realtime: Type.Optional(Type.Boolean()),
  },
  { $id: 'AgentSttConfiguration', additionalProperties: false },
);

export const CartesiaTts = Type.Object(
  {
    provider: StringEnum(['cartesia']),
    model: StringEnum(['sonic-3.5']),
    voice: Type.String({ format: 'uuid', description: 'A voice of listAgentVoices: stock, or a ready clone of this account (another account\'s clone is 403).' }),
    language: Type.Optional(Language),
    speed: Type.Optional(Type.Number({ minimum: 0.6, maximum: 1.5, description: '1.0 is normal.' })),
    volume: Type.Optional(Type.Number({ minimum: 0.5, maximum: 1.5, description: '1.0 is normal.' })),
  },
  { $id: 'AgentCartesiaTtsConfiguration', additionalProperties: false },
);

export const XaiTts = Type.Object(
  {
    provider: StringEnum(['xai']),
    model: StringEnum(['tts-1']),
    voice: Type.String({ minLength: 1, maxLength: 128, description: 'An xAI voice id (no tuning).' }),
    language: Type.Optional(Language),
  },
  { $id: 'AgentXaiTtsConfiguration', additionalProperties: false },
);

export const AgentVadConfiguration = Type.Object(
  {
    provider: StringEnum(['silero']),
    min_silence_duration: Type.Optional(Type.Number({ minimum: 0, maximum: 3 })),
    min_speech_duration: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
    prefix_padding_duration: Type.Optional(Type.Number({ minimum: 0, maximum: 2 })),
    max_buffered_speech: Type.Optional(Type.Number({ minimum: 1, maximum: 120 })),
    activation_threshold: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
    sample_rate: Type.Optional(Type.Union([Type.Literal(16000), Type.Literal(8000)])),
    force_cpu: Type.Optional(Type.Boolean()),
  },
  { $id: 'AgentVadConfiguration', additionalProperties: false },
);

export const AgentSessionConfiguration = Type.Object(
  {
    turn_detection: Type.Optional(StringEnum(['vad', 'stt'])),
    allow_interruptions: Type.Optional(Type.Boolean()),
    min_endpointing_delay: Type.Optional(Type.Number({ minimum: 0, maximum: 5 })),
    max_endpointing_delay: Type.Optional(Type.Number({ minimum: 0, maximum: 15 })),
    min_interruption_duration: Type.Optional(Type.Number({ minimum: 0, maximum: 2 })),
  },
  { $id: 'AgentSessionConfiguration', additionalProperties: false },
);

export const PipelineLlm = Type.Object(
  {
    provider: StringEnum(['openai']),
    model: StringEnum(PIPELINE_MODELS),
    temperature: Type.Optional(Type.Number({ minimum: 0, maximum: 2 })),
    top_p: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
    verbosity: Type.Optional(StringEnum(['low', 'medium', 'high'])),
    max_completion_tokens: Type.Optional(Type.Integer({ minimum: 1 })),
    frequency_penalty: Type.Optional(Type.Number({ minimum: -2, maximum: 2 })),
    presence_penalty: Type.Optional(Type.Number({ minimum: -2, maximum: 2 })),
    service_tier: Type.Optional(StringEnum(['auto', 'default', 'flex', 'scale', 'priority'])),
    parallel_tool_calls: Type.Optional(Type.Boolean()),
    seed: Type.Optional(Type.Integer()),
  },
  { $id: 'AgentPipelineLlmConfiguration', additionalProperties: false },
);

const RealtimeModel = StringEnum(REALTIME_MODELS);
const Common = { language: Type.Optional(Language), knowledge: Type.Optional(AgentKnowledgeConfiguration) };

/** The three request branches, by outputMode. */
export const CONFIGURATION_BRANCHES = {
  realtime_voice: Type.Object(
    {
      outputMode: StringEnum(['realtime_voice']),
      ...Common,
      llm: Type.Object({ provider: StringEnum(['openai-realtime']), model: RealtimeModel, voice: StringEnum(REALTIME_VOICES) }, { additionalProperties: false }),
    },
    { title: 'realtime_voice', additionalProperties: false },
  ),
  external_tts: Type.Object(
    {
      outputMode: StringEnum(['external_tts']),
      ...Common,
      llm: Type.Object({ provider: StringEnum(['openai-realtime']), model: RealtimeModel }, { additionalProperties: false }),
      tts: Type.Union([CartesiaTts, XaiTts]),
    },
    { title: 'external_tts', additionalProperties: false },
  ),
  pipeline: Type.Object(
    {
      outputMode: StringEnum(['pipeline']),
      ...Common,
      stt: AgentSttConfiguration,
      llm: PipelineLlm,
      tts: Type.Union([CartesiaTts, XaiTts]),
      vad: Type.Optional(AgentVadConfiguration),
      session: Type.Optional(AgentSessionConfiguration),
    },
    { title: 'pipeline', additionalProperties: false },
  ),
} as const satisfies Record<OutputMode, TSchema>;

// Any JSON object passes the request schema; configuration.ts checks the branch its outputMode
// names, so an error names that mode's field instead of the first branch's.
TypeRegistry.Set('AgentConfigurationInput', (_, v) => typeof v === 'object' && v !== null && !Array.isArray(v));

/** The request field as documented (oneOf the three branches), checked by parseConfiguration. */
export const AgentConfigurationInput = Type.Unsafe<Record<string, unknown>>({
  [Kind]: 'AgentConfigurationInput',
  $id: 'AgentConfigurationInput',
  description: 'The whole run configuration; outputMode picks the branch. Replaces the stored configuration as a whole (no merge).',
  oneOf: Object.values(CONFIGURATION_BRANCHES),
});

/** The stored and answered configuration: every part present, null where the mode has none. */
export const AgentConfigurationResponse = Type.Object(
  {
    outputMode: StringEnum(OUTPUT_MODES),
    language: Type.String(),
    knowledge: AgentKnowledgeConfiguration,
    stt: Nullable(AgentSttConfiguration),
    llm: Type.Object(
      { provider: Type.String(), model: Type.String(), voice: Type.Optional(Type.String()) },
      { additionalProperties: Type.Union([Type.String(), Type.Number(), Type.Boolean()]) },
    ),
    tts: Nullable(Type.Union([CartesiaTts, XaiTts])),
    vad: Nullable(AgentVadConfiguration),
    session: Nullable(AgentSessionConfiguration),
  },
  { $id: 'AgentConfigurationResponse', additionalProperties: false },
);
export type AgentConfiguration = Static<typeof AgentConfigurationResponse>;
