// State of the webhook delivery engine (part of every snapshot) and the control plane's views of
// it. A delivery is one event on its way to one receiver; an attempt is one HTTP request of it.
// The stored rows are also the wire shapes of the journal, so what a test reads is what is kept.
import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Nullable, StringEnum } from '../../core/schema.ts';
import { withRules } from '../../core/schema-rules.ts';

export const METHODS = ['POST', 'GET'] as const;

/** The event name of the test delivery testWebhook sends; not subscribable. */
export const TEST_EVENT = 'webhook.test';
export type DeliveryMethod = (typeof METHODS)[number];

/** Where a delivery goes: an account webhook, a number's webhook settings, or a fixed URL. */
export const TargetSchema = Type.Union(
  [
    Type.Object({ kind: Type.Literal('webhook'), webhookId: Type.String() }, { additionalProperties: false }),
    Type.Object({ kind: Type.Literal('number'), number: Type.String() }, { additionalProperties: false }),
    Type.Object(
      { kind: Type.Literal('url'), url: Type.String(), method: StringEnum(METHODS), headers: Type.Record(Type.String(), Type.String()) },
      { additionalProperties: false },
    ),
  ],
  { $id: 'SimWebhookTarget', description: 'webhook: an account webhook (its current URL); number: a number\'s webhookUrl, webhookMethod and webhookHeaders; url: a fixed URL.' },
);
export type Target = Static<typeof TargetSchema>;

// Pairs as two-item arrays (Type.Tuple emits a draft-07 form OpenAPI 3.1 refuses).
const FormFieldPairs = Type.Array(Type.Array(Type.String(), { minItems: 2, maxItems: 2 }), { description: 'Form fields in the order sent, as [name, value] pairs.' });

export const DeliveryRowSchema = Type.Object(
  {
    id: Type.String(),
    accountId: Type.String(),
    event: Type.String(),
    resourceId: Type.String({ description: 'The id receivers key on (CallId, MessageId, LinkId...).' }),
    target: TargetSchema,
    fields: FormFieldPairs,
    duplicateOf: Nullable(Type.String({ description: 'Set on a duplicate injected through the control plane.' })),
    test: Type.Boolean({ description: 'Sent by testWebhook: one attempt, also to an inactive webhook.' }),
    status: StringEnum(['pending', 'delivered', 'failed']),
    phase: StringEnum(['queued', 'sending', 'waiting', 'done'], {
      description: 'queued: waiting for its receiver (one request at a time per receiver); sending: an attempt is in flight; waiting: a retry is scheduled on the virtual clock; done.',
    }),
    attempts: Type.Integer({ minimum: 0, description: 'Attempts started.' }),
    maxAttempts: Type.Integer({ minimum: 1 }),
    queuedSeq: Nullable(Type.Integer({ description: 'Position in its receiver\'s queue while queued or sending.' })),
    nextAttemptAt: Nullable(DateTime({ description: 'Virtual instant of the scheduled retry.' })),
    createdAt: DateTime(),
    finishedAt: Nullable(DateTime()),
    reason: Nullable(Type.String({ description: 'Why the last attempt failed, or why the delivery was dropped.' })),
  },
  { $id: 'SimWebhookDelivery', additionalProperties: false },
);
export type DeliveryRow = Omit<Static<typeof DeliveryRowSchema>, 'fields'> & { fields: [string, string][] };

export const AttemptRowSchema = Type.Object(
  {
    id: Type.String(),
    deliveryId: Type.String(),
    accountId: Type.String(),
    event: Type.String(),
    resourceId: Type.String(),
    webhookId: Nullable(Type.String()),
    number: Nullable(Type.String()),
    duplicateOf: Nullable(Type.String()),
    attempt: Type.Integer({ minimum: 1 }),
    maxAttempts: Type.Integer({ minimum: 1 }),
    method: StringEnum(METHODS),
    url: Type.String({ description: 'The URL requested, with its query string (what the signature covers).' }),
    requestHeaders: Type.Record(Type.String(), Type.String(), { description: 'Headers sent by the engine (the HTTP client adds Host, Content-Length and Connection).' }),
    requestBody: Type.String({ description: 'The form-encoded body; "" for GET.' }),
    requestFields: Type.Record(Type.String(), Type.String()),
    status: StringEnum(['pending', 'delivered', 'failed']),
    responseStatus: Nullable(Type.Integer()),
    responseBody: Nullable(Type.String({ description: 'The first 2048 bytes of the answer.' })),
    responseBodyTruncated: Type.Boolean(),
    latencyMs: Nullable(Type.Integer({ description: 'Wall-clock milliseconds the attempt took.' })),
    error: Nullable(Type.String({ description: 'timeout, connection refused, connection closed, redirect not followed, ...' })),
    createdAt: DateTime({ description: 'Virtual instant the attempt started.' }),
    completedAt: Nullable(DateTime()),
  },
  { $id: 'SimWebhookAttempt', additionalProperties: false },
);
export type AttemptRow = Static<typeof AttemptRowSchema>;

export const SigningKeyRowSchema = Type.Object({ accountId: Type.String(), signingKey: Type.String() }, { additionalProperties: false });
export type SigningKeyRow = Static<typeof SigningKeyRowSchema>;

export const EngineStateSchema = Type.Object(
  {
    nextDelivery: Type.Integer({ minimum: 1 }),
    nextQueued: Type.Integer({ minimum: 1 }),
    deliveries: Type.Array(DeliveryRowSchema),
    attempts: Type.Array(AttemptRowSchema),
    signingKeys: Type.Array(SigningKeyRowSchema),
  },
  { additionalProperties: false },
);
export type EngineState = Omit<Static<typeof EngineStateSchema>, 'deliveries'> & { deliveries: DeliveryRow[] };

/** Filters of the control plane's journal and delivery views. */
export interface JournalFilter {
  event?: string;
  resourceId?: string;
  accountId?: string;
  webhookId?: string;
  number?: string;
  deliveryId?: string;
  status?: 'pending' | 'delivered' | 'failed';
}

/** Header names a receiver's extra headers may not use (the signature and proxy headers). */
const RESERVED_HEADER_NAME = '^[Xx]-(?:[Ss][Ii][Gg][Nn][Aa][Tt][Uu][Rr][Ee]|[Ff][Oo][Rr][Ww][Aa][Rr][Dd][Ee][Dd]-.*|[Rr][Ee][Aa][Ll]-[Ii][Pp])$';

/**
 * Extra headers sent to a receiver (numbers, assignment links): names "X-" and token characters
 * (64 at most), not X-Signature, X-Forwarded-* or X-Real-IP; values printable ASCII up to 2048
 * characters; at most 10.
 */
export function ExtraHeaders(description: string) {
  return withRules(
    Type.Record(Type.String({ pattern: "^[Xx]-[!#$%&'*+.^_`|~0-9A-Za-z-]{1,62}$" }), Type.String({ maxLength: 2048, pattern: '^[\\x20-\\x7e]*$' }), {
      maxProperties: 10,
      additionalProperties: false,
      description,
    }),
    [{ description: 'X-Signature, X-Forwarded-* and X-Real-IP are reserved.', schema: { propertyNames: { not: { pattern: RESERVED_HEADER_NAME } } } }],
  );
}
