// HTTP surface of call flows, shaped after the public API document: the list is `{ data }`
// without paging or graphs, newest first; single reads and writes answer the detail with the
// filled graph; DELETE answers 204. The bodies are checked by the model (not the dispatcher) so
// that graph problems come back as call_flow_invalid_graph with `issues[]` naming each path.
import { Type } from '@sinclair/typebox';
import { reply } from '../../core/operation.ts';
import { callFlowErrors as E } from './errors.ts';
import type { CallFlowsModel } from './model.ts';
import { operation } from './scope.ts';
import { CallFlowDetail, CallFlowList, CreateCallFlowBody, UpdateCallFlowBody, checkedByHandler, type CallFlowRow } from './records.ts';

/** The list item (no graph). */
export function callFlowSummaryWire(flows: CallFlowsModel, row: CallFlowRow) {
  return {
    callFlowId: row.id,
    name: row.name,
    phoneNumbers: flows.phoneNumbers(row),
    variables: flows.view(row).variables,
    dateCreated: row.dateCreated,
    dateUpdated: row.dateUpdated,
  };
}

/** The single flow with its filled graph, or null when the stored graph is unreadable. */
export function callFlowDetailWire(flows: CallFlowsModel, row: CallFlowRow) {
  return { ...callFlowSummaryWire(flows, row), graph: flows.view(row).graph };
}

const TAG = 'Call flows';
const account = { accountId: Type.String({ description: 'Account id.' }) };
const flowParam = { ...account, callFlowId: Type.String({ description: 'Call flow id.' }) };
const basis = 'docs/decisions.md, "Call flows"';
const writeErrors = [E.VALIDATION, E.INVALID_GRAPH, E.GRAPH_TOO_LARGE, E.VOICE_FORBIDDEN];

export const operations = [
  operation({
    operationId: 'listCallFlows',
    method: 'GET',
    path: '/v1/accounts/{accountId}/call-flows',
    tag: TAG,
    summary: 'List call flows',
    description: 'Every flow of the account, newest first, without graphs and without paging (`{ data }` only).',
    origin: 'spec',
    basis,
    auth: 'account',
    params: account,
    responses: { 200: { description: 'The account\'s flows.', schema: CallFlowList } },
    handler: (ctx) => reply.ok({ data: ctx.scope.callFlows.listFor(ctx.accountId).map((r) => callFlowSummaryWire(ctx.scope.callFlows, r)) }),
  }),
  operation({
    operationId: 'createCallFlow',
    method: 'POST',
    path: '/v1/accounts/{accountId}/call-flows',
    tag: TAG,
    summary: 'Create a call flow',
    description:
      'Checks the structure (block types, fields, bounds; unknown fields are refused) and the links (every link names a block, `start` exists); problems come back as 400 call_flow_invalid_graph with `issues[]`. The answer carries the graph with every default filled; canvas coordinates (`ui`) are dropped. At most 200 flows per account.',
    origin: 'reference',
    basis,
    auth: 'account',
    params: account,
    body: checkedByHandler(CreateCallFlowBody),
    bodyRequired: true,
    responses: { 201: { description: 'The flow with its filled graph.', schema: CallFlowDetail } },
    errors: [...writeErrors, E.LIMIT_REACHED],
    handler: (ctx) => reply.created(callFlowDetailWire(ctx.scope.callFlows, ctx.scope.callFlows.create(ctx.accountId, ctx.body))),
  }),
  operation({
    operationId: 'getCallFlow',
    method: 'GET',
    path: '/v1/accounts/{accountId}/call-flows/{callFlowId}',
    tag: TAG,
    summary: 'Get a call flow with its graph',
    description: 'The graph has every default filled, ready to edit and send back; it is null when the stored graph cannot be read under the current schema (a full PUT repairs it).',
    origin: 'reference',
    basis,
    auth: 'account',
    params: flowParam,
    responses: { 200: { description: 'The flow.', schema: CallFlowDetail } },
    errors: [E.NOT_FOUND],
    handler: (ctx) => reply.ok(callFlowDetailWire(ctx.scope.callFlows, ctx.scope.callFlows.get(ctx.accountId, ctx.params.callFlowId))),
  }),
  operation({
    operationId: 'replaceCallFlow',
    method: 'PUT',
    path: '/v1/accounts/{accountId}/call-flows/{callFlowId}',
    tag: TAG,
    summary: 'Replace a call flow',
    description: 'name and graph both required; the graph replaces the stored one entirely and the console\'s canvas coordinates are discarded. Same checks as create (every link names a block, `start` exists; else 400 call_flow_invalid_graph). Repairs a flow whose stored graph reads as null.',
    origin: 'reference',
    basis,
    auth: 'account',
    params: flowParam,
    body: checkedByHandler(CreateCallFlowBody),
    bodyRequired: true,
    responses: { 200: { description: 'The flow with its filled graph.', schema: CallFlowDetail } },
    errors: [E.NOT_FOUND, ...writeErrors],
    handler: (ctx) => reply.ok(callFlowDetailWire(ctx.scope.callFlows, ctx.scope.callFlows.replace(ctx.accountId, ctx.params.callFlowId, ctx.body))),
  }),
  operation({
    operationId: 'updateCallFlow',
    method: 'PATCH',
    path: '/v1/accounts/{accountId}/call-flows/{callFlowId}',
    tag: TAG,
    summary: 'Change a call flow\'s name and/or graph',
    description: 'Only the given fields change; at least one of name and graph (else 400). A graph is one complete graph (no merge), checked as create checks it (every link names a block, `start` exists); the console\'s canvas coordinates are kept. At most 256 KB.',
    origin: 'spec',
    basis,
    auth: 'account',
    params: flowParam,
    body: checkedByHandler(UpdateCallFlowBody),
    bodyRequired: true,
    responses: { 200: { description: 'The flow with its filled graph.', schema: CallFlowDetail } },
    errors: [E.NOT_FOUND, ...writeErrors],
    handler: (ctx) => reply.ok(callFlowDetailWire(ctx.scope.callFlows, ctx.scope.callFlows.update(ctx.accountId, ctx.params.callFlowId, ctx.body))),
  }),
  operation({
    operationId: 'deleteCallFlow',
    method: 'DELETE',
    path: '/v1/accounts/{accountId}/call-flows/{callFlowId}',
    tag: TAG,
    summary: 'Delete a call flow',
    description: 'Refused with 409 call_flow_in_use while numbers route inbound calls to the flow (`phoneNumbers` names them); route them elsewhere first.',
    origin: 'reference',
    basis,
    auth: 'account',
    params: flowParam,
    responses: { 204: { description: 'Deleted (no body).' } },
    errors: [E.NOT_FOUND, E.IN_USE],
    handler: (ctx) => {
      ctx.scope.callFlows.delete(ctx.accountId, ctx.params.callFlowId);
      return reply.noContent();
    },
  }),
];
