// The managed agent's scripted behaviour, the stand-in for its language model (fixed control
// plane: PUT/GET/DELETE /_sim/agents/{agentId}/behaviour). The request shape, the stored shape
// with every default filled, and the checks that make a bad behaviour a 400 naming the field:
// patterns that do not compile or nest quantifiers (the phone replies' rule), templates that
// name nothing, a tool the agent may not call, a transfer target that is no number or SIP URI.
import { Type, type Static } from '@sinclair/typebox';
import { ApiError } from '../../core/errors.ts';
import { StringEnum, StringRefusedBy } from '../../core/schema.ts';
import { withRules } from '../../core/schema-rules.ts';
import { PHONE_PATTERN } from '../../core/phone.ts';
import { tryNormalizePhone } from '../../core/phone.ts';
import { checkReplies } from '../../peers/carrier/schema.ts';
import { templateRefs, type TemplateRef } from './templates.ts';

export const MAX_RULES = 100;
export const DEFAULT_MAX_TURNS = 20;
export const MAX_TURNS_LIMIT = 500;
const TEXT_MAX = 2000;
const ARGUMENTS_MAX_BYTES = 8192;

export const TRANSFER_MODES = ['blind', 'warm'] as const;
/** A SIP URI the transfer-leg engine can dial, white space around it allowed (transferTargetProblem). */
const SIP_URI_PATTERN = '^\\s*[Ss][Ii][Pp][Ss]?:(?:[^@\\s]+@)?[A-Za-z0-9.-]+(?::\\d{1,5})?(?:;\\S*)?\\s*$';
export const OPT_OUT_CHANNELS = ['call', 'message'] as const;

const Text = (description: string) => Type.String({ minLength: 1, maxLength: TEXT_MAX, description });

const ToolInput = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 128, description: 'A tool among the allowedTools of the agent\'s MCP bindings.' }),
    arguments: Type.Optional(
      Type.Object({}, { additionalProperties: true, description: 'Sent as the tool\'s arguments; string values (at any depth) are templates. At most 8 KB as JSON.' }),
    ),
  },
  { additionalProperties: false },
);

const TransferInput = withRules(
  Type.Object(
    {
      to: StringRefusedBy('VALIDATION', {
        minLength: 1,
        maxLength: 512,
        anyOf: [{ pattern: PHONE_PATTERN }, { pattern: SIP_URI_PATTERN }],
        description: 'A phone number (pstn leg) or a sip:/sips: URI sip:[user@]host[:port][;params] (sip leg).',
      }),
      mode: Type.Optional(StringEnum(TRANSFER_MODES, { description: 'Default blind. warm: the caller is on hold while the party rings; the party hears the whisper when it answers, then the caller is bridged.' })),
      whisper: Type.Optional(Text('Warm transfers only: what the party hears before the caller is bridged; a template like say. Default: a briefing quoting what the caller said.')),
    },
    { additionalProperties: false },
  ),
  [
    {
      description: 'whisper goes with mode warm only (only a warm transfer\'s party hears a whisper).',
      code: 'VALIDATION',
      schema: { if: { required: ['whisper'], properties: { whisper: {} } }, then: { required: ['mode'], properties: { mode: { const: 'warm' } } } },
    },
  ],
);

export const BehaviourRuleInput = withRules(
  Type.Object(
    {
      heard: Type.String({ minLength: 1, maxLength: 200, description: 'A regular expression (JavaScript syntax, which must compile, with no quantifier inside a quantified group) matched case-insensitively against what the agent heard (after the number\'s dictionary rewrote it).' }),
      say: Type.Optional(Text('What the agent says; a template ({{1}}, {{tool}}, {{tool.path}}, {{var.name}}, {{knowledge}}).')),
      tool: Type.Optional(ToolInput),
      transfer: Type.Optional(TransferInput),
      optOut: Type.Optional(StringEnum(OPT_OUT_CHANNELS, { description: 'Adds the caller to the account\'s opt-out list on this channel (source agent, sourceRef the call id).' })),
      hangup: Type.Optional(Type.Boolean({ description: 'The agent hangs up after the rule\'s other actions.' })),
    },
    { additionalProperties: false },
  ),
  [
    {
      description: 'A rule does something: at least one of say, tool, transfer, optOut, hangup true.',
      code: 'VALIDATION',
      schema: { anyOf: [...(['say', 'tool', 'transfer', 'optOut'] as const).map((k) => ({ required: [k], properties: { [k]: {} } })), { required: ['hangup'], properties: { hangup: { const: true } } }] },
    },
    {
      description: 'hangup true cannot go with transfer (after a transfer the caller talks with the transfer party).',
      code: 'VALIDATION',
      schema: { not: { required: ['transfer', 'hangup'], properties: { transfer: {}, hangup: { const: true } } } },
    },
  ],
);

export const BehaviourInput = Type.Object(
  {
    greeting: Type.Optional(Text('Said first when the agent\'s greeting setting is true; a template ({{var.name}} only).')),
    rules: Type.Array(BehaviourRuleInput, { maxItems: MAX_RULES, description: 'Tried in order for each utterance; the first whose heard matches runs: tool, say, optOut, transfer, hangup.' }),
    fallback: Type.Optional(Text('Said when no rule matches (and when a tool fails under failureMode continue); a template ({{var.name}}, {{knowledge}}).')),
    maxTurns: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_TURNS_LIMIT, description: `Utterances the agent answers before it says goodbye and hangs up; default ${DEFAULT_MAX_TURNS}.` })),
  },
  { $id: 'SimAgentBehaviourRequest', additionalProperties: false },
);
export type BehaviourInputBody = Static<typeof BehaviourInput>;

const Rule = Type.Object(
  {
    heard: Type.String(),
    say: Type.Union([Type.String(), Type.Null()]),
    tool: Type.Union([Type.Object({ name: Type.String(), arguments: Type.Object({}, { additionalProperties: true }) }, { additionalProperties: false }), Type.Null()]),
    // whisper: null for blind transfers and for warm ones that use the default briefing (optional: older snapshots lack it).
    transfer: Type.Union([Type.Object({ to: Type.String(), mode: StringEnum(TRANSFER_MODES), whisper: Type.Optional(Type.Union([Type.String(), Type.Null()])) }, { additionalProperties: false }), Type.Null()]),
    optOut: Type.Union([StringEnum(OPT_OUT_CHANNELS), Type.Null()]),
    hangup: Type.Boolean(),
  },
  { additionalProperties: false },
);

/** The stored behaviour, every default filled; what GET answers. */
export const BehaviourSchema = Type.Object(
  {
    agentId: Type.String(),
    custom: Type.Boolean({ description: 'false: the default behaviour (nothing was PUT, or it was DELETEd).' }),
    greeting: Type.String(),
    rules: Type.Array(Rule),
    fallback: Type.String(),
    maxTurns: Type.Integer(),
  },
  { $id: 'SimAgentBehaviour', additionalProperties: false },
);
export type Behaviour = Omit<Static<typeof BehaviourSchema>, 'agentId' | 'custom'>;
export type BehaviourRule = Behaviour['rules'][number];

/** The default lines, by the agent's language: Korean for ko, English otherwise. */
const DEFAULT_LINES = {
  ko: { greeting: '안녕하세요, 무엇을 도와드릴까요?', fallback: '죄송합니다. 잘 이해하지 못했어요. 다시 한 번 말씀해 주시겠어요?', goodbye: '통화해 주셔서 감사합니다. 좋은 하루 보내세요.' },
  en: { greeting: 'Hello, how can I help you?', fallback: 'Sorry, I did not catch that. Could you say it again?', goodbye: 'Thank you for calling. Goodbye.' },
} as const;

/**
 * A warm transfer's default whisper: a briefing for the party quoting the utterance that led to
 * the transfer (what a model would sum up), in the agent's language.
 */
export function defaultWhisper(language: string, utterance: string): string {
  const quoted = [...utterance].length > 120 ? `${[...utterance].slice(0, 119).join('')}…` : utterance;
  return language.toLowerCase().startsWith('ko') ? `고객님 전화를 연결합니다. 고객님 말씀: "${quoted}"` : `Connecting a caller who said: "${quoted}"`;
}

export function defaultLines(language: string): (typeof DEFAULT_LINES)[keyof typeof DEFAULT_LINES] {
  return language.toLowerCase().startsWith('ko') ? DEFAULT_LINES.ko : DEFAULT_LINES.en;
}

/** With no behaviour set: greet, answer every line with the fallback. */
export function defaultBehaviour(language: string): Behaviour {
  const lines = defaultLines(language);
  return { greeting: lines.greeting, rules: [], fallback: lines.fallback, maxTurns: DEFAULT_MAX_TURNS };
}

function refuse(path: string, message: string): ApiError {
  return ApiError.validation(`${path} ${message}`, [{ path, message }]);
}

/** Number of capture groups a (compiling) pattern has. */
export function groupCount(pattern: string): number {
  return new RegExp(`${pattern}|`).exec('')!.length - 1;
}

/** Which references a text may hold where it stands. */
interface Allowed {
  groups: number;
  tool: boolean;
  knowledge: boolean;
}

function checkTemplate(text: string, path: string, allowed: Allowed): void {
  for (const ref of templateRefs(text)) {
    const why = refusal(ref, allowed);
    if (why) throw refuse(path, why);
  }
}

function refusal(ref: TemplateRef, allowed: Allowed): string | undefined {
  switch (ref.kind) {
    case 'group':
      if (allowed.groups === 0) return `uses {{${ref.index}}} but there is no pattern with capture groups here`;
      if (ref.index > allowed.groups) return `uses {{${ref.index}}} but heard has ${allowed.groups} capture group(s)`;
      return undefined;
    case 'tool':
      return allowed.tool ? undefined : `uses {{${ref.raw}}} but the rule calls no tool`;
    case 'knowledge':
      return allowed.knowledge ? undefined : 'uses {{knowledge}}, which needs an utterance (rules and fallback only)';
    case 'var':
      return undefined;
    case 'unknown':
      return `uses {{${ref.raw}}}, which names nothing: use {{1}}.., {{tool}}, {{tool.path}}, {{var.name}} or {{knowledge}}`;
  }
}

function checkArguments(value: unknown, path: string, allowed: Allowed): void {
  if (typeof value === 'string') return checkTemplate(value, path, allowed);
  if (Array.isArray(value)) return value.forEach((v, i) => checkArguments(v, `${path}[${i}]`, allowed));
  if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) checkArguments(v, `${path}.${k}`, allowed);
}

/** A transfer target the transfer-leg engine can dial: a domestic number or a SIP URI with a host. */
export function transferTargetProblem(to: string): string | undefined {
  const t = to.trim();
  if (/^sips?:/i.test(t)) return /^sips?:(?:[^@\s]+@)?[A-Za-z0-9.-]+(?::\d{1,5})?(?:;[^\s]*)?$/i.test(t) ? undefined : 'is not a SIP URI (sip:[user@]host[:port])';
  const phone = tryNormalizePhone(t, 'to');
  return phone.ok ? undefined : `is not a phone number or a sip:/sips: URI (${phone.message})`;
}

/**
 * The stored behaviour for a request (schema-valid already), or 400 naming the first bad field.
 * `allowedTools` are the tools of the agent's bindings; a rule's tool must be one of them.
 */
export function checkBehaviour(input: BehaviourInputBody, language: string, allowedTools: ReadonlySet<string>): Behaviour {
  checkReplies(input.rules, 'rules');
  const base = defaultBehaviour(language);
  const none: Allowed = { groups: 0, tool: false, knowledge: false };
  if (input.greeting !== undefined) checkTemplate(input.greeting, 'greeting', none);
  if (input.fallback !== undefined) checkTemplate(input.fallback, 'fallback', { ...none, knowledge: true });
  const rules = input.rules.map((r, i): BehaviourRule => {
    const allowed: Allowed = { groups: groupCount(r.heard), tool: r.tool !== undefined, knowledge: true };
    if (r.say !== undefined) checkTemplate(r.say, `rules[${i}].say`, allowed);
    if (r.tool !== undefined) {
      if (!allowedTools.has(r.tool.name)) {
        const known = allowedTools.size === 0 ? 'the agent has no MCP binding with allowed tools' : `allowed: ${[...allowedTools].sort().join(', ')}`;
        throw refuse(`rules[${i}].tool.name`, `"${r.tool.name}" is not among the agent's allowed tools (${known})`);
      }
      const args = r.tool.arguments ?? {};
      if (Buffer.byteLength(JSON.stringify(args)) > ARGUMENTS_MAX_BYTES) throw refuse(`rules[${i}].tool.arguments`, `is over ${ARGUMENTS_MAX_BYTES} bytes as JSON`);
      checkArguments(args, `rules[${i}].tool.arguments`, { ...allowed, tool: false });
    }
    if (r.transfer !== undefined) {
      const problem = transferTargetProblem(r.transfer.to);
      if (problem) throw refuse(`rules[${i}].transfer.to`, problem);
      if (r.transfer.whisper !== undefined) {
        if (r.transfer.mode !== 'warm') throw refuse(`rules[${i}].transfer.whisper`, 'needs mode warm: only a warm transfer\'s party hears a whisper');
        checkTemplate(r.transfer.whisper, `rules[${i}].transfer.whisper`, allowed);
      }
    }
    if (r.transfer !== undefined && r.hangup === true) {
      throw refuse(`rules[${i}].hangup`, 'cannot go with transfer: after a transfer the caller talks with the transfer party (a failed transfer returns to the agent)');
    }
    if (r.say === undefined && r.tool === undefined && r.transfer === undefined && r.optOut === undefined && r.hangup !== true) {
      throw refuse(`rules[${i}]`, 'does nothing: give at least one of say, tool, transfer, optOut, hangup');
    }
    return {
      heard: r.heard,
      say: r.say ?? null,
      tool: r.tool === undefined ? null : { name: r.tool.name, arguments: structuredClone(r.tool.arguments ?? {}) },
      transfer: r.transfer === undefined ? null : { to: r.transfer.to.trim(), mode: r.transfer.mode ?? 'blind', whisper: r.transfer.whisper ?? null },
      optOut: r.optOut ?? null,
      hangup: r.hangup === true,
    };
  });
  return { greeting: input.greeting ?? base.greeting, rules, fallback: input.fallback ?? base.fallback, maxTurns: input.maxTurns ?? base.maxTurns };
}
