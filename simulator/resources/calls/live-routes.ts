// HTTP surface of a call's events and live control (public document: listCallEvents,
// playIntoCall), beside routes.ts so the shared calls routes stay as they are.
import { Type } from '@sinclair/typebox';
import { reply } from '../../core/operation.ts';
import { callErrors } from './errors.ts';
import { operation } from './scope.ts';
import { CallEventList, callEvents } from './call-events.ts';
import { PlayIntoCallBody, PlayIntoCallResponse, liveErrors, playIntoCall } from './live-control.ts';

const TAG = 'Calls';
const params = { accountId: Type.String({ description: 'Account id.' }), callId: Type.String() };

export const liveOperations = [
  operation({
    operationId: 'listCallEvents',
    method: 'GET',
    path: '/v1/accounts/{accountId}/calls/{callId}/events',
    tag: TAG,
    summary: 'List the events of a call',
    description:
      'The call\'s timeline, oldest first, in one unpaged `{ data }`: `initiated`, `ringing`, `answered`, `completed` (with how it ended), one `transfer` event per transfer leg start, connect and end (with `transferStatus`, `transferSequence`, `transferTo`, `transferMode`, on the end `transferDuration` and `transferReason`), and `play` for each announcement played into the call. Another account\'s call is 404.',
    origin: 'reference',
    basis: 'docs/decisions.md "Transfers and call events"',
    auth: 'account',
    params,
    responses: { 200: { description: 'The call\'s events.', schema: CallEventList } },
    errors: [callErrors.CALL_NOT_FOUND],
    handler: (ctx) => {
      const row = ctx.scope.calls.get(ctx.accountId, ctx.params.callId);
      return reply.ok({ data: callEvents(row, ctx.scope.calls.eventSources) });
    },
  }),
  operation({
    operationId: 'playIntoCall',
    method: 'POST',
    path: '/v1/accounts/{accountId}/calls/{callId}/actions/play',
    tag: TAG,
    summary: 'Play an announcement into a connected call',
    description:
      'Only while the call is connected to a transferred party (a dial block or a transfer leg `connected`): 202 at once with a `playbackId`; the text is read for one second per ten characters (a url plays 5 s), and the phone on the line hears a text unless `target` is `callee`. Exactly one of `text` and `url` (400). A call not connected or already ended: 409 CALL_NOT_CONNECTED; an announcement still playing: 409 PLAY_IN_PROGRESS; a url the egress policy refuses: 422 MEDIA_UNAVAILABLE. A refusal changes nothing.',
    origin: 'reference',
    basis: 'docs/decisions.md "Transfers and call events"',
    auth: 'account',
    params,
    body: PlayIntoCallBody,
    bodyRequired: true,
    responses: { 202: { description: 'The announcement is playing.', schema: PlayIntoCallResponse } },
    errors: [callErrors.CALL_NOT_FOUND, liveErrors.CALL_NOT_CONNECTED, liveErrors.PLAY_IN_PROGRESS, liveErrors.MEDIA_UNAVAILABLE],
    handler: (ctx) => {
      const row = ctx.scope.calls.get(ctx.accountId, ctx.params.callId);
      const played = playIntoCall({ random: ctx.scope.random, clock: ctx.scope.clock, refusal: (url) => ctx.scope.calls.http.refusal(url) }, row, ctx.body);
      ctx.scope.calls.calls.replace(played.row);
      return { status: 202, body: { callId: row.id, playbackId: played.playback.id, status: 'playing' } };
    },
  }),
];
