// HTTP surface of SIP endpoints and their origination routes, as the public API document shapes
// them: the endpoint list is a standard paged list, the route list is `{ data }` without meta
// (spec "SIP route list"), deletes answer 200 `{ ok: true }`.
import { SIP_TRUNK_REQUIRED } from '../../rules/errors.ts';
import { Type } from '@sinclair/typebox';
import { reply } from '../../core/operation.ts';
import { StringEnum } from '../../core/schema.ts';
import { WireCache } from '../../core/wire.ts';
import { pageOf, parsePaging, standardPagingParams, type PagingQuery } from '../../core/paging.ts';
import { sipEndpointErrors, type SipEndpointsModel } from './model.ts';
import { operation } from './scope.ts';
import {
  CreateSipEndpointBody,
  CreateSipRouteBody,
  ENDPOINT_STATUSES,
  OkResult,
  SipEndpoint,
  SipEndpointList,
  SipOriginationRoute,
  SipOriginationRouteList,
  UpdateSipEndpointBody,
  UpdateSipRouteBody,
  type EndpointRow,
  type RouteRow,
  type SipEndpointWire,
  type SipRouteWire,
} from './schema.ts';

export function sipRouteWire(r: RouteRow): SipRouteWire {
  return {
    id: r.id,
    endpointId: r.endpointId,
    uri: r.uri,
    priority: r.priority,
    weight: r.weight,
    transport: r.transport,
    status: r.status,
    lastUsedAt: r.lastUsedAt,
    lastFailureAt: r.lastFailureAt,
    failureCount: r.failureCount,
    dateCreated: r.dateCreated,
    dateUpdated: r.dateUpdated,
  };
}

const routeWire = new WireCache(sipRouteWire);

/** The endpoint with its routes (priority ascending). Endpoints are only ever shown live. */
export function sipEndpointWire(model: SipEndpointsModel, e: EndpointRow): SipEndpointWire {
  return {
    id: e.id,
    accountId: e.accountId,
    name: e.name,
    maxConcurrent: e.maxConcurrent,
    status: e.status === 'deleted' ? 'disabled' : e.status,
    routes: model.routesOf(e.id).map(sipRouteWire),
    dateCreated: e.dateCreated,
    dateUpdated: e.dateUpdated,
  };
}

const TAG = 'SIP endpoints';
const account = { accountId: Type.String({ description: 'Account id.' }) };
const endpointParam = { ...account, endpointId: Type.String({ description: 'SIP endpoint id.' }) };
const routeParam = { ...endpointParam, routeId: Type.String({ description: 'Route id.' }) };
const E = sipEndpointErrors;
const basis = 'docs/decisions.md, "SIP endpoints and routes"';

export const operations = [
  operation({
    operationId: 'listSipEndpoints',
    method: 'GET',
    path: '/v1/accounts/{accountId}/sip-endpoints',
    tag: TAG,
    summary: 'List SIP endpoints',
    description: 'Newest first, deleted endpoints excluded; `status` narrows to active or disabled. Each endpoint carries its routes.',
    origin: 'reference',
    basis,
    auth: 'account',
    params: account,
    query: { status: StringEnum(ENDPOINT_STATUSES, { description: 'Only endpoints in this status; default all but deleted.' }), ...standardPagingParams },
    responses: { 200: { description: 'A page of endpoints.', schema: SipEndpointList } },
    handler: (ctx) => {
      const paging = parsePaging(ctx.query as PagingQuery);
      const page = pageOf(ctx.scope.sipEndpoints.listFor(ctx.accountId, ctx.query.status), paging);
      return reply.ok({ data: page.data.map((e) => sipEndpointWire(ctx.scope.sipEndpoints, e)), meta: page.meta });
    },
  }),
  operation({
    operationId: 'createSipEndpoint',
    method: 'POST',
    path: '/v1/accounts/{accountId}/sip-endpoints',
    tag: TAG,
    summary: 'Create a SIP endpoint',
    description: 'A logical BYOC trunk, active and without routes. Needs the sip_trunk add-on.',
    origin: 'reference',
    auth: 'account',
    params: account,
    body: CreateSipEndpointBody,
    bodyRequired: true,
    responses: { 201: { description: 'The endpoint.', schema: SipEndpoint } },
    errors: [SIP_TRUNK_REQUIRED],
    handler: (ctx) => reply.created(sipEndpointWire(ctx.scope.sipEndpoints, ctx.scope.sipEndpoints.create(ctx.accountId, ctx.body))),
  }),
  operation({
    operationId: 'getSipEndpoint',
    method: 'GET',
    path: '/v1/accounts/{accountId}/sip-endpoints/{endpointId}',
    tag: TAG,
    summary: 'Get a SIP endpoint with its routes',
    description: 'Routes sorted by priority ascending; equal priorities in creation order.',
    origin: 'reference',
    auth: 'account',
    params: endpointParam,
    responses: { 200: { description: 'The endpoint.', schema: SipEndpoint } },
    errors: [E.SIP_ENDPOINT_NOT_FOUND],
    handler: (ctx) => reply.ok(sipEndpointWire(ctx.scope.sipEndpoints, ctx.scope.sipEndpoints.get(ctx.accountId, ctx.params.endpointId))),
  }),
  operation({
    operationId: 'updateSipEndpoint',
    method: 'PUT',
    path: '/v1/accounts/{accountId}/sip-endpoints/{endpointId}',
    tag: TAG,
    summary: 'Change a SIP endpoint\'s name, limit or status',
    description:
      'Partial update: omitted fields keep their values; maxConcurrent null means unlimited. status moves active <-> disabled; disabling is refused with 409 IN_USE while numbers route to the endpoint, `blockers` naming each number. Needs the sip_trunk add-on.',
    origin: 'spec',
    basis,
    auth: 'account',
    params: endpointParam,
    body: UpdateSipEndpointBody,
    bodyRequired: true,
    responses: { 200: { description: 'The endpoint with its routes.', schema: SipEndpoint } },
    errors: [E.SIP_ENDPOINT_NOT_FOUND, E.NOTHING_TO_UPDATE, E.IN_USE, SIP_TRUNK_REQUIRED],
    handler: (ctx) => reply.ok(sipEndpointWire(ctx.scope.sipEndpoints, ctx.scope.sipEndpoints.update(ctx.accountId, ctx.params.endpointId, ctx.body))),
  }),
  operation({
    operationId: 'deleteSipEndpoint',
    method: 'DELETE',
    path: '/v1/accounts/{accountId}/sip-endpoints/{endpointId}',
    tag: TAG,
    summary: 'Delete a SIP endpoint',
    description:
      'Soft delete: the endpoint and its routes disappear from every read. Refused with 409 IN_USE while numbers route to it (`blockers` names each); move those numbers to another routing first. Needs the sip_trunk add-on.',
    origin: 'reference',
    basis,
    auth: 'account',
    params: endpointParam,
    responses: { 200: { description: 'Deleted.', schema: OkResult } },
    errors: [E.SIP_ENDPOINT_NOT_FOUND, E.IN_USE, SIP_TRUNK_REQUIRED],
    handler: (ctx) => {
      ctx.scope.sipEndpoints.delete(ctx.accountId, ctx.params.endpointId);
      return reply.ok({ ok: true });
    },
  }),
  // --- routes ---
  operation({
    operationId: 'listSipOriginationRoutes',
    method: 'GET',
    path: '/v1/accounts/{accountId}/sip-endpoints/{endpointId}/routes',
    tag: TAG,
    summary: 'List an endpoint\'s routes',
    description: 'All routes at once without paging or meta, priority ascending; equal priorities in creation order.',
    origin: 'spec',
    auth: 'account',
    params: endpointParam,
    responses: { 200: { description: 'Every route of the endpoint.', schema: SipOriginationRouteList } },
    errors: [E.SIP_ENDPOINT_NOT_FOUND],
    handler: (ctx) => {
      const endpoint = ctx.scope.sipEndpoints.get(ctx.accountId, ctx.params.endpointId);
      return reply.json(200, routeWire.dataOnly(ctx.scope.sipEndpoints.routesOf(endpoint.id)));
    },
  }),
  operation({
    operationId: 'createSipOriginationRoute',
    method: 'POST',
    path: '/v1/accounts/{accountId}/sip-endpoints/{endpointId}/routes',
    tag: TAG,
    summary: 'Add a route (a PBX the endpoint dials)',
    description:
      'uri is `sip:host[:port]` or `sips:host[:port]`; priority defaults to 10, weight to 100, transport to tls for sips: and udp otherwise (sips: with udp is refused). The route starts active. Needs the sip_trunk add-on.',
    origin: 'reference',
    basis,
    auth: 'account',
    params: endpointParam,
    body: CreateSipRouteBody,
    bodyRequired: true,
    responses: { 201: { description: 'The route.', schema: SipOriginationRoute } },
    errors: [E.SIP_ENDPOINT_NOT_FOUND, E.INVALID_SIP_URI, SIP_TRUNK_REQUIRED],
    handler: (ctx) => reply.json(201, routeWire.json(ctx.scope.sipEndpoints.createRoute(ctx.accountId, ctx.params.endpointId, ctx.body))),
  }),
  operation({
    operationId: 'getSipOriginationRoute',
    method: 'GET',
    path: '/v1/accounts/{accountId}/sip-endpoints/{endpointId}/routes/{routeId}',
    tag: TAG,
    summary: 'Get a route',
    origin: 'reference',
    auth: 'account',
    params: routeParam,
    responses: { 200: { description: 'The route.', schema: SipOriginationRoute } },
    errors: [E.SIP_ENDPOINT_NOT_FOUND, E.SIP_ROUTE_NOT_FOUND],
    handler: (ctx) => reply.json(200, routeWire.json(ctx.scope.sipEndpoints.getRoute(ctx.accountId, ctx.params.endpointId, ctx.params.routeId))),
  }),
  operation({
    operationId: 'updateSipOriginationRoute',
    method: 'PUT',
    path: '/v1/accounts/{accountId}/sip-endpoints/{endpointId}/routes/{routeId}',
    tag: TAG,
    summary: 'Change a route',
    description: 'Partial update: omitted fields keep their values; status moves active <-> disabled. The result must be consistent (a sips: uri needs tls). Needs the sip_trunk add-on.',
    origin: 'reference',
    basis,
    auth: 'account',
    params: routeParam,
    body: UpdateSipRouteBody,
    bodyRequired: true,
    responses: { 200: { description: 'The route.', schema: SipOriginationRoute } },
    errors: [E.SIP_ENDPOINT_NOT_FOUND, E.SIP_ROUTE_NOT_FOUND, E.INVALID_SIP_URI, E.NOTHING_TO_UPDATE, SIP_TRUNK_REQUIRED],
    handler: (ctx) =>
      reply.json(200, routeWire.json(ctx.scope.sipEndpoints.updateRoute(ctx.accountId, ctx.params.endpointId, ctx.params.routeId, ctx.body))),
  }),
  operation({
    operationId: 'deleteSipOriginationRoute',
    method: 'DELETE',
    path: '/v1/accounts/{accountId}/sip-endpoints/{endpointId}/routes/{routeId}',
    tag: TAG,
    summary: 'Delete a route',
    description: 'Removed at once. Not refused when numbers route to the endpoint; they then fail the number routing check until an active route exists. Needs the sip_trunk add-on.',
    origin: 'reference',
    basis,
    auth: 'account',
    params: routeParam,
    responses: { 200: { description: 'Deleted.', schema: OkResult } },
    errors: [E.SIP_ENDPOINT_NOT_FOUND, E.SIP_ROUTE_NOT_FOUND, SIP_TRUNK_REQUIRED],
    handler: (ctx) => {
      ctx.scope.sipEndpoints.deleteRoute(ctx.accountId, ctx.params.endpointId, ctx.params.routeId);
      return reply.ok({ ok: true });
    },
  }),
];
