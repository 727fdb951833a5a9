// The spec's error body: `error` (human text, may change), `code` (the contract), `ip` (only
// with overseas_ip_blocked), `blockers` (SIP), and our `errors` list naming each bad field.
import { Type } from '@sinclair/typebox';

export const ErrorBodySchema = Type.Object(
  {
    error: Type.String({ description: 'Human-readable; may be reworded.' }),
    code: Type.String({ description: 'Machine-readable; branch on it.' }),
    ip: Type.Optional(Type.String({ description: 'The address judged foreign (overseas_ip_blocked only).' })),
    blockers: Type.Optional(
      Type.Array(Type.Object({ number: Type.String(), code: Type.String(), message: Type.String() }), { description: 'Seen on SIP error bodies.' }),
    ),
    errors: Type.Optional(
      Type.Array(Type.Object({ path: Type.String(), message: Type.String() }), { description: 'Each offending field (validation errors).' }),
    ),
    issues: Type.Optional(
      Type.Array(Type.Object({ path: Type.String(), message: Type.String() }), { description: 'Each problem of a call-flow graph, by dotted path (call_flow_invalid_graph only).' }),
    ),
  },
  { $id: 'ErrorBody', additionalProperties: true },
);
