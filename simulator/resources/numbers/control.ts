// The numbers' /_sim route: grant an account a number without the plan and subscription checks
// (docs/control-plane.md, "Accounts"). It changes the numbers' state, so it is theirs, beside
// the accounts' own routes at the same path prefix.
import { Type } from '@sinclair/typebox';
import { reply } from '../../core/operation.ts';
import { operation } from './scope.ts';
import { errorCodes } from '../../core/errors.ts';
import { PhoneNumber as PhoneNumberString } from '../../core/schema.ts';
import { accountErrors } from '../accounts/errors.ts';
import { PhoneNumber } from './schema.ts';
import { numberWire } from './routes.ts';

const GrantNumberBody = Type.Object({ number: Type.Optional(PhoneNumberString()) }, { additionalProperties: false });

export const operations = [
  operation({
    operationId: 'simGrantNumber',
    method: 'POST',
    path: '/_sim/accounts/{accountId}/numbers',
    tag: 'Control plane',
    summary: 'Give the account a number without the plan and subscription checks',
    description: 'A specific free number, or the next pool number when `number` is omitted.',
    origin: 'simulator',
    auth: 'control',
    params: { accountId: Type.String() },
    body: GrantNumberBody,
    responses: { 201: { description: 'The number.', schema: PhoneNumber } },
    errors: [accountErrors.ACCOUNT_NOT_FOUND, errorCodes.INVALID_PHONE_NUMBER, errorCodes.UNSUPPORTED_COUNTRY],
    handler: ({ scope, params, body }) => {
      scope.accounts.require(params.accountId);
      return reply.created(numberWire(scope.numbers.grant(params.accountId, body?.number)));
    },
  }),
];
