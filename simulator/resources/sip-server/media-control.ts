// The SIP server's /_sim route for a call's media on the wire: how many RTP packets the server
// sent to the client (and their SSRC) and how many it took from the client (and theirs), so a
// test sees both directions without capturing packets (docs/control-plane.md, "SIP on the wire").
// Live transport state: a call the server never carried, or one from before a reset, shows nulls.
import { Type } from '@sinclair/typebox';
import { reply } from '../../core/operation.ts';
import { operation } from './scope.ts';

const Direction = Type.Union([Type.Null(), Type.Object({ packets: Type.Integer(), ssrc: Type.Integer() }, { additionalProperties: false })]);

export const mediaOperations = [
  operation({
    operationId: 'simGetSipCallMedia',
    method: 'GET',
    path: '/_sim/sip/calls/{callId}/media',
    tag: 'Control plane',
    summary: 'RTP a call carried over the SIP listener, each way',
    description: '`sent`: packets the server sent the SIP client (what the far side played) and their SSRC; `received`: packets taken from the client (recorded) and their SSRC. Null for a direction with no packet (or a call the listener never carried).',
    origin: 'simulator',
    auth: 'control',
    params: { callId: Type.String() },
    responses: {
      200: {
        description: 'The call\'s media counts.',
        schema: Type.Object({ callId: Type.String(), sent: Direction, received: Direction }, { $id: 'SimSipCallMedia', additionalProperties: false }),
      },
    },
    handler: ({ scope, params }) =>
      reply.ok({ callId: params.callId, sent: scope.sipServer.playout.sent(params.callId) ?? null, received: scope.sipServer.media.received(params.callId) ?? null }),
  }),
];
