// Account webhooks and their delivery logs, shaped exactly after the public API document
// (createWebhook, listWebhooks, updateWebhook, deleteWebhook, listWebhookLogs, testWebhook;
// WebhookResponse with snake_case `account_id` and `created_at`, WebhookLogResponse).
import { Type, type Static } from '@sinclair/typebox';
import { DateTime, HttpUrl, Nullable, StringEnum, StringEnumRefusedBy } from '../../core/schema.ts';
import { ListMetaSchema } from '../../core/paging.ts';
import type { IdFormat } from '../../core/ids.ts';
import { atLeastOneField } from '../../core/schema-rules.ts';
import { sharedErrors } from '../../rules/errors.ts';

const NOTHING = sharedErrors.NOTHING_TO_UPDATE.info.code;

/** Id formats of this family's rows (core/ids.ts; listed in resources/index.ts). */
export const WEBHOOK_IDS = {
  webhook: { prefix: 'WH', hex: 16 },
} as const satisfies Record<string, IdFormat>;

const Url = HttpUrl({ description: 'Receives the events.' });
// The enum documents the names (as the reference does); the model checks them, so that an
// unknown name gets its own code (UNKNOWN_EVENT, naming the known ones) instead of a generic
// validation error. The names are the subscribable events every descriptor declares
// (`events`), known once the list is built.
const eventsSchema = (events: readonly string[]) =>
  Type.Array(StringEnumRefusedBy('UNKNOWN_EVENT', events, { description: 'An event name; any other is 400 UNKNOWN_EVENT.' }), {
    minItems: 1,
    maxItems: 50,
    description: 'Events to receive. Duplicates are kept once.',
  });

export const Webhook = Type.Object(
  {
    id: Type.String(),
    account_id: Type.String(),
    url: Type.String(),
    events: Type.Array(Type.String()),
    active: Type.Boolean({ description: 'Inactive webhooks receive nothing; pending retries to them are dropped.' }),
    created_at: DateTime(),
  },
  { $id: 'WebhookResponse', additionalProperties: false },
);
export type WebhookWire = Static<typeof Webhook>;

export const WebhookList = Type.Object({ data: Type.Array(Webhook) }, { $id: 'WebhookList', additionalProperties: false });

/** createWebhook's body, for the subscribable events the list declares. */
export const createWebhookBody = (events: readonly string[]) =>
  Type.Object({ url: Url, events: eventsSchema(events) }, { $id: 'CreateWebhookRequest', additionalProperties: false });
export type CreateWebhookInput = Static<ReturnType<typeof createWebhookBody>>;

/** updateWebhook's body, for the subscribable events the list declares. */
export const updateWebhookBody = (events: readonly string[]) =>
  atLeastOneField(
    Type.Object(
      { url: Type.Optional(Url), events: Type.Optional(eventsSchema(events)), active: Type.Optional(Type.Boolean()) },
      { $id: 'UpdateWebhookRequest', additionalProperties: false },
    ),
    NOTHING,
  );
export type UpdateWebhookInput = Static<ReturnType<typeof updateWebhookBody>>;

export const WebhookLog = Type.Object(
  {
    id: Type.String(),
    webhookId: Type.String(),
    event: Type.String(),
    requestUrl: Type.String({ description: 'The URL the attempt was sent to.' }),
    requestPayload: Type.Record(Type.String(), Type.String(), { description: 'The form fields sent.' }),
    responseStatus: Nullable(Type.Integer({ description: 'null when no HTTP answer came (timeout, connection error).' })),
    responseBody: Nullable(Type.String({ description: 'The first 2048 bytes of the answer, decoded as UTF-8.' })),
    responseTimeMs: Nullable(Type.Integer({ description: 'Wall-clock time of the attempt; null while pending or without an answer.' })),
    status: StringEnum(['pending', 'delivered', 'failed'], { description: 'pending while the attempt is in flight; delivered on a 2xx answer; failed otherwise.' }),
    attempt: Type.Integer({ minimum: 1 }),
    maxAttempts: Type.Integer({ minimum: 1 }),
    createdAt: DateTime({ description: 'Virtual instant the attempt started.' }),
    completedAt: Nullable(DateTime()),
  },
  { $id: 'WebhookLogResponse', additionalProperties: false },
);

export const WebhookLogList = Type.Object(
  { data: Type.Array(WebhookLog), meta: ListMetaSchema },
  { $id: 'WebhookLogListResponse', additionalProperties: false },
);

export const WebhookTestResult = Type.Object(
  {
    ok: Type.Boolean({ description: 'Whether the receiver answered with a 2xx status.' }),
    message: Type.String(),
  },
  { $id: 'WebhookTestResponse', additionalProperties: false },
);

// --- stored state ---

export const WebhookRowSchema = Type.Object(
  {
    id: Type.String(),
    accountId: Type.String(),
    url: Type.String(),
    events: Type.Array(Type.String()),
    active: Type.Boolean(),
    createdAt: DateTime(),
  },
  { additionalProperties: false },
);
export type WebhookRow = Static<typeof WebhookRowSchema>;

export const WebhooksStateSchema = Type.Object({ webhooks: Type.Array(WebhookRowSchema) }, { additionalProperties: false });
export type WebhooksState = Static<typeof WebhooksStateSchema>;
