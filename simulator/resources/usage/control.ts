// The usage family's /_sim routes: record usage the way a resource would, for meters whose
// resources the simulator does not run yet (call, transfer, transcription and summary seconds,
// detection runs, brand messages), so settlement code can be tested against getUsage now.
// Documented in docs/control-plane.md, "Usage".
import { Type } from '@sinclair/typebox';
import { reply } from '../../core/operation.ts';
import { errorCodes } from '../../core/errors.ts';
import { DateTime, Nullable, PhoneNumber, StringEnum } from '../../core/schema.ts';
import { accountErrors } from '../accounts/errors.ts';
import { METERS, UsageEntrySchema } from './schema.ts';
import { operation } from './scope.ts';
import { withRules } from '../../core/schema-rules.ts';

const TAG = 'Control plane';
const accountParam = { accountId: Type.String() };

const InjectBody = withRules(
  Type.Object(
    {
      meter: StringEnum(METERS),
      quantity: Type.Number({ minimum: 0, maximum: 1e12, description: 'Seconds for *_seconds meters, a whole count otherwise.' }),
      at: Type.Optional(DateTime({ description: 'When it happened (not after now); default now. Its UTC day is the day axis.' })),
      phoneNumber: Type.Optional(Nullable(PhoneNumber({ description: 'The account number involved; any accepted spelling.' }))),
      linkId: Type.Optional(Nullable(Type.String({ minLength: 1, description: 'The assignment link that number was held through.' }))),
    },
    { $id: 'SimUsageInjectRequest', additionalProperties: false },
  ),
  [{ description: 'A whole quantity for the count meters (those not in seconds).', code: 'VALIDATION', schema: { if: { properties: { meter: { not: { pattern: '_seconds$' } } } }, then: { properties: { quantity: { type: 'integer' } } } } }],
);
const EntryList = Type.Object({ data: Type.Array(UsageEntrySchema) }, { $id: 'SimUsageEntries', additionalProperties: false });

export const operations = [
  operation({
    operationId: 'simRecordUsage',
    method: 'POST',
    path: '/_sim/accounts/{accountId}/usage',
    tag: TAG,
    summary: 'Record usage as a resource would',
    description: 'For meters of resources the simulator does not run yet. getUsage adds these entries to what the simulated resources recorded (sent messages).',
    origin: 'simulator',
    auth: 'control',
    params: accountParam,
    body: InjectBody,
    bodyRequired: true,
    responses: { 201: { description: 'The recorded entry.', schema: UsageEntrySchema } },
    errors: [accountErrors.ACCOUNT_NOT_FOUND, errorCodes.INVALID_PHONE_NUMBER, errorCodes.UNSUPPORTED_COUNTRY],
    handler: ({ scope, params, body }) => reply.created(scope.usage.inject(params.accountId, body)),
  }),
  operation({
    operationId: 'simListRecordedUsage',
    method: 'GET',
    path: '/_sim/accounts/{accountId}/usage',
    tag: TAG,
    summary: 'Usage recorded through the control plane',
    origin: 'simulator',
    auth: 'control',
    params: accountParam,
    responses: { 200: { description: 'Entries in the order recorded.', schema: EntryList } },
    errors: [accountErrors.ACCOUNT_NOT_FOUND],
    handler: ({ scope, params }) => reply.ok({ data: scope.usage.injectedFor(params.accountId) }),
  }),
  operation({
    operationId: 'simClearRecordedUsage',
    method: 'DELETE',
    path: '/_sim/accounts/{accountId}/usage',
    tag: TAG,
    summary: 'Forget usage recorded through the control plane',
    description: 'Usage the simulated resources recorded (messages) stays.',
    origin: 'simulator',
    auth: 'control',
    params: accountParam,
    responses: { 204: { description: 'Cleared.' } },
    errors: [accountErrors.ACCOUNT_NOT_FOUND],
    handler: ({ scope, params }) => {
      scope.usage.clearInjected(params.accountId);
      return reply.noContent();
    },
  }),
];
