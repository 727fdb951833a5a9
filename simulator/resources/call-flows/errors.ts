// The call-flow family's wire errors, apart from its model so that other families (calls names
// call_flow_not_found) and the control plane can name them without importing the model.
import { defineError } from '../../core/errors.ts';
import { sharedErrors } from '../../rules/errors.ts';

export const callFlowErrors = {
  VALIDATION: defineError({
    code: 'validation', status: 400, origin: 'reference',
    description: 'Call flows: the body itself is wrong (name missing, blank or longer than 80 characters, graph missing, unknown body field, PATCH with neither name nor graph); `errors` names each field.',
  }),
  INVALID_GRAPH: defineError({
    code: 'call_flow_invalid_graph', status: 400, origin: 'reference',
    description: 'The graph breaks its schema or its links; `issues[]` gives each problem with its dotted path (`nodes.<id>.<field>`; link problems at `nodes.<id>`).',
  }),
  GRAPH_TOO_LARGE: defineError({
    code: 'call_flow_graph_too_large', status: 400, origin: 'reference',
    description: 'The graph, serialised as sent, is larger than 256 KB.',
  }),
  NOT_FOUND: defineError({
    code: 'call_flow_not_found', status: 404, origin: 'reference',
    description: 'No call flow with this id in the account.',
  }),
  IN_USE: defineError({
    code: 'call_flow_in_use', status: 409, origin: 'reference',
    description: 'Numbers route inbound calls to the flow (routingType callflow); `phoneNumbers` names them. Route them elsewhere first.',
  }),
  LIMIT_REACHED: defineError({
    code: 'call_flow_limit_reached', status: 409, origin: 'reference',
    description: 'The account already has 200 call flows.',
  }),
  VOICE_FORBIDDEN: sharedErrors.VOICE_FORBIDDEN, // shared with the agents' voice (rules/errors.ts)
};
