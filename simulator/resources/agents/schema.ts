// Managed agents on the wire and in the snapshot, after the public API document's Agents
// operations: the agent (AgentResponse), its knowledge documents, its MCP bindings, the voice
// catalogue, the request bodies with the guides' bounds (name 1-80, instructions 16,000,
// allowedTools 1-20...), and the stored rows (behaviours included) for snapshots.
import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Nullable, StringEnum } from '../../core/schema.ts';
import type { IdFormat } from '../../core/ids.ts';
import { withRules } from '../../core/schema-rules.ts';
import { AgentConfigurationInput, AgentConfigurationResponse, REALTIME_MODELS } from './configuration-schema.ts';
import { SOURCE_TYPES, KNOWLEDGE_TITLE_MAX } from './knowledge/intake.ts';
import { BehaviourSchema } from './behaviour.ts';
import { SessionRowSchema } from './session-state.ts';

export const AGENT_IDS = {
  agent: { prefix: 'AG', hex: 12 },
  knowledgeDocument: { prefix: 'KD', hex: 16 },
} as const satisfies Record<string, IdFormat>;

export const NAME_MAX = 80;
export const INSTRUCTIONS_MAX = 16_000;
export const MAX_ALLOWED_TOOLS = 20;
export const MAX_BINDINGS = 3; // reference: at most 3 MCP connections per agent
export const FAILURE_MODES = ['continue', 'fail_session'] as const;
export const EMBEDDING_MODEL = 'sim-lexical-bm25-v1';
export type FailureMode = (typeof FAILURE_MODES)[number];

export const AgentResponse = Type.Object(
  {
    agentId: Type.String(),
    name: Type.String(),
    instructions: Type.String({ description: 'The system prompt; a generic Korean one when created without.' }),
    greeting: Type.Boolean({ description: 'Whether the agent speaks first when the call connects.' }),
    language: Type.String({ description: 'configuration.language.' }),
    model: Type.String({ description: 'The LLM the agent runs (configuration.llm.model).' }),
    voice: Nullable(Type.String(), { description: 'The voice id: the TTS voice, or the realtime model\'s built-in voice.' }),
    voiceProvider: Nullable(Type.String(), { description: 'cartesia, xai, or openai for a built-in voice.' }),
    voiceModel: Nullable(Type.String(), { description: 'The external TTS model; null with a built-in voice.' }),
    configuration: AgentConfigurationResponse,
    phoneNumbers: Type.Array(Type.String(), { description: 'Numbers routed to this agent (routingType agent).' }),
    dateCreated: DateTime(),
    dateUpdated: DateTime(),
  },
  { $id: 'AgentResponse', additionalProperties: false },
);

export const AgentList = Type.Object({ data: Type.Array(AgentResponse) }, { $id: 'AgentListResponse', additionalProperties: false });

const Name = Type.String({ minLength: 1, maxLength: NAME_MAX, description: `1 to ${NAME_MAX} characters.` });
const Instructions = Type.String({ maxLength: INSTRUCTIONS_MAX, description: `At most ${INSTRUCTIONS_MAX} characters.` });
const Model = StringEnum(REALTIME_MODELS, { description: 'Shortcut for configuration.llm.model (OpenAI Realtime agents); not with configuration.' });
const Voice = Type.String({ format: 'uuid', description: 'Shortcut for configuration.tts.voice (Cartesia agents); not with configuration.' });

/** The model and voice shortcuts and a whole configuration exclude each other (configuration.ts). */
const SHORTCUTS_RULE = {
  description: 'model and voice cannot go with configuration.',
  code: 'VALIDATION',
  schema: { not: { required: ['configuration'], properties: { configuration: {} }, anyOf: [{ required: ['model'], properties: { model: {} } }, { required: ['voice'], properties: { voice: {} } }] } },
};

export const CreateAgentBody = withRules(
  Type.Object(
    {
      name: Name,
      instructions: Type.Optional(Instructions),
      greeting: Type.Optional(Type.Boolean({ description: 'Default true.' })),
      model: Type.Optional(Model),
      voice: Type.Optional(Voice),
      configuration: Type.Optional(AgentConfigurationInput),
    },
    { $id: 'CreateAgentRequest', additionalProperties: false },
  ),
  [SHORTCUTS_RULE],
);
export type CreateAgentInput = Static<typeof CreateAgentBody>;

export const UpdateAgentBody = withRules(
  Type.Object(
    {
      name: Type.Optional(Name),
      instructions: Type.Optional(Instructions),
      greeting: Type.Optional(Type.Boolean()),
      model: Type.Optional(Model),
      voice: Type.Optional(Voice),
      configuration: Type.Optional(AgentConfigurationInput),
    },
    { $id: 'UpdateAgentRequest', additionalProperties: false, minProperties: 1 },
  ),
  [SHORTCUTS_RULE],
);
export type UpdateAgentInput = Static<typeof UpdateAgentBody>;

export const AgentVoice = Type.Object(
  {
    id: Type.String({ description: 'Use it as configuration.tts.voice.' }),
    provider: StringEnum(['cartesia']),
    model: StringEnum(['sonic-3.5']),
    name: Type.String(),
    description: Type.String(),
    language: StringEnum(['ko']),
    country: StringEnum(['KR']),
    gender: Nullable(StringEnum(['feminine', 'masculine'])),
    isFeatured: Type.Boolean(),
    isCustom: Type.Boolean({ description: 'A voice this account cloned.' }),
  },
  { $id: 'AgentVoice', additionalProperties: false },
);
export const AgentVoiceList = Type.Object({ data: Type.Array(AgentVoice) }, { $id: 'AgentVoiceListResponse', additionalProperties: false });

export const KNOWLEDGE_STATUSES = ['ready', 'failed'] as const;

export const AgentKnowledgeDocument = Type.Object(
  {
    documentId: Type.String(),
    title: Type.String(),
    sourceType: StringEnum(SOURCE_TYPES),
    status: StringEnum(KNOWLEDGE_STATUSES),
    charCount: Type.Integer({ minimum: 0 }),
    chunkCount: Type.Integer({ minimum: 0 }),
    embeddingModel: Type.String({ description: `${EMBEDDING_MODEL}: the simulator ranks chunks lexically and embeds nothing.` }),
    dateCreated: DateTime(),
    dateUpdated: DateTime(),
  },
  { $id: 'AgentKnowledgeDocument', additionalProperties: false },
);
export const AgentKnowledgeList = Type.Object({ data: Type.Array(AgentKnowledgeDocument) }, { $id: 'AgentKnowledgeListResponse', additionalProperties: false });

const KnowledgeTitle = Type.String({ maxLength: KNOWLEDGE_TITLE_MAX, description: `At most ${KNOWLEDGE_TITLE_MAX} characters (trimmed); blank is none.` });

export const CreateKnowledgeJsonBody = Type.Object(
  {
    title: Type.Optional(KnowledgeTitle),
    text: Type.String({ minLength: 1, maxLength: 200_000, pattern: '\\S', description: 'Not blank. Without a title the document is named after its first line.' }),
  },
  { $id: 'CreateAgentKnowledgeDocumentRequest', additionalProperties: false },
);

/** The multipart form of createAgentKnowledgeDocument, as documented (knowledge-routes.ts reads it). */
export const CreateKnowledgeFormBody = Type.Object(
  {
    title: Type.Optional(KnowledgeTitle),
    file: Type.String({
      minLength: 1,
      pattern: '\\S',
      contentMediaType: 'application/octet-stream',
      'x-error-code': 'knowledge_unreadable',
      description: 'The file part: .txt, .text, .md or .markdown UTF-8 text, or a text-based .pdf (judged by its name), with some text in it (400 knowledge_unreadable otherwise). Its name is the default title.',
    }),
  },
  { $id: 'CreateAgentKnowledgeDocumentForm', additionalProperties: false },
);

export const AgentMcpBinding = Type.Object(
  {
    connectionId: Type.String(),
    name: Type.String(),
    host: Type.String(),
    status: StringEnum(['untested', 'tested', 'credential_error']),
    enabled: Type.Boolean(),
    allowedTools: Type.Array(Type.String(), { description: 'The tools this agent may call.' }),
    failureMode: StringEnum(FAILURE_MODES),
    missingTools: Type.Array(Type.String(), { description: 'Allowed tools the connection\'s last test no longer lists; never called.' }),
    dateUpdated: DateTime(),
  },
  { $id: 'AgentMcpBinding', additionalProperties: false },
);
export const AgentMcpBindingList = Type.Object({ data: Type.Array(AgentMcpBinding) }, { $id: 'AgentMcpBindingListResponse', additionalProperties: false });

export const SetAgentMcpConnectionBody = Type.Object(
  {
    allowedTools: Type.Array(Type.String({ minLength: 1, maxLength: 128 }), { minItems: 1, maxItems: MAX_ALLOWED_TOOLS, uniqueItems: true, description: 'Tools the connection\'s last test listed, without repeats.' }),
    failureMode: Type.Optional(StringEnum(FAILURE_MODES, { description: 'Default continue.' })),
  },
  { $id: 'SetAgentMcpConnectionRequest', additionalProperties: false },
);
export type SetBindingInput = Static<typeof SetAgentMcpConnectionBody>;

export const DeletedResponse = Type.Object({ deleted: Type.Boolean() }, { $id: 'AgentMcpConnectionDeleted', additionalProperties: false });

// --- stored rows ---

const AgentRowSchema = Type.Object(
  {
    id: Type.String(), // maps the agent id to the agent
    accountId: Type.String(),
    name: Type.String(),
    instructions: Type.String(),
    greeting: Type.Boolean(),
    configuration: AgentConfigurationResponse,
    dateCreated: DateTime(),
    dateUpdated: DateTime(),
  },
  { additionalProperties: false },
);
export type AgentRow = Static<typeof AgentRowSchema>;

const BindingRowSchema = Type.Object(
  {
    id: Type.String(), // maps "agentId connectionId" to the binding
    accountId: Type.String(),
    agentId: Type.String(),
    connectionId: Type.String(),
    allowedTools: Type.Array(Type.String()),
    failureMode: StringEnum(FAILURE_MODES),
    dateUpdated: DateTime(),
  },
  { additionalProperties: false },
);
export type BindingRow = Static<typeof BindingRowSchema>;

const KnowledgeRowSchema = Type.Object(
  {
    id: Type.String(), // maps the document id to the document and its text (chunks are recomputed from it)
    accountId: Type.String(),
    agentId: Type.String(),
    title: Type.String(),
    sourceType: StringEnum(SOURCE_TYPES),
    status: StringEnum(KNOWLEDGE_STATUSES),
    text: Type.String(),
    charCount: Type.Integer(),
    chunkCount: Type.Integer(),
    dateCreated: DateTime(),
    dateUpdated: DateTime(),
  },
  { additionalProperties: false },
);
export type KnowledgeRow = Static<typeof KnowledgeRowSchema>;

const { agentId: _a, custom: _c, ...behaviourFields } = BehaviourSchema.properties;
const BehaviourRowSchema = Type.Object(
  { id: Type.String(), accountId: Type.String(), ...behaviourFields }, // maps an agent id to its custom behaviour (absent: the default)
  { additionalProperties: false },
);
export type BehaviourRow = Static<typeof BehaviourRowSchema>;

export const AgentsStateSchema = Type.Object(
  {
    agents: Type.Array(AgentRowSchema),
    bindings: Type.Array(BindingRowSchema),
    knowledge: Type.Array(KnowledgeRowSchema),
    behaviours: Type.Array(BehaviourRowSchema),
    embeddingAvailable: Type.Boolean(), // false: knowledge indexing fails with 502 (control plane)
    sessions: Type.Optional(Type.Array(SessionRowSchema)), // the agents' call sessions (session.ts)
  },
  { additionalProperties: false },
);
export type AgentsState = Static<typeof AgentsStateSchema>;
