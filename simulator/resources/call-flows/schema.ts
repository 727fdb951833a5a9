// Call flows (spec "Call flow"; every block's fields, defaults and bounds after the public API
// document's `CallFlowNode`). Each block type has two schemas built by one function: the request
// form, where defaulted fields may be omitted, and the filled form every response and the stored
// row carry. The calls engine reads flows through `FlowGraph` / `FlowBlock` (the filled form).
// The bodies, the stored row and the fixture's seeds are records.ts.
import { Type, type Static, type TObject, type TProperties, type TSchema } from '@sinclair/typebox';
import { Nullable, StringEnum } from '../../core/schema.ts';
import type { IdFormat } from '../../core/ids.ts';

/** Call flow ids: `CF` + 12 hex (the SDK fixture's `CF41b8e07d9c25`). */
export const CALL_FLOW_IDS = { callFlow: { prefix: 'CF', hex: 12 } } as const satisfies Record<string, IdFormat>;

/** Variable names (reference): what `{{name}}`, `saveAs`, `setvar` and `condition` use. */
export const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** A template reference: `{{name}}` exactly, no spaces; any other brace text is literal. */
export const VARIABLE_REF = /\{\{([A-Za-z_][A-Za-z0-9_]*)\}\}/g;
/** Block ids are map keys and path segments (`nodes.<id>`), so no dots (our bound). */
export const BLOCK_ID = /^[A-Za-z0-9_-]{1,64}$/;

export const BLOCK_TYPES = ['say', 'play', 'pause', 'message', 'menu', 'record', 'dial', 'hangup', 'setvar', 'condition', 'http', 'optout'] as const;
export type BlockType = (typeof BLOCK_TYPES)[number];

/** Wire provider values (reference); the spec's placeholders are accepted as aliases on input. */
export const VOICE_PROVIDERS = ['google', 'cartesia', 'elevenlabs'] as const;
export type VoiceProvider = (typeof VOICE_PROVIDERS)[number];
export const PROVIDER_ALIASES: Record<string, VoiceProvider> = { tts_free: 'google', tts_paid_1: 'cartesia', tts_paid_2: 'elevenlabs' };
export const MENU_KEYS = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '*', '#'] as const;
export const FINISH_KEYS = ['any', 'hash', 'none'] as const;
export const CONDITION_OPS = ['eq', 'ne', 'contains', 'gt', 'lt', 'exists', 'empty'] as const;
/** Ops that compare with `value` (it is required for them). */
export const COMPARING_OPS = ['eq', 'ne', 'contains', 'gt', 'lt'] as const;
export const DIAL_TARGET_KINDS = ['number', 'sip'] as const;
export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export const OPTOUT_CHANNELS = ['call', 'message'] as const;

/** Defaults the reference names; the spec gives only voice.language. Responses always carry them. */
export const BLOCK_DEFAULTS = {
  menu: { maxDigits: 1, timeoutSec: 5 },
  record: { maxLengthSec: 60, playBeep: true, finishKey: 'any' },
  dial: { timeoutSec: 30 },
  optout: { number: '{{caller}}', channel: 'call' },
} as const;
export const VOICE_DEFAULTS = { provider: 'google', language: 'ko' } as const;

/** The whole graph as sent, serialised, at most this many bytes (spec Limits). */
export const GRAPH_MAX_BYTES = 256 * 1024;
export const NAME_MAX = 80;
/** Flows per account (reference: 409 call_flow_limit_reached). */
export const FLOWS_PER_ACCOUNT = 200;

// Bounds where the reference gives none are ours (docs/decisions.md, "Call flows").
export const BOUNDS = {
  text: 2000,
  url: 2048,
  pauseSeconds: { min: 1, max: 60 },
  menuMaxDigits: { min: 1, max: 20 },
  menuTimeoutSec: { min: 1, max: 60 },
  recordMaxLengthSec: { min: 1, max: 600 },
  dialTimeoutSec: { min: 5, max: 120 },
  assignments: 20,
  cases: 20,
  httpHeaders: 20,
  httpSaveAs: 20,
  httpBody: 8000,
  subject: 40,
  note: 200,
  variableName: 64,
  jsonPath: 200,
} as const;

// --- field schemas ---

const BlockId = Type.String({ pattern: BLOCK_ID.source, description: 'Id of a block of this graph.' });
const Link = Nullable(BlockId, { description: 'Id of another block, or null to end the call there.' });
const Text = (description: string) => Type.String({ minLength: 1, maxLength: BOUNDS.text, description: `${description} (1 to ${BOUNDS.text} characters; \`{{name}}\` is replaced by the variable).` });
const VarName = Type.String({ pattern: VARIABLE_NAME.source, maxLength: BOUNDS.variableName, description: 'Variable name: `^[A-Za-z_][A-Za-z0-9_]*$`, at most 64 characters.' });
const SaveAsOptional = Type.String({
  pattern: `^$|${VARIABLE_NAME.source}`,
  maxLength: BOUNDS.variableName,
  description: 'Variable that receives the value; an empty string stores nothing.',
});
const HttpsUrl = Type.String({ pattern: '^https://[^\\s]+$', maxLength: BOUNDS.url, description: 'An https URL.' });
const HttpUrl = Type.String({ pattern: '^https?://[^\\s]+$', maxLength: BOUNDS.url, description: 'An http or https URL; `{{name}}` may appear in it.' });
const Range = (r: { min: number; max: number }, description: string) => Type.Integer({ minimum: r.min, maximum: r.max, description: `${description} (${r.min} to ${r.max}).` });

const o = <T extends TProperties>(props: T, id: string, description: string) => Type.Object(props, { $id: id, additionalProperties: false, description });
/** Required in the filled form, optional in the request form. */
const def = <T extends TSchema>(filled: boolean, s: T) => (filled ? s : Type.Optional(s));

function blockSchemas(filled: boolean) {
  const sfx = filled ? '' : 'Input';
  const D = BLOCK_DEFAULTS;
  return {
    say: o({ type: Type.Literal('say'), text: Text('What the voice says'), next: Link }, `CallFlowSayBlock${sfx}`, 'Speaks `text`, then goes to `next`.'),
    play: o({ type: Type.Literal('play'), url: HttpsUrl, next: Link }, `CallFlowPlayBlock${sfx}`, 'Plays the audio file at `url`, then goes to `next`.'),
    pause: o({ type: Type.Literal('pause'), seconds: Range(BOUNDS.pauseSeconds, 'Silence in seconds'), next: Link }, `CallFlowPauseBlock${sfx}`, 'Silence, then `next`.'),
    message: o(
      {
        type: Type.Literal('message'),
        body: Text('Text message body'),
        to: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Recipient; default the caller (`{{caller}}`). A phone number or a `{{name}}` reference.' })),
        subject: Type.Optional(Type.String({ minLength: 1, maxLength: BOUNDS.subject, description: `Subject (makes it an LMS), 1 to ${BOUNDS.subject} characters.` })),
        next: Link,
      },
      `CallFlowMessageBlock${sfx}`,
      'Sends a text message, then goes to `next`.',
    ),
    menu: o(
      {
        type: Type.Literal('menu'),
        prompt: Text('Prompt read before waiting for keys'),
        branches: Type.Object(Object.fromEntries(MENU_KEYS.map((k) => [k, Type.Optional(BlockId)])), {
          additionalProperties: false,
          minProperties: 1,
          description: 'Pressed key (`0`-`9`, `*`, `#`) to block id; only the keys in use, at least one.',
        }),
        invalidNext: Link,
        timeoutNext: Link,
        maxDigits: def(filled, Range(BOUNDS.menuMaxDigits, `Keys collected, default ${D.menu.maxDigits}`)),
        timeoutSec: def(filled, Range(BOUNDS.menuTimeoutSec, `Seconds to wait for input, default ${D.menu.timeoutSec}`)),
        saveAs: Type.Optional(SaveAsOptional),
      },
      `CallFlowMenuBlock${sfx}`,
      'Reads `prompt` and collects keys: a key in `branches` goes there, another key to `invalidNext`, no input to `timeoutNext`.',
    ),
    record: o(
      {
        type: Type.Literal('record'),
        next: Link,
        prompt: Type.Optional(Text('Prompt read before recording')),
        maxLengthSec: def(filled, Range(BOUNDS.recordMaxLengthSec, `Longest recording in seconds, default ${D.record.maxLengthSec}`)),
        playBeep: def(filled, Type.Boolean({ description: `Beep before recording, default ${D.record.playBeep}.` })),
        finishKey: def(filled, StringEnum(FINISH_KEYS, { description: `Key that ends the recording: any key, # only, or none; default ${D.record.finishKey}.` })),
        saveAs: Type.Optional(SaveAsOptional),
      },
      `CallFlowRecordBlock${sfx}`,
      'Records the caller; the recording URL goes under `saveAs` and its length under `<saveAs>_duration`.',
    ),
    dial: o(
      {
        type: Type.Literal('dial'),
        target: Type.Object(
          {
            kind: StringEnum(DIAL_TARGET_KINDS),
            value: Type.String({ minLength: 1, maxLength: 512, description: 'A phone number (kind number) or a sip:/sips: URI (kind sip); `{{name}}` may appear.' }),
          },
          { additionalProperties: false },
        ),
        next: Link,
        callerId: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Number shown to the callee; default the call\'s own number.' })),
        timeoutSec: def(filled, Range(BOUNDS.dialTimeoutSec, `Ring time before giving up, default ${D.dial.timeoutSec}`)),
      },
      `CallFlowDialBlock${sfx}`,
      'Connects the call to a number or SIP URI, then goes to `next`.',
    ),
    hangup: o(
      { type: Type.Literal('hangup'), message: Type.Optional(Text('Said before hanging up')) },
      `CallFlowHangupBlock${sfx}`,
      'Ends the call (terminal block).',
    ),
    setvar: o(
      {
        type: Type.Literal('setvar'),
        assignments: Type.Array(
          Type.Object({ name: VarName, value: Type.String({ maxLength: BOUNDS.text, description: 'Value; `{{name}}` is replaced.' }) }, { additionalProperties: false }),
          { minItems: 1, maxItems: BOUNDS.assignments },
        ),
        next: Link,
      },
      `CallFlowSetvarBlock${sfx}`,
      `Sets 1 to ${BOUNDS.assignments} variables, then goes to \`next\`.`,
    ),
    condition: o(
      {
        type: Type.Literal('condition'),
        cases: Type.Array(
          Type.Object(
            {
              variable: VarName,
              op: StringEnum(CONDITION_OPS),
              value: Type.Optional(Type.String({ maxLength: BOUNDS.text, description: 'Required for eq, ne, contains, gt, lt; `{{name}}` is replaced.' })),
              next: Link,
            },
            { additionalProperties: false },
          ),
          { minItems: 1, maxItems: BOUNDS.cases },
        ),
        defaultNext: Link,
      },
      `CallFlowConditionBlock${sfx}`,
      'The first case that holds decides `next`; none: `defaultNext`.',
    ),
    http: o(
      {
        type: Type.Literal('http'),
        method: StringEnum(HTTP_METHODS),
        url: HttpUrl,
        next: Link,
        errorNext: Link,
        headers: Type.Optional(Type.Record(Type.String({ minLength: 1, maxLength: 100 }), Type.String({ maxLength: BOUNDS.text }), { maxProperties: BOUNDS.httpHeaders })),
        body: Type.Optional(Type.String({ maxLength: BOUNDS.httpBody, description: 'Request body; `{{name}}` is replaced.' })),
        saveAs: Type.Optional(
          Type.Array(
            Type.Object(
              {
                var: VarName,
                path: Type.String({ minLength: 1, maxLength: BOUNDS.jsonPath, description: 'Dotted path into the response JSON (`data.items.0.id`).' }),
              },
              { additionalProperties: false },
            ),
            { maxItems: BOUNDS.httpSaveAs },
          ),
        ),
      },
      `CallFlowHttpBlock${sfx}`,
      'Calls the customer\'s URL; values from the JSON answer go to `saveAs`; failure or timeout goes to `errorNext`.',
    ),
    optout: o(
      {
        type: Type.Literal('optout'),
        next: Link,
        number: def(filled, Type.String({ minLength: 1, maxLength: 100, description: `Number to block, default \`${D.optout.number}\`.` })),
        channel: def(filled, StringEnum(OPTOUT_CHANNELS, { description: `Channel of the opt-out, default ${D.optout.channel}.` })),
        note: Type.Optional(Type.String({ maxLength: BOUNDS.note })),
        saveAs: Type.Optional(SaveAsOptional),
      },
      `CallFlowOptoutBlock${sfx}`,
      'Adds the number to the blocked recipients (source ars), then goes to `next`.',
    ),
  } satisfies Record<BlockType, TObject>;
}

/** Per block type: the request form (defaults optional). */
export const BLOCK_INPUT_SCHEMAS = blockSchemas(false);
/** Per block type: the filled form (responses, stored rows, the interpreter). */
export const BLOCK_SCHEMAS = blockSchemas(true);

function voiceSchema(filled: boolean) {
  return Type.Object(
    {
      provider: filled
        ? StringEnum(VOICE_PROVIDERS, { description: 'google is free; cartesia and elevenlabs are paid.' })
        : StringEnum([...VOICE_PROVIDERS, ...Object.keys(PROVIDER_ALIASES)], {
            description: 'google is free; cartesia and elevenlabs are paid. The spec\'s placeholders tts_free, tts_paid_1, tts_paid_2 are accepted and answered as google, cartesia, elevenlabs.',
          }),
      voiceId: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'cartesia: a catalog UUID; elevenlabs: 20 letters or digits.' })),
      model: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'elevenlabs only; 400 on any other provider.' })),
      language: def(filled, Type.String({ pattern: '^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$', description: 'Language code, default ko.' })),
      controls: Type.Optional(
        Type.Object(
          { speed: Type.Optional(Type.Number()), volume: Type.Optional(Type.Number()) },
          { additionalProperties: false, description: 'Stored as given; values a provider does not support are not applied to calls.' },
        ),
      ),
    },
    { $id: filled ? 'CallFlowVoice' : 'CallFlowVoiceInput', additionalProperties: false, description: 'Flow-wide voice; omitted means the free voice in Korean.' },
  );
}
export const VoiceInputSchema = voiceSchema(false);
export const VoiceSchema = voiceSchema(true);

const blockUnion = (schemas: Record<BlockType, TObject>, id: string) =>
  Type.Union(Object.values(schemas), { $id: id, description: 'One block; `type` decides its fields. Fields outside the type\'s schema are refused.' });

export const FlowBlockSchema = blockUnion(BLOCK_SCHEMAS, 'CallFlowNode');
export const FlowBlockInputSchema = blockUnion(BLOCK_INPUT_SCHEMAS, 'CallFlowNodeInput');

export const FlowGraphSchema = Type.Object(
  {
    version: Type.Literal(1),
    start: Type.String({ pattern: BLOCK_ID.source, description: 'Id of the start block.' }),
    voice: VoiceSchema,
    nodes: Type.Record(Type.String({ pattern: BLOCK_ID.source }), FlowBlockSchema, { description: 'Block id to block.' }),
  },
  { $id: 'CallFlowGraph', additionalProperties: false, description: 'The graph with every default filled (no canvas coordinates).' },
);

export const FlowGraphInputSchema = Type.Object(
  {
    version: Type.Literal(1),
    start: Type.String({ pattern: BLOCK_ID.source, description: 'Id of the start block.' }),
    voice: Type.Optional(VoiceInputSchema),
    nodes: Type.Record(Type.String({ pattern: BLOCK_ID.source }), FlowBlockInputSchema, { minProperties: 1, description: 'Block id to block.' }),
    ui: Type.Optional(Type.Unknown({ description: 'Canvas coordinates of the console editor: accepted, never stored or returned.' })),
  },
  { $id: 'CallFlowGraphInput', additionalProperties: false, description: 'The whole graph, at most 256 KB serialised; defaulted fields may be omitted.' },
);

// --- filled-defaults types the interpreter works on ---

type Blocks = typeof BLOCK_SCHEMAS;
export type SayBlock = Static<Blocks['say']>;
export type PlayBlock = Static<Blocks['play']>;
export type PauseBlock = Static<Blocks['pause']>;
export type MessageBlock = Static<Blocks['message']>;
export type MenuBlock = Static<Blocks['menu']>;
export type RecordBlock = Static<Blocks['record']>;
export type DialBlock = Static<Blocks['dial']>;
export type HangupBlock = Static<Blocks['hangup']>;
export type SetvarBlock = Static<Blocks['setvar']>;
export type ConditionBlock = Static<Blocks['condition']>;
export type HttpBlock = Static<Blocks['http']>;
export type OptoutBlock = Static<Blocks['optout']>;
/** One block with every default filled; narrow on `type`. */
export type FlowBlock = SayBlock | PlayBlock | PauseBlock | MessageBlock | MenuBlock | RecordBlock | DialBlock | HangupBlock | SetvarBlock | ConditionBlock | HttpBlock | OptoutBlock;
export type FlowVoice = Static<typeof VoiceSchema>;
/** A valid graph with every default filled: links point at existing blocks, `start` exists. */
export interface FlowGraph {
  version: 1;
  start: string;
  voice: FlowVoice;
  nodes: Record<string, FlowBlock>;
}
