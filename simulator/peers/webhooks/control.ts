// The webhook delivery engine's /_sim routes (docs/control-plane.md "Webhooks"): the signing
// key per account, the journal of every attempt and the deliveries behind them, triggering any
// event, injecting a duplicate delivery, and waiting until deliveries in flight have settled.
import { Type } from '@sinclair/typebox';
import { reply } from '../../core/operation.ts';
import { ApiError } from '../../core/errors.ts';
import { sharedErrors } from '../../rules/errors.ts';
import { DateTime, Nullable, StringEnum } from '../../core/schema.ts';
import { checkWebhookHeaders } from './headers.ts';
import { deliveryErrors } from './engine.ts';
import { receiverErrors } from './receiver-policy.ts';
import { operation, type EngineScope } from './scope.ts';
import { AttemptRowSchema, DeliveryRowSchema, METHODS, type JournalFilter } from './schema.ts';
import { withRules } from '../../core/schema-rules.ts';

const TAG = 'Control plane';
const accountParam = { accountId: Type.String() };

const SigningKeyView = Type.Object(
  { accountId: Type.String(), signingKey: Type.String({ description: 'HMAC-SHA256 key of the X-Signature header.' }) },
  { $id: 'SimSigningKey', additionalProperties: false },
);
const SetSigningKeyBody = Type.Object(
  {
    signingKey: Type.Optional(
      Type.String({ minLength: 8, maxLength: 256, pattern: '^[\\x21-\\x7e]+$', description: 'The key to use (printable ASCII, no spaces); omit to draw a new one.' }),
    ),
  },
  { additionalProperties: false },
);

const filterQuery = {
  event: Type.String({ description: 'Event name, e.g. callflow.ended.' }),
  resourceId: Type.String({ description: 'The id receivers key on (CallId, MessageId, LinkId...).' }),
  accountId: Type.String(),
  webhookId: Type.String(),
  number: Type.String({ description: 'Deliveries to this number\'s webhook.' }),
  deliveryId: Type.String(),
  status: StringEnum(['pending', 'delivered', 'failed']),
};

const Journal = Type.Object({ data: Type.Array(AttemptRowSchema) }, { $id: 'SimWebhookJournal', additionalProperties: false });
const Deliveries = Type.Object({ data: Type.Array(DeliveryRowSchema) }, { $id: 'SimWebhookDeliveries', additionalProperties: false });
const Caused = Type.Object(
  { deliveries: Type.Array(DeliveryRowSchema, { description: 'One per receiver; empty when nobody receives this event.' }) },
  { $id: 'SimWebhookTriggered', additionalProperties: false },
);

const TriggerBody = Type.Object(
  {
    accountId: Type.String({ minLength: 1 }),
    type: Type.String({ minLength: 1, maxLength: 100, description: 'Any event name; subscribed webhooks and routes receive it as if a resource had emitted it.' }),
    payload: Type.Record(Type.String({ minLength: 1, maxLength: 100 }), Type.Unknown(), {
      description: 'The form fields. Strings go as they are, numbers and booleans as text, objects as JSON text; null is left out.',
    }),
    resourceId: Type.Optional(Type.String({ description: 'Default: the payload\'s CallId, MessageId or LinkId.' })),
    to: Type.Optional(
      Type.Object(
        {
          url: Type.String({ minLength: 1, maxLength: 2048 }),
          method: Type.Optional(StringEnum(METHODS, { default: 'POST' })),
          headers: Type.Optional(
            Type.Record(Type.String(), Type.String(), {
              description: 'Extra headers, with the rules of a number\'s webhookHeaders: names start with "X-"; X-Signature, X-Forwarded-* and X-Real-IP are reserved.',
            }),
          ),
        },
        { additionalProperties: false, description: 'Send to this URL only, instead of the subscribed webhooks and routes.' },
      ),
    ),
  },
  { $id: 'SimWebhookTrigger', additionalProperties: false },
);

const DuplicateBody = withRules(
  Type.Object(
    {
      deliveryId: Type.Optional(Type.String({ minLength: 1 })),
      resourceId: Type.Optional(Type.String({ minLength: 1, description: 'Duplicate the newest delivery for this resource (and event, and account when given).' })),
      event: Type.Optional(Type.String({ minLength: 1 })),
      accountId: Type.Optional(Type.String({ minLength: 1 })),
    },
    { $id: 'SimWebhookDuplicateRequest', additionalProperties: false },
  ),
  [{ description: 'Exactly one of deliveryId and resourceId.', code: 'VALIDATION', schema: { oneOf: [{ required: ['deliveryId'], properties: { deliveryId: {} } }, { required: ['resourceId'], properties: { resourceId: {} } }] } }],
);
const Duplicated = Type.Object({ delivery: DeliveryRowSchema }, { $id: 'SimWebhookDuplicated', additionalProperties: false });

const Settled = Type.Object(
  {
    now: DateTime(),
    inFlight: Type.Integer({ description: 'Always 0: the answer comes once nothing is queued or in flight.' }),
    waiting: Type.Integer({ description: 'Deliveries whose next attempt is a retry scheduled on the virtual clock.' }),
    nextRetryAt: Nullable(DateTime()),
  },
  { $id: 'SimWebhookSettled', additionalProperties: false },
);

const ID_FIELDS = ['CallId', 'MessageId', 'LinkId'];

function settledView(scope: EngineScope) {
  const waiting = scope.webhookEngine.listDeliveries({ status: 'pending' }).filter((d) => d.phase === 'waiting');
  const next = waiting.map((d) => d.nextAttemptAt!).sort()[0] ?? null;
  return { now: scope.clock.nowIso(), inFlight: 0, waiting: waiting.length, nextRetryAt: next };
}

function signingKeyView(scope: EngineScope, accountId: string) {
  scope.accounts.require(accountId);
  return { accountId, signingKey: scope.webhookEngine.signingKeys.get(accountId) };
}

export const operations = [
  operation({
    operationId: 'simGetSigningKey',
    method: 'GET',
    path: '/_sim/accounts/{accountId}/signing-key',
    tag: TAG,
    summary: 'The account\'s webhook signing key',
    description: 'Receivers verify X-Signature with it (docs/webhooks.md). The key is never shown anywhere else. Until rotated or set it is derived from the seed and the account id, so the same seed gives the same key.',
    origin: 'simulator',
    auth: 'control',
    params: accountParam,
    responses: { 200: { description: 'The key.', schema: SigningKeyView } },
    errors: [sharedErrors.ACCOUNT_NOT_FOUND],
    handler: ({ scope, params }) => reply.ok(signingKeyView(scope, params.accountId)),
  }),
  operation({
    operationId: 'simSetSigningKey',
    method: 'PUT',
    path: '/_sim/accounts/{accountId}/signing-key',
    tag: TAG,
    summary: 'Set or rotate the account\'s webhook signing key',
    description: 'With `signingKey`, use that key (for an app with the key in its configuration); without, draw a new one. Attempts from now on, retries included, are signed with the new key.',
    origin: 'simulator',
    auth: 'control',
    params: accountParam,
    body: SetSigningKeyBody,
    responses: { 200: { description: 'The new key.', schema: SigningKeyView } },
    errors: [sharedErrors.ACCOUNT_NOT_FOUND],
    handler: ({ scope, params, body }) => {
      scope.accounts.require(params.accountId);
      const keys = scope.webhookEngine.signingKeys;
      if (body?.signingKey !== undefined) keys.set(params.accountId, body.signingKey);
      else keys.rotate(params.accountId, scope.random);
      return reply.ok(signingKeyView(scope, params.accountId));
    },
  }),
  operation({
    operationId: 'simWebhookJournal',
    method: 'GET',
    path: '/_sim/webhooks/journal',
    tag: TAG,
    summary: 'Every webhook attempt: time, URL, request headers and body, status, latency',
    description: 'In the order the attempts started (virtual time, then delivery). Includes deliveries to numbers\' webhooks and test sends. The signing key never appears; X-Signature does.',
    origin: 'simulator',
    auth: 'control',
    query: filterQuery,
    responses: { 200: { description: 'Matching attempts.', schema: Journal } },
    handler: ({ scope, query }) => reply.ok({ data: scope.webhookEngine.journal(query as JournalFilter) }),
  }),
  operation({
    operationId: 'simClearWebhookJournal',
    method: 'DELETE',
    path: '/_sim/webhooks/journal',
    tag: TAG,
    summary: 'Forget finished attempts and deliveries',
    description: 'Also empties the public webhook logs, which show the same attempts. Deliveries still under way (in flight or waiting for a retry) continue and stay listed.',
    origin: 'simulator',
    auth: 'control',
    responses: { 204: { description: 'Cleared.' } },
    handler: ({ scope }) => {
      scope.webhookEngine.clearJournal();
      return reply.noContent();
    },
  }),
  operation({
    operationId: 'simWebhookDeliveries',
    method: 'GET',
    path: '/_sim/webhooks/deliveries',
    tag: TAG,
    summary: 'Deliveries: one event to one receiver, with its progress',
    description: 'status pending/delivered/failed; phase queued/sending/waiting (a retry is scheduled at nextAttemptAt)/done; reason says why the last attempt failed or why the delivery was dropped. In creation order.',
    origin: 'simulator',
    auth: 'control',
    query: filterQuery,
    responses: { 200: { description: 'Matching deliveries.', schema: Deliveries } },
    handler: ({ scope, query }) => reply.ok({ data: scope.webhookEngine.listDeliveries(query as JournalFilter) }),
  }),
  operation({
    operationId: 'simTriggerWebhookEvent',
    method: 'POST',
    path: '/_sim/webhooks/events',
    tag: TAG,
    summary: 'Send any event with a given payload (receiver tests)',
    description: 'Emits the event on the simulator\'s event bus: subscribed webhooks and routes (a number\'s webhook for message.received) receive it exactly as if a resource had emitted it. With `to`, it goes to that URL only.',
    origin: 'simulator',
    auth: 'control',
    body: TriggerBody,
    bodyRequired: true,
    responses: { 202: { description: 'The deliveries it caused, queued.', schema: Caused } },
    errors: [sharedErrors.ACCOUNT_NOT_FOUND, receiverErrors.URL_BLOCKED],
    handler: ({ scope, body }) => {
      scope.accounts.require(body.accountId);
      const named = ID_FIELDS.map((f) => body.payload[f]).find((v) => typeof v === 'string') as string | undefined;
      const event = { type: body.type, accountId: body.accountId, resourceId: body.resourceId ?? named ?? '', at: scope.clock.now(), payload: body.payload };
      const engine = scope.webhookEngine;
      if (!body.to) return reply.json(202, JSON.stringify({ deliveries: engine.emit(event) }));
      const headers = body.to.headers ?? {};
      checkWebhookHeaders(headers, 'to.headers');
      const url = scope.receiverPolicy.check(body.to.url, 'to.url');
      const deliveries = engine.deliver(event, [{ kind: 'url', url, method: body.to.method ?? 'POST', headers }]);
      return reply.json(202, JSON.stringify({ deliveries }));
    },
  }),
  operation({
    operationId: 'simDuplicateWebhookDelivery',
    method: 'POST',
    path: '/_sim/webhooks/duplicates',
    tag: TAG,
    summary: 'Deliver an event once more (at-least-once: receivers must be idempotent)',
    description: 'Give `deliveryId`, or `resourceId` (with `event`, `accountId` to narrow) to pick the newest matching delivery. The same form fields go to the same receiver as a new delivery with `duplicateOf` set; receivers see the same CallId again.',
    origin: 'simulator',
    auth: 'control',
    body: DuplicateBody,
    bodyRequired: true,
    responses: { 202: { description: 'The duplicate, queued.', schema: Duplicated } },
    errors: [deliveryErrors.DELIVERY_NOT_FOUND],
    handler: ({ scope, body }) => {
      if ((body.deliveryId === undefined) === (body.resourceId === undefined)) {
        throw ApiError.validation('give exactly one of "deliveryId" and "resourceId"', [{ path: '', message: 'deliveryId or resourceId' }]);
      }
      const engine = scope.webhookEngine;
      const original = body.deliveryId ?? engine.latest({ resourceId: body.resourceId, event: body.event, accountId: body.accountId })?.id;
      if (original === undefined) throw deliveryErrors.DELIVERY_NOT_FOUND(`no delivery for resource ${body.resourceId}${body.event ? ` and event ${body.event}` : ''}`);
      return reply.json(202, JSON.stringify({ delivery: engine.duplicate(original) }));
    },
  }),
  operation({
    operationId: 'simSettleWebhooks',
    method: 'POST',
    path: '/_sim/webhooks/settle',
    tag: TAG,
    summary: 'Wait until no webhook attempt is queued or in flight',
    description: 'Answers once every attempt started so far has its outcome (bounded by the receiver timeout). Retries scheduled on the virtual clock are not waited for; `waiting` counts them, and advancing the clock sends them.',
    origin: 'simulator',
    auth: 'control',
    responses: { 200: { description: 'Settled.', schema: Settled } },
    handler: ({ scope }) => {
      if (!scope.io.busy) return reply.ok(settledView(scope));
      return scope.io.settled().then(() => reply.ok(settledView(scope)));
    },
  }),
];
