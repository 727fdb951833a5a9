// The calls' /_sim routes of transfers: what an agent (Voice Agent SDK `transfer()`, the `transfer_call`
// tool) or a SIP client (REFER, blind or attended) would do to a live call, started by a test.
// The leg then runs like a dial block's: the carrier decides the party, the clock moves it.
// Documented in docs/control-plane.md, "Calls (transfers)".
import { Type } from '@sinclair/typebox';
import { reply } from '../../core/operation.ts';
import { ApiError, defineError } from '../../core/errors.ts';
import { Nullable, StringEnum } from '../../core/schema.ts';
import { callErrors } from './errors.ts';
import { liveErrors } from './live-control.ts';
import { TRANSFER_MODES, TransferLegWire, isEnded, transfersWire } from './transfers.ts';
import { operation } from './scope.ts';

const TAG = 'Control plane';

export const transferControlErrors = {
  TRANSFER_IN_PROGRESS: defineError({
    code: 'transfer_in_progress', status: 409, origin: 'simulator',
    description: 'Control plane: the call already has a transfer leg that has not ended; one leg at a time.',
  }),
  LEG_NOT_INTERRUPTIBLE: defineError({
    code: 'leg_not_interruptible', status: 409, origin: 'simulator',
    description: 'Control plane: the transfer leg does not exist, has ended or is already interrupted, or was started by a dial block (its flow waits on the leg\'s planned end).',
  }),
};

const InterruptBody = Type.Object(
  {
    failAfterSeconds: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 86_400, description: 'Seconds after which the interrupted leg ends failed; null or absent: it stays interrupted until the call ends, then fails.' }))),
  },
  { $id: 'SimInterruptTransferRequest', additionalProperties: false },
);

const TransferBody = Type.Object(
  {
    to: Type.String({ minLength: 1, maxLength: 512, pattern: '^(?:[Ss][Ii][Pp][Ss]?:[\\s\\S]*|[+\\d][\\d\\s().-]*)$', description: 'A phone number (pstn leg) or a sip:/sips: URI (sip leg, routed through the account\'s active SIP endpoint routes by host).' }),
    mode: StringEnum(TRANSFER_MODES, { description: 'blind and warm: agent transfers; refer and refer-attended: SIP REFER.' }),
    timeoutSec: Type.Optional(Type.Integer({ minimum: 5, maximum: 120, description: 'Ring seconds before the leg ends no-answer; default 30.' })),
    context: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'Sent as TransferContext (JSON text) on the transfer callbacks, as SDK transfer({context}).' })),
  },
  { $id: 'SimTransferRequest', additionalProperties: false },
);

export const operations = [
  operation({
    operationId: 'simTransferCall',
    method: 'POST',
    path: '/_sim/calls/{callId}/transfers',
    tag: TAG,
    summary: 'Transfer a live call (agent or SIP REFER transfer) to a number or SIP URI',
    description:
      'Starts the next transfer leg of a call in progress, in any mode; the carrier decides the party (scripts, magic numbers), the leg rings, connects and ends on the clock and the transfer callbacks are sent. The call itself goes on as before (its flow keeps running); when it ends, a leg still ringing is canceled and a connected one completes. 404 call_not_found; 409 CALL_NOT_CONNECTED when the call is not in progress; 409 transfer_in_progress while another leg is open.',
    origin: 'simulator',
    auth: 'control',
    params: { callId: Type.String() },
    body: TransferBody,
    bodyRequired: true,
    responses: { 201: { description: 'The new leg as getCall will show it.', schema: TransferLegWire } },
    errors: [callErrors.CALL_NOT_FOUND, liveErrors.CALL_NOT_CONNECTED, transferControlErrors.TRANSFER_IN_PROGRESS],
    handler: ({ scope, params, body }) => {
      const row = scope.calls.getAny(params.callId);
      if (!/^sips?:/i.test(body.to) && !/^[+\d][\d\s\-().]*$/.test(body.to)) {
        throw ApiError.validation('to must be a phone number or a sip:/sips: URI', [{ path: 'to', message: 'a phone number or a SIP URI' }]);
      }
      if (row.status !== 'in-progress') throw liveErrors.CALL_NOT_CONNECTED(`call ${row.id} is ${row.status}, not in progress`, { callId: row.id, status: row.status });
      if ((row.transfers ?? []).some((l) => !isEnded(l.status))) throw transferControlErrors.TRANSFER_IN_PROGRESS(`call ${row.id} has a transfer leg still open`);
      const started = scope.calls.legs.start(row, {
        to: body.to,
        mode: body.mode,
        timeoutSec: body.timeoutSec ?? 30,
        origin: 'control',
        context: body.context === undefined ? null : JSON.stringify(body.context),
      });
      scope.calls.calls.replace(started.row);
      const wire = transfersWire(started.row.transfers ?? []).find((l) => l.sequence === started.leg.sequence);
      return reply.created(wire);
    },
  }),
  operation({
    operationId: 'simInterruptTransferLeg',
    method: 'POST',
    path: '/_sim/calls/{callId}/transfers/{sequence}/interrupt',
    tag: TAG,
    summary: 'The platform loses an open transfer leg: it becomes interrupted, then fails',
    description:
      'Makes an initiated, ringing or connected leg started through the control plane `interrupted` now (the platform lost it): it no longer rings, connects or ends as the carrier planned, carries Q.850 38 and SIP 503, and the transfer callback reports it. interrupted is not an ended status, so the leg is not the representative leg and blocks a new transfer until it ends failed (same codes) after failAfterSeconds or when the call ends. 404 call_not_found; 409 leg_not_interruptible for a missing, ended, already interrupted or dial-block leg.',
    origin: 'simulator',
    auth: 'control',
    params: { callId: Type.String(), sequence: Type.String({ pattern: '^[1-9][0-9]{0,5}$', description: 'The leg\'s sequence (1, 2, ...).' }) },
    body: InterruptBody,
    responses: { 200: { description: 'The leg as getCall now shows it (status interrupted).', schema: TransferLegWire } },
    errors: [callErrors.CALL_NOT_FOUND, transferControlErrors.LEG_NOT_INTERRUPTIBLE],
    handler: ({ scope, params, body }) => {
      const row = scope.calls.getAny(params.callId);
      if (!/^[1-9][0-9]{0,5}$/.test(params.sequence)) throw ApiError.validation('sequence must be a leg number (1, 2, ...)', [{ path: 'sequence', message: 'a positive integer' }]);
      const sequence = Number(params.sequence);
      const done = scope.calls.legs.interrupt(row, sequence, body?.failAfterSeconds ?? null);
      if ('refused' in done) throw transferControlErrors.LEG_NOT_INTERRUPTIBLE(done.refused);
      scope.calls.calls.replace(done.row);
      return reply.ok(transfersWire(done.row.transfers ?? []).find((l) => l.sequence === sequence));
    },
  }),
];
