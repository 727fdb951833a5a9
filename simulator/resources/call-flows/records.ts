// A call flow as the API, the store and the fixture carry it: the request and response bodies
// (checked by the model, so graph problems answer call_flow_invalid_graph with `issues[]`), the
// stored row and the family's snapshot part, and the fixture's seed flows and voices. The graph
// itself, its blocks and its voice are schema.ts.
import { Kind, Type, TypeRegistry, type Static, type TSchema, type TUnsafe } from '@sinclair/typebox';
import { DateTime, Nullable, StringEnum } from '../../core/schema.ts';
import { FlowGraphInputSchema, FlowGraphSchema, NAME_MAX, PROVIDER_ALIASES, VOICE_PROVIDERS } from './schema.ts';

// --- wire bodies ---

// Call-flow bodies are documented by their full schema but checked by the model, so that graph
// problems answer call_flow_invalid_graph with `issues[]` (reference) instead of the generic
// dispatcher error.
TypeRegistry.Set('CallFlowCheckedByHandler', () => true);
export function checkedByHandler(schema: TSchema): TUnsafe<unknown> {
  return Type.Unsafe<unknown>({ ...schema, [Kind]: 'CallFlowCheckedByHandler' });
}

export const CallFlowSummary = Type.Object(
  {
    callFlowId: Type.String({ description: 'Used as CallFlowId when placing a call and as callFlowId in number routing.' }),
    name: Type.String(),
    phoneNumbers: Type.Array(Type.String(), { description: 'Numbers routed to this flow (routingType callflow); empty for outbound-only flows.' }),
    variables: Type.Array(Type.String(), {
      description: 'Names to supply in Variables when placing a call: referenced as `{{name}}` but not created during the call. Sorted.',
    }),
    dateCreated: DateTime(),
    dateUpdated: DateTime(),
  },
  { $id: 'CallFlowResponse', additionalProperties: false },
);

export const CallFlowDetail = Type.Object(
  {
    ...CallFlowSummary.properties,
    graph: Nullable(FlowGraphSchema, { description: 'null when the stored graph cannot be read under the current schema; a full PUT repairs it.' }),
  },
  { $id: 'CallFlowDetailResponse', additionalProperties: false },
);

export const CallFlowList = Type.Object({ data: Type.Array(CallFlowSummary) }, { $id: 'CallFlowListResponse', additionalProperties: false });

export const CreateCallFlowBody = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: NAME_MAX, pattern: '\\S', description: 'Not blank.' }), graph: FlowGraphInputSchema },
  { $id: 'CreateCallFlowRequest', additionalProperties: false },
);
export const UpdateCallFlowBody = Type.Object(
  { name: Type.Optional(Type.String({ minLength: 1, maxLength: NAME_MAX, pattern: '\\S', description: 'Not blank.' })), graph: Type.Optional(FlowGraphInputSchema) },
  { $id: 'UpdateCallFlowRequest', additionalProperties: false, minProperties: 1, description: 'At least one of name and graph.' },
);
export interface CallFlowInput {
  name?: string;
  graph?: unknown;
}

export const CallFlowIssue = Type.Object(
  { path: Type.String({ description: 'Dotted path of the problem; reference problems point at `nodes.<id>`.' }), message: Type.String() },
  { $id: 'CallFlowIssue', additionalProperties: false },
);

// --- stored state ---

export const CallFlowRowSchema = Type.Object(
  {
    id: Type.String(),
    accountId: Type.String(),
    name: Type.String(),
    // Stored as plain JSON: a planted or outdated graph is kept and answered as null (spec).
    graph: Type.Unknown(),
    // Canvas coordinates of the console editor (never over the API): kept by PATCH, cleared by PUT.
    canvas: Type.Unknown(),
    dateCreated: DateTime(),
    dateUpdated: DateTime(),
  },
  { additionalProperties: false },
);
export type CallFlowRow = Static<typeof CallFlowRowSchema>;

export const VoiceOwnerSchema = Type.Object(
  { provider: StringEnum(VOICE_PROVIDERS), voiceId: Type.String(), accountId: Type.String() },
  { additionalProperties: false },
);
export type VoiceOwner = Static<typeof VoiceOwnerSchema>;

export const CallFlowsStateSchema = Type.Object(
  { flows: Type.Array(CallFlowRowSchema), voices: Type.Array(VoiceOwnerSchema) },
  { additionalProperties: false },
);
export type CallFlowsState = Static<typeof CallFlowsStateSchema>;

// --- seed data (fixture `accounts[].voices`, `accounts[].callFlows`) ---

export const VoiceFixture = Type.Object(
  {
    provider: StringEnum([...VOICE_PROVIDERS, ...Object.keys(PROVIDER_ALIASES)], { description: 'A paid provider (or the spec\'s placeholder).' }),
    voiceId: Type.String({ minLength: 1, maxLength: 100 }),
  },
  { additionalProperties: false, description: 'A cloned voice this account registered: other accounts get 403 call_flow_voice_forbidden.' },
);
export const CallFlowFixture = Type.Object(
  {
    callFlowId: Type.Optional(Type.String({ pattern: '^CF[A-Za-z0-9]{1,64}$', description: 'Default: drawn from the seed.' })),
    name: Type.String({ minLength: 1, maxLength: NAME_MAX }),
    graph: Type.Unknown({ description: 'A graph as createCallFlow takes it; checked on load.' }),
    createdAt: Type.Optional(DateTime()),
  },
  { additionalProperties: false },
);
export type CallFlowFixtureT = Static<typeof CallFlowFixture>;
export type VoiceFixtureT = Static<typeof VoiceFixture>;
