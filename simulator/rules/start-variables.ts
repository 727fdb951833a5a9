// A call flow's start variables as a request gives them (createCall's and a call batch task's
// `Variables`): names, at most 50 of them, none the platform fills itself; values strings,
// numbers or booleans. One schema for both bodies, in a home of its own so that call batches
// need not import the calls' schemas; the 8 KB total is checked by calls/variables.ts.
import { Type } from '@sinclair/typebox';
import { withRules } from '../core/schema-rules.ts';

/** Variables the platform fills during a call; a request may not set them. */
export const RESERVED_VARIABLES = ['caller', 'callee', 'recording_url', 'recording_duration', 'http_status'] as const;

const VariableValue = Type.Union([Type.String(), Type.Number(), Type.Boolean()]);

/** Start variables of a flow: names, at most 50, not the platform's own; 8 KB in all is the description's. */
export function StartVariables(description: string) {
  return withRules(
    Type.Record(Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_]*$' }), VariableValue, { maxProperties: 50, additionalProperties: false, description }),
    [{ description: `Not a name the platform fills: ${RESERVED_VARIABLES.join(', ')}.`, code: 'VALIDATION', schema: { propertyNames: { not: { enum: [...RESERVED_VARIABLES] } } } }],
  );
}
