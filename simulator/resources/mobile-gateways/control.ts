// The mobile gateways' /_sim route: the text a box's phone sends to the receive number, which the
// real service hears from the carrier (docs/control-plane.md, "Mobile gateways").
import { Type } from '@sinclair/typebox';
import { reply } from '../../core/operation.ts';
import { errorCodes } from '../../core/errors.ts';
import { operation } from './scope.ts';
import { RECEIVE_NUMBER, VerificationTextBody } from './schema.ts';

export const operations = [
  operation({
    operationId: 'simMobileGatewayVerificationText',
    method: 'POST',
    path: '/_sim/mobile-gateways/verification-texts',
    tag: 'Control plane',
    summary: 'A text from a box\'s phone reaches the verification receive number',
    description: 'Verifies the pending sessions to `to` whose box declared `from` as its msisdn, else the oldest pending one whose box declared none; `verified` lists them (empty: nothing matched).',
    origin: 'simulator',
    auth: 'control',
    body: VerificationTextBody,
    bodyRequired: true,
    responses: { 200: { description: 'The sessions verified.', schema: Type.Object({ verified: Type.Array(Type.String()) }, { additionalProperties: false }) } },
    errors: [errorCodes.INVALID_PHONE_NUMBER, errorCodes.UNSUPPORTED_COUNTRY],
    handler: ({ scope, body }) => reply.ok({ verified: scope.mobileGateways.deliverText(body.from, body.to ?? RECEIVE_NUMBER) }),
  }),
];
