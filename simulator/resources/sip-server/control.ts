// The SIP server's /_sim route: the registration bindings SIP clients made on the wire, so a test
// sees what a REGISTER left behind (docs/control-plane.md, "SIP on the wire"). Bindings leave at
// their expiry on the virtual clock.
import { Type } from '@sinclair/typebox';
import { reply } from '../../core/operation.ts';
import { operation } from './scope.ts';
import { Registration, SipListeningSchema, type BindingRow } from './schema.ts';

function view(row: BindingRow) {
  const { jobId: _jobId, ...rest } = row;
  return rest;
}

export const operations = [
  operation({
    operationId: 'simListSipRegistrations',
    method: 'GET',
    path: '/_sim/sip/registrations',
    tag: 'Control plane',
    summary: 'Devices registered over SIP, and where the SIP listener is',
    description: 'Every live registration binding (oldest first), optionally of one account or one credential, and the listener\'s address (null when the simulator runs without `--sip-port`).',
    origin: 'simulator',
    auth: 'control',
    query: {
      accountId: Type.String({ description: 'Only this account\'s bindings.' }),
      credentialId: Type.String({ description: 'Only this credential\'s bindings (a WebRTC token\'s are its parent\'s).' }),
    },
    responses: {
      200: {
        description: 'The bindings.',
        schema: Type.Object({ listening: SipListeningSchema, data: Type.Array(Registration) }, { $id: 'SimSipRegistrations', additionalProperties: false }),
      },
    },
    handler: ({ scope, query }) => {
      const rows = scope.sipServer.bindings.rows
        .all()
        .filter((r) => (query.accountId === undefined || r.accountId === query.accountId) && (query.credentialId === undefined || r.credentialId === query.credentialId));
      return reply.ok({ listening: scope.sipServer.listening, data: rows.map(view) });
    },
  }),
];
