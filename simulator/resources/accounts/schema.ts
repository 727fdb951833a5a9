// Stored shapes of accounts and plans (snapshot format), a plan's limits as the fixture and the
// control plane give them, the add-ons, and the control-plane account bodies.
import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Nullable, PhoneNumber, StringEnum } from '../../core/schema.ts';
import type { IdFormat } from '../../core/ids.ts';

/** Id formats of this family's rows (core/ids.ts; listed in resources/index.ts). */
export const ACCOUNT_IDS = {
  account: { prefix: 'AC', hex: 8 },
  apiKey: { prefix: 'sk_test_', hex: 32 },
} as const satisfies Record<string, IdFormat>;

/** Add-ons an account can hold. `external_assignment` is the managed-number add-on. */
export const ADDONS = ['external_assignment', 'sip_trunk', 'representative_number', 'sms_overage', 'lms_overage', 'mms_overage'] as const;
export type Addon = (typeof ADDONS)[number];

export const PlanFixture = Type.Object(
  {
    name: Type.String({ minLength: 1, description: 'Display name.' }),
    lineLimit: Type.Integer({ minimum: 0, description: 'Numbers the account may hold at once.' }),
    monthlyMessageQuota: Type.Object(
      {
        sms: Type.Integer({ minimum: 0 }),
        lms: Type.Integer({ minimum: 0 }),
        mms: Type.Integer({ minimum: 0 }),
        ata: Type.Integer({ minimum: 0 }),
        bms: Type.Optional(Type.Integer({ minimum: 0, description: 'Brand messages; default: the ata cap (both go over the messenger).' })),
      },
      { additionalProperties: false, description: 'Messages per calendar month and type; 0 means the type is not offered.' },
    ),
  },
  { additionalProperties: false },
);

export const PlanRowSchema = Type.Composite([Type.Object({ id: Type.String() }), PlanFixture], { additionalProperties: false });
export type PlanRow = Static<typeof PlanRowSchema>;

export const SubscriptionSchema = Type.Object(
  {
    status: StringEnum(['active', 'inactive']),
    startedAt: DateTime(),
  },
  { additionalProperties: false },
);

export const MessagingOpsSchema = Type.Object(
  {
    blocked: Type.Boolean({ description: 'Operations barred the account from texting: every send is 403 messaging_blocked.' }),
    monthlyCap: Nullable(Type.Integer({ minimum: 0, description: 'An operations-imposed cap on outbound messages of all types per UTC calendar month (422 override_quota_exceeded once reached); null: none.' })),
  },
  { additionalProperties: false },
);
export type MessagingOps = Static<typeof MessagingOpsSchema>;

export const AccountRowSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    plan: Type.String(),
    addons: Type.Array(Type.String()),
    subscription: SubscriptionSchema,
    apiKeys: Type.Array(Type.String()),
    ipExceptions: Type.Array(Type.String()),
    messagingOps: MessagingOpsSchema,
    createdAt: DateTime(),
  },
  { additionalProperties: false },
);
export type AccountRow = Static<typeof AccountRowSchema>;

export const AccountsStateSchema = Type.Object(
  { plans: Type.Array(PlanRowSchema), accounts: Type.Array(AccountRowSchema) },
  { additionalProperties: false },
);
export type AccountsState = Static<typeof AccountsStateSchema>;

// --- control plane bodies ---

export const CreateAccountBody = Type.Object(
  {
    accountId: Type.Optional(Type.String({ pattern: '^AC[A-Za-z0-9]{1,64}$' })),
    name: Type.Optional(Type.String({ minLength: 1 })),
    plan: Type.Optional(Type.String({ minLength: 1, description: 'A plan key from the fixture; default "business".' })),
    addons: Type.Optional(Type.Array(StringEnum(ADDONS))),
    subscription: Type.Optional(
      Type.Object(
        {
          status: Type.Optional(StringEnum(['active', 'inactive'])),
          startedAt: Type.Optional(DateTime()),
        },
        { additionalProperties: false },
      ),
    ),
    numbers: Type.Optional(
      Type.Union([Type.Integer({ minimum: 0, maximum: 100 }), Type.Array(PhoneNumber())], {
        description: 'How many numbers to issue from the pool (default 1), or the exact numbers to own.',
      }),
    ),
    apiKeys: Type.Optional(
      Type.Array(Type.String({ pattern: '^[A-Za-z0-9_\\-]{8,128}$' }), {
        minItems: 1,
        maxItems: 20,
        description: 'The account\'s API keys (as in a fixture), for making an account again after a reset with the keys its users hold; default: one new key.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const CreatedAccount = Type.Object(
  { accountId: Type.String(), apiKey: Type.String(), numbers: Type.Array(Type.String()) },
  { additionalProperties: false },
);

export const UpdateAccountBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1 })),
    plan: Type.Optional(Type.String({ minLength: 1 })),
    addons: Type.Optional(Type.Array(StringEnum(ADDONS))),
    subscription: Type.Optional(SubscriptionSchema),
    ipExceptions: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
    messagingOps: Type.Optional(
      Type.Object(
        {
          blocked: Type.Optional(MessagingOpsSchema.properties.blocked),
          monthlyCap: Type.Optional(MessagingOpsSchema.properties.monthlyCap),
        },
        { additionalProperties: false, description: 'Controls the service\'s operations staff set; omitted fields stay.' },
      ),
    ),
  },
  { additionalProperties: false },
);

export const AccountView = Type.Object(
  {
    accountId: Type.String(),
    name: Type.String(),
    plan: Type.String(),
    addons: Type.Array(Type.String()),
    subscription: SubscriptionSchema,
    subscriptionActive: Type.Boolean(),
    apiKeys: Type.Array(Type.String()),
    ipExceptions: Type.Array(Type.String()),
    messagingOps: MessagingOpsSchema,
    numbers: Type.Array(Type.String()),
    createdAt: DateTime(),
  },
  { additionalProperties: false },
);
