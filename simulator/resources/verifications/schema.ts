// One-time-code verifications (spec "Verification", "Verification list"). Fields are the
// spec's, camelCase like every response; the code never appears in any of them.
import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Nullable, PhoneNumber, StringEnum } from '../../core/schema.ts';
import { ListMetaSchema } from '../../core/paging.ts';
import type { IdFormat } from '../../core/ids.ts';

/** Id formats of this family's rows (core/ids.ts; listed in resources/index.ts). */
export const VERIFICATION_IDS = {
  verification: { prefix: 'VE', hex: 32 },
} as const satisfies Record<string, IdFormat>;

export const VERIFICATION_STATUSES = ['pending', 'verified', 'expired', 'max_attempts', 'canceled', 'failed'] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];
export const VERIFICATION_CHANNELS = ['sms', 'call'] as const;
export type VerificationChannel = (typeof VERIFICATION_CHANNELS)[number];

/** spec Limits: 5 attempts per verification. */
export const MAX_ATTEMPTS = 5;
export const CODE_LENGTH = { min: 4, max: 10, default: 6 } as const;
export const TTL_SECONDS = { min: 60, max: 3600, default: 300 } as const;

const Instruction = Type.Object(
  {
    type: Type.Optional(Type.String()),
    sendTo: Type.Optional(Type.String()),
    body: Type.Optional(Type.String()),
    callTo: Type.Optional(Type.String()),
    code: Type.Optional(Type.String()),
    deadline: Type.Optional(DateTime()),
  },
  { description: 'For channels where the end user sends the code; null for sms and call, where the service delivers it.' },
);

export const Verification = Type.Object(
  {
    verificationId: Type.String({ description: '"VE" followed by 32 hex digits.' }),
    status: StringEnum(VERIFICATION_STATUSES),
    channel: StringEnum(VERIFICATION_CHANNELS),
    to: Type.String({ description: 'Domestic notation.' }),
    from: Type.String({ description: 'The account-owned number used to send.' }),
    codeLength: Type.Integer(),
    remainingAttempts: Type.Integer({ description: `Starts at ${MAX_ATTEMPTS}; every code comparison uses one.` }),
    expiresAt: DateTime(),
    createdAt: DateTime(),
    verifiedAt: Nullable(DateTime()),
    instruction: Nullable(Instruction),
  },
  { $id: 'Verification', additionalProperties: false },
);

export const VerificationList = Type.Object(
  { data: Type.Array(Verification), meta: ListMetaSchema },
  { $id: 'VerificationList', additionalProperties: false },
);

export const CreateVerificationBody = Type.Object(
  {
    channel: Type.Optional(StringEnum(VERIFICATION_CHANNELS, { default: 'sms', description: 'sms (a text with the code) or call (a voice call that reads it).' })),
    to: PhoneNumber({ description: 'The phone to verify; hyphens and +82 accepted.' }),
    from: Type.Optional(Nullable(PhoneNumber({ description: 'A number the account owns; default: its oldest number.' }))),
    codeLength: Type.Optional(
      Type.Integer({ minimum: CODE_LENGTH.min, maximum: CODE_LENGTH.max, default: CODE_LENGTH.default, description: 'Digits in the code.' }),
    ),
    ttlSeconds: Type.Optional(
      Type.Integer({ minimum: TTL_SECONDS.min, maximum: TTL_SECONDS.max, default: TTL_SECONDS.default, description: 'Seconds until the verification expires.' }),
    ),
  },
  { $id: 'CreateVerificationRequest', additionalProperties: false },
);
export type CreateVerificationInput = Static<typeof CreateVerificationBody>;

export const CheckVerificationBody = Type.Object(
  { code: Type.String({ minLength: 1, maxLength: 32, description: 'The code the end user entered: exactly codeLength digits.' }) },
  { $id: 'CheckVerificationRequest', additionalProperties: false },
);

// --- stored state ---

export const VerificationRowSchema = Type.Object(
  {
    id: Type.String(), // the verificationId
    accountId: Type.String(),
    status: StringEnum(VERIFICATION_STATUSES),
    channel: StringEnum(VERIFICATION_CHANNELS),
    to: Type.String(),
    from: Type.String(),
    codeLength: Type.Integer(),
    codeHash: Type.String(), // sha256 of "<verificationId>:<code>", hex; the code itself is kept nowhere
    remainingAttempts: Type.Integer({ minimum: 0 }),
    expiresAt: DateTime(),
    createdAt: DateTime(),
    verifiedAt: Nullable(DateTime()),
  },
  { additionalProperties: false },
);
export type VerificationRow = Static<typeof VerificationRowSchema>;

export const VerificationsStateSchema = Type.Object({ verifications: Type.Array(VerificationRowSchema) }, { additionalProperties: false });
export type VerificationsState = Static<typeof VerificationsStateSchema>;
