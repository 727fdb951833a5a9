// The calls' /_sim route for a phone calling one of the accounts' numbers (docs/control-plane.md,
// "Carrier"): the call is the calls family's state, so the route is theirs; the phone's behaviour
// is scripted with the carrier's fields (keys, replies, lines).
import { Type } from '@sinclair/typebox';
import { reply } from '../../core/operation.ts';
import { operation } from './scope.ts';
import { errorCodes } from '../../core/errors.ts';
import { Nullable, PhoneNumber } from '../../core/schema.ts';
import { sharedErrors } from '../../rules/errors.ts';
import { checkReplies } from '../../peers/carrier/schema.ts';
import { CalleeFields } from '../../peers/carrier/views.ts';

const InboundCallBody = Type.Object(
  {
    from: PhoneNumber({ description: 'The calling phone; any accepted spelling.' }),
    to: PhoneNumber({ description: 'A number some account owns.' }),
    keys: CalleeFields.keys,
    hangupAfterSeconds: CalleeFields.hangupAfterSeconds,
    speakSeconds: CalleeFields.speakSeconds,
    replies: CalleeFields.replies,
    lines: CalleeFields.lines,
  },
  { $id: 'SimInboundCallRequest', additionalProperties: false },
);

export const operations = [
  operation({
    operationId: 'simInjectInboundCall',
    method: 'POST',
    path: '/_sim/carrier/inbound-calls',
    tag: 'Control plane',
    summary: 'A phone calls one of the accounts\' numbers',
    description:
      'The number\'s routing decides (docs/decisions.md "Calls"): a blocked caller is rejected before any record exists ({ callId: null, rejected: true }); callflow runs the flow with `keys` as what the phone enters; other routings are recorded as described there. The call rings, is answered and proceeds on the virtual clock.',
    origin: 'simulator',
    auth: 'control',
    body: InboundCallBody,
    bodyRequired: true,
    responses: {
      201: {
        description: 'The call, or rejected before a record exists.',
        schema: Type.Object({ callId: Nullable(Type.String()), rejected: Type.Optional(Type.Boolean()) }, { $id: 'SimInboundCall', additionalProperties: false }),
      },
    },
    errors: [errorCodes.INVALID_PHONE_NUMBER, errorCodes.UNSUPPORTED_COUNTRY, sharedErrors.NUMBER_NOT_FOUND],
    handler: ({ scope, body }) => {
      checkReplies(body.replies, 'replies');
      const callId = scope.calls.inbound(body);
      return reply.created(callId === null ? { callId: null, rejected: true } : { callId });
    },
  }),
];
