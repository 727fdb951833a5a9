// Stored shapes of accounts and plans (snapshot format) and the control-plane account bodies.
import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Nullable, StringEnum } from '../../core/schema.ts';
import { ADDONS, PlanFixture } from '../../fixture/schema.ts';
import type { IdFormat } from '../../core/ids.ts';

/** Id formats of this family's rows (core/ids.ts; listed in resources/index.ts). */
export const ACCOUNT_IDS = {
  account: { prefix: 'AC', hex: 8 },
  apiKey: { prefix: 'sk_test_', hex: 32 },
} as const satisfies Record<string, IdFormat>;

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
      Type.Union([Type.Integer({ minimum: 0, maximum: 100 }), Type.Array(Type.String())], {
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
