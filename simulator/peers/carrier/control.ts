// The fake carrier's /_sim routes (docs/control-plane.md, "Carrier"): script outcomes per
// destination, read the magic numbers, read what a phone received (the only place a one-time
// code is shown) and list delivery attempts. A phone texting or calling an account's number
// changes the messages' or the calls' state, so those routes are theirs.
import { Type } from '@sinclair/typebox';
import { reply } from '../../core/operation.ts';
import { errorCodes } from '../../core/errors.ts';
import { PhoneNumber, StringEnum } from '../../core/schema.ts';
import { normalizePhone } from '../../core/phone.ts';
import type { ListedNames } from '../../core/scope.ts';
import { checkReplies, OUTCOMES } from './schema.ts';
import { MAGIC_NUMBERS } from './rules.ts';
import { carrierErrors } from './errors.ts';
import { operation } from './scope.ts';
import { MagicNumberView, PhoneView, ScriptBody, ScriptView, deliveryView, deliveryViewSchema, scriptTarget, scriptView } from './views.ts';

const TAG = 'Control plane';

const phoneErrors = [errorCodes.INVALID_PHONE_NUMBER, errorCodes.UNSUPPORTED_COUNTRY];

/** Built once the list exists: the delivery view enumerates the carrier owners. */
export const operations = ({ carrierOwners }: ListedNames) => [
  operation({
    operationId: 'simListMagicNumbers',
    method: 'GET',
    path: '/_sim/carrier/magic-numbers',
    tag: TAG,
    summary: 'Destinations with a fixed outcome (no scripting needed)',
    origin: 'simulator',
    auth: 'control',
    responses: { 200: { description: 'The magic numbers.', schema: Type.Object({ data: Type.Array(MagicNumberView) }, { additionalProperties: false }) } },
    handler: () => reply.ok({ data: MAGIC_NUMBERS }),
  }),
  operation({
    operationId: 'simListCarrierScripts',
    method: 'GET',
    path: '/_sim/carrier/scripts',
    tag: TAG,
    summary: 'Scripted outcomes, in the order they are tried',
    origin: 'simulator',
    auth: 'control',
    responses: { 200: { description: 'The scripts.', schema: Type.Object({ data: Type.Array(ScriptView) }, { additionalProperties: false }) } },
    handler: ({ scope }) => reply.ok({ data: scope.carrier.listScripts().map(scriptView) }),
  }),
  operation({
    operationId: 'simAddCarrierScript',
    method: 'POST',
    path: '/_sim/carrier/scripts',
    tag: TAG,
    summary: 'Script the outcome of deliveries to a destination',
    description:
      'Each delivery takes the first script whose number (else, in a second pass, prefix) and types match, that is not used up and whose share picks this attempt; scripts are tried in the order added, and any script wins over the magic numbers. The outcome is decided when the carrier accepts the delivery.',
    origin: 'simulator',
    auth: 'control',
    body: ScriptBody,
    bodyRequired: true,
    responses: { 201: { description: 'The script.', schema: ScriptView } },
    errors: phoneErrors,
    handler: ({ scope, body }) => {
      const target = scriptTarget(body);
      checkReplies(body.replies, 'replies');
      return reply.created(scriptView(scope.carrier.addScript({ ...body, ...target })));
    },
  }),
  operation({
    operationId: 'simClearCarrierScripts',
    method: 'DELETE',
    path: '/_sim/carrier/scripts',
    tag: TAG,
    summary: 'Remove every script',
    origin: 'simulator',
    auth: 'control',
    responses: { 204: { description: 'Removed.' } },
    handler: ({ scope }) => {
      scope.carrier.clearScripts();
      return reply.noContent();
    },
  }),
  operation({
    operationId: 'simRemoveCarrierScript',
    method: 'DELETE',
    path: '/_sim/carrier/scripts/{scriptId}',
    tag: TAG,
    summary: 'Remove one script',
    origin: 'simulator',
    auth: 'control',
    params: { scriptId: Type.String() },
    responses: { 204: { description: 'Removed.' } },
    errors: [carrierErrors.SCRIPT_NOT_FOUND],
    handler: ({ scope, params }) => {
      scope.carrier.removeScript(params.scriptId);
      return reply.noContent();
    },
  }),
  operation({
    operationId: 'simListCarrierDeliveries',
    method: 'GET',
    path: '/_sim/carrier/deliveries',
    tag: TAG,
    summary: 'Every delivery attempt, newest first (one-time codes masked)',
    origin: 'simulator',
    auth: 'control',
    query: {
      number: PhoneNumber({ description: 'Destination, any accepted spelling.' }),
      status: StringEnum(['pending', ...OUTCOMES]),
    },
    responses: { 200: { description: 'Deliveries.', schema: Type.Object({ data: Type.Array(deliveryViewSchema(carrierOwners)) }, { additionalProperties: false }) } },
    errors: phoneErrors,
    handler: ({ scope, query }) => {
      const number = query.number === undefined ? undefined : normalizePhone(query.number, 'number');
      return reply.ok({ data: scope.carrier.listDeliveries({ number, status: query.status }).map(deliveryView) });
    },
  }),
  operation({
    operationId: 'simGetPhone',
    method: 'GET',
    path: '/_sim/carrier/phones/{number}',
    tag: TAG,
    summary: 'What a phone received: delivered texts and answered calls, newest first',
    description: 'The only place a one-time code is shown: in the body of a verification text or in what a verification call said, and as `code`.',
    origin: 'simulator',
    auth: 'control',
    params: { number: PhoneNumber({ description: 'Any accepted spelling.' }) },
    responses: { 200: { description: 'The phone.', schema: PhoneView } },
    errors: phoneErrors,
    handler: ({ scope, params }) => reply.ok(scope.carrier.phone(normalizePhone(params.number, 'number'))),
  }),
];
