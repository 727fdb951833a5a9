// What the carrier's control routes read and answer (docs/control-plane.md, "Carrier"): scripts,
// deliveries and a phone as the control plane shows them, the script request, and the fields
// that script how an answering phone behaves (shared with the inbound-call route of calls).
import { Type } from '@sinclair/typebox';
import { ApiError } from '../../core/errors.ts';
import { DateTime, Nullable, PhoneNumber, StringEnum, StringRefusedBy } from '../../core/schema.ts';
import { present, withRules } from '../../core/schema-rules.ts';
import { normalizePhone } from '../../core/phone.ts';
import { CalleeSchema, ReplySchema, DELIVERY_TYPES, OUTCOMES, type DeliveryRow, type ScriptRow } from './schema.ts';
import { normalizePrefix } from './rules.ts';

const Outcome = StringEnum(OUTCOMES);
const Outcomes = Type.Object({ sms: Outcome, lms: Outcome, mms: Outcome, ata: Outcome, bms: Outcome, call: Outcome }, { additionalProperties: false });
export const MagicNumberView = Type.Object(
  { number: Type.String(), description: Type.String(), outcomes: Outcomes, delaySeconds: Nullable(Type.Number()) },
  { $id: 'SimMagicNumber', additionalProperties: false },
);

export const ScriptView = Type.Object(
  {
    scriptId: Type.String(),
    number: Nullable(Type.String({ description: 'The destination it applies to; null for a prefix script.' })),
    prefix: Nullable(Type.String({ description: 'The destinations it applies to (domestic notation, starting with these digits); null for a number script.' })),
    share: Type.Number({ description: 'The share of matching attempts it decides (0 < share <= 1).' }),
    attempts: Type.Integer({ description: 'Matching attempts it was tried on (while not used up), picked or not.' }),
    picked: Type.Integer({ description: 'Of those, the attempts it decided.' }),
    outcome: StringEnum(OUTCOMES),
    types: Nullable(Type.Array(StringEnum(DELIVERY_TYPES))),
    delaySeconds: Nullable(Type.Number()),
    remaining: Nullable(Type.Integer({ description: 'Deliveries it still decides; null: unlimited.' })),
    answeredBy: StringEnum(['human', 'machine']),
    keys: Type.Array(Type.String()),
    hangupAfterSeconds: Nullable(Type.Number()),
    speakSeconds: Type.Integer(),
    replies: Type.Array(ReplySchema),
    lines: Type.Optional(Type.Array(Type.String())),
    createdAt: DateTime(),
  },
  { $id: 'SimCarrierScript', additionalProperties: false },
);

/** How an answering phone behaves (calls only); shared by scripts and inbound calls. */
export const CalleeFields = {
  answeredBy: Type.Optional(Nullable(StringEnum(['human', 'machine'], { description: 'Calls: who answers, as machine detection reports it; default human.' }))),
  keys: Type.Optional(
    Nullable(Type.Array(Type.String({ pattern: '^[0-9*#]*$', maxLength: 64 }), { maxItems: 1000, description: 'Calls: what the phone enters at each successive menu or record prompt; "" = no input (the prompt times out).' })),
  ),
  hangupAfterSeconds: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 86_400, description: 'Calls: the phone hangs up this long after the call is answered (the flow is then abandoned).' }))),
  speakSeconds: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 3600, description: 'Calls: seconds the phone talks at each record prompt; default 3.' }))),
  replies: Type.Optional(
    Nullable(
      Type.Array(
        Type.Object(
          {
            heard: Type.String({ minLength: 1, maxLength: 200, description: 'A regular expression (JavaScript syntax, which must compile), matched case-insensitively against what the phone heard since its previous input.' }),
            keys: Type.String({ pattern: '^[0-9*#]*$', maxLength: 64, description: 'What the phone enters when it matches; "" = no input.' }),
            speakSeconds: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 3600, description: 'At a record prompt: seconds it talks instead of the script\'s speakSeconds.' }))),
            say: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 2000, description: 'Calls handled by an agent: what the phone says when this reply is chosen (with its keys pressed, if any).' }))),
          },
          { additionalProperties: false },
        ),
        { maxItems: 100, description: 'Calls: at each menu or record prompt the first reply whose heard matches answers it; with none, the next entry of keys, then no input. In calls handled by an agent, at each of the phone\'s turns the first reply whose heard matches what the agent said since its last turn speaks its say and presses its keys.' },
      ),
    ),
  ),
  lines: Type.Optional(
    Nullable(
      Type.Array(Type.String({ minLength: 1, maxLength: 2000 }), {
        maxItems: 1000,
        description: 'Calls handled by an agent: what the phone says, in order, one per turn, when no reply matches; with nothing left to say it hangs up (docs/agents.md).',
      }),
    ),
  ),
};

export const ScriptBody = withRules(
  Type.Object(
    {
      number: Type.Optional(Nullable(PhoneNumber({ description: 'The destination; any accepted spelling. Give number or prefix.' }))),
      prefix: Type.Optional(
        Nullable(StringRefusedBy('VALIDATION', { minLength: 1, maxLength: 40, pattern: '^[\\s().-]*(?:\\+[\\s().-]*8[\\s().-]*2[\\s().-]*(?:\\d[\\s().-]*)*|(?:\\d[\\s().-]*)+)$', description: 'Every destination starting with this prefix (domestic notation; separators and +82 are normalised as in numbers, digits only). Give number or prefix; a number script wins over a prefix script.' })),
      ),
      share: Type.Optional(
        Nullable(Type.Number({ exclusiveMinimum: 0, maximum: 1, description: 'The share of matching attempts it decides, picked from the seed and the attempt (0 < share <= 1, default 1); the others go on to the next script, the magic numbers, then success.' })),
      ),
      outcome: StringEnum(OUTCOMES, { description: 'delivered (answered), failed, no-answer, busy or rejected; for texts anything but delivered means failed.' }),
      types: Type.Optional(Nullable(Type.Array(StringEnum(DELIVERY_TYPES), { maxItems: 5, description: 'Delivery types it applies to; default all (sms, lms, mms, ata, call).' }))),
      delaySeconds: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 2_592_000, description: 'Seconds until the outcome; default the carrier\'s (2 for texts, 5 for calls, 30 for no-answer).' }))),
      times: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'Deliveries it applies to, then it is used up; default unlimited.' }))),
      ...CalleeFields,
    },
    { $id: 'SimCarrierScriptRequest', additionalProperties: false },
  ),
  [{ description: 'Exactly one of number and prefix.', code: 'VALIDATION', schema: { oneOf: [present('number'), present('prefix')] } }],
);

/** A delivery as the control plane shows it; `owners` are the descriptors' `carrierOwners`. */
export const deliveryViewSchema = (owners: readonly string[]) => Type.Object(
  {
    deliveryId: Type.String(),
    accountId: Type.String(),
    owner: StringEnum(owners),
    ownerId: Type.String({ description: 'The message or verification id.' }),
    type: StringEnum(DELIVERY_TYPES),
    from: Type.String(),
    to: Type.String(),
    subject: Nullable(Type.String()),
    content: Type.String({ description: 'Text of the message or what the call says; one-time codes are masked here.' }),
    mediaUrl: Type.Array(Type.String()),
    outcome: StringEnum(OUTCOMES, { description: 'Decided when the carrier accepted the delivery.' }),
    status: StringEnum(['pending', ...OUTCOMES]),
    scriptId: Nullable(Type.String()),
    callee: Nullable(CalleeSchema, { description: 'Calls: how the answering phone behaves (from its script); null for texts.' }),
    submittedAt: DateTime(),
    dueAt: DateTime(),
    completedAt: Nullable(DateTime()),
  },
  { $id: 'SimCarrierDelivery', additionalProperties: false },
);

export const PhoneView = Type.Object(
  {
    number: Type.String(),
    messages: Type.Array(
      Type.Object(
        {
          deliveryId: Type.String(),
          messageId: Nullable(Type.String()),
          verificationId: Nullable(Type.String()),
          from: Type.String(),
          type: StringEnum(DELIVERY_TYPES),
          subject: Nullable(Type.String()),
          body: Type.String(),
          mediaUrl: Type.Array(Type.String()),
          code: Nullable(Type.String({ description: 'The one-time code in the body, for verification texts; null after a restore from a snapshot of another run.' })),
          receivedAt: DateTime(),
        },
        { additionalProperties: false },
      ),
    ),
    calls: Type.Array(
      Type.Object(
        {
          deliveryId: Nullable(Type.String({ description: 'The carrier delivery of a verification call; null for calls of the calls API.' })),
          verificationId: Nullable(Type.String()),
          callId: Nullable(Type.String({ description: 'The call (calls API), null for verification calls.' })),
          direction: StringEnum(['outbound', 'inbound'], { description: 'Seen from the account: outbound calls rang this phone, inbound calls came from it.' }),
          from: Type.String(),
          to: Type.String(),
          heard: Type.String({ description: 'Everything the phone heard, one text per line.' }),
          texts: Type.Array(Type.String(), { description: 'Each rendered say, prompt and hangup text, in order.' }),
          entered: Type.Array(Type.String(), { description: 'The entry at each menu or record prompt, in order; "" = none.' }),
          prompts: Type.Array(
            Type.Object(
              {
                heard: Type.String({ description: 'What the phone heard since its previous input, one text per line.' }),
                entered: Type.String(),
                answer: Type.String({ description: 'What chose the entry: reply:<index> (a reply matched), keys:<index> (the next entry of keys), or none.' }),
              },
              { additionalProperties: false },
            ),
            { description: 'Per menu or record prompt, in order.' },
          ),
          code: Nullable(Type.String()),
          answeredAt: DateTime(),
          conversation: Type.Optional(
            Type.Array(
              Type.Object(
                {
                  speaker: Type.String({ description: 'agent, caller (this phone when it called; the callee side is the phone too), or party (a transfer party).' }),
                  text: Nullable(Type.String({ description: 'What was said; null for audio the simulator cannot read or a turn that only records an event.' })),
                  startMs: Type.Number({ description: 'Milliseconds from the answer.' }),
                  endMs: Type.Number(),
                  dtmf: Nullable(Type.String({ description: 'Keys pressed with the turn.' })),
                },
                { additionalProperties: false },
              ),
              { description: 'Calls handled by an agent: the conversation, turn by turn.' },
            ),
          ),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { $id: 'SimPhone', additionalProperties: false },
);

export function scriptView(s: ScriptRow) {
  const { id, salt: _salt, ...rest } = s;
  return { scriptId: id, ...rest };
}

/** Exactly one of number and prefix, each normalised; a 400 before anything is stored. */
export function scriptTarget(body: { number?: string | null; prefix?: string | null }): { number: string | null; prefix: string | null } {
  const given = (['number', 'prefix'] as const).filter((k) => body[k] != null);
  if (given.length !== 1) {
    const message = given.length === 0 ? 'give number (one destination) or prefix (every destination starting with it)' : 'give number or prefix, not both';
    throw ApiError.validation(message, [{ path: given.length === 0 ? 'number' : 'prefix', message }]);
  }
  return body.number != null ? { number: normalizePhone(body.number, 'number'), prefix: null } : { number: null, prefix: normalizePrefix(body.prefix!, 'prefix') };
}

export function deliveryView(d: DeliveryRow) {
  const { id, redacted: _redacted, ...rest } = d;
  return { deliveryId: id, ...rest };
}

