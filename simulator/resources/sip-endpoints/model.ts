// SIP endpoints and their origination routes. Numbers route to an endpoint (routingType sip);
// this model answers the cross-reference check for them (refs 'sipEndpoint') and refuses to
// disable or delete an endpoint while numbers still route to it (409 IN_USE with `blockers`).
// The runtime snapshots and restores its two tables (the descriptor's state part).
import { SIP_TRUNK_REQUIRED } from '../../rules/errors.ts';
import { Table } from '../../core/store.ts';
import { ApiError, defineError, errorCodes } from '../../core/errors.ts';
import { freshId } from '../../core/ids.ts';
import { sharedErrors } from '../../rules/errors.ts';
import type { SipEndpointsModelScope } from './ports.ts';
import {
  ROUTE_DEFAULTS,
  type CreateSipEndpointInput,
  type CreateSipRouteInput,
  type EndpointRow,
  type RouteRow,
  type UpdateSipEndpointInput,
  type UpdateSipRouteInput,
  SIP_ENDPOINT_IDS,
} from './schema.ts';

export const sipEndpointErrors = {
  SIP_ENDPOINT_NOT_FOUND: defineError({
    code: 'sip_endpoint_not_found', status: 404, origin: 'reference',
    description: 'No SIP endpoint with this id in the account, or it was deleted (reference: 404 on the endpoint operations).',
  }),
  SIP_ROUTE_NOT_FOUND: defineError({
    code: 'sip_route_not_found', status: 404, origin: 'reference',
    description: 'No route with this id on this endpoint (reference: 404 on the route operations).',
  }),
  INVALID_SIP_URI: defineError({
    code: 'INVALID_SIP_URI', status: 400, origin: 'simulator',
    description: 'A route uri is not `sip:host[:port]` or `sips:host[:port]` (host a DNS name or IPv4 address, port 1 to 65535).',
  }),
  IN_USE: errorCodes.IN_USE,
  /** Shared with numbers: a PUT whose body has no field. */
  NOTHING_TO_UPDATE: sharedErrors.NOTHING_TO_UPDATE,
};

/** Blocker code for a number that routes to the endpoint (our choice; the spec names only number_not_carrier_issued). */
export const BLOCKER_NUMBER_ROUTES_HERE = 'number_routes_to_endpoint';

const LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
const IPV4 = /^(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** Why `uri` is not `sip:host[:port]` / `sips:host[:port]`, or null when it is. */
export function sipUriProblem(uri: string): string | null {
  const m = /^(sips?):(.*)$/.exec(uri);
  if (!m) return 'must start with sip: or sips: (lowercase)';
  const rest = m[2]!;
  if (rest.includes('@')) return 'must not carry a user part (user@)';
  if (/[;?]/.test(rest)) return 'must not carry URI parameters or headers';
  if (rest.startsWith('[')) return 'IPv6 hosts are not accepted';
  const hp = /^([^:]*)(?::(.*))?$/.exec(rest)!;
  const host = hp[1]!;
  const port = hp[2];
  if (host === '') return 'needs a host';
  if (host.length > 253) return 'host is longer than 253 characters';
  const labels = host.split('.');
  if (!IPV4.test(host)) {
    if (!labels.every((l) => LABEL.test(l))) return `host "${host}" is not a DNS name or IPv4 address`;
    if (/^\d+$/.test(labels[labels.length - 1]!)) return `host "${host}" is not a valid IPv4 address`;
  }
  if (port !== undefined) {
    if (!/^[1-9]\d{0,4}$/.test(port) || Number(port) > 65535) return `port "${port}" must be a number from 1 to 65535`;
  }
  return null;
}

function checkUri(uri: string): string {
  const problem = sipUriProblem(uri);
  if (problem) throw sipEndpointErrors.INVALID_SIP_URI(`uri "${uri}" ${problem}`, { errors: [{ path: 'uri', message: problem }] });
  return uri;
}

function checkTransport(uri: string, transport: 'udp' | 'tls'): void {
  if (uri.startsWith('sips:') && transport !== 'tls') {
    throw ApiError.validation('a sips: uri needs transport tls', [{ path: 'transport', message: 'must be tls for a sips: uri' }]);
  }
}

/** Priority ascending; equal priorities keep creation order (oldest first). */
function byPriority(routes: readonly RouteRow[]): RouteRow[] {
  return routes.map((r, i) => ({ r, i })).sort((a, b) => a.r.priority - b.r.priority || a.i - b.i).map(({ r }) => r);
}

export class SipEndpointsModel {
  readonly endpoints = new Table<EndpointRow>(); // maps an endpoint id to its settings and owner (deleted ones kept)
  readonly routes = new Table<RouteRow>(); // maps a route id to its target and owning endpoint

  // The `sipEndpoint` reference reaches referenceState through the family's `wire` (index.ts).
  constructor(private readonly rt: SipEndpointsModelScope) {}

  /** What a reference to endpoint `id` of the account finds: usable, a reason it is not, or nothing. */
  referenceState(accountId: string, id: string): boolean | string {
    const e = this.endpoints.get(id);
    if (!e || e.accountId !== accountId || e.status === 'deleted') return false;
    if (e.status === 'disabled') return 'the SIP endpoint is disabled';
    if (!this.routes.find((r) => r.endpointId === id && r.status === 'active')) return 'the SIP endpoint has no active route';
    return true;
  }

  // --- endpoints ---

  /** Endpoints of the account newest first, deleted ones excluded. */
  listFor(accountId: string, status?: 'active' | 'disabled'): EndpointRow[] {
    return this.endpoints.newestFirst((e) => e.accountId === accountId && e.status !== 'deleted' && (status === undefined || e.status === status));
  }

  /** An endpoint of this account; another account's, an unknown or a deleted one is 404. */
  get(accountId: string, id: string): EndpointRow {
    const row = this.endpoints.get(id);
    if (!row || row.accountId !== accountId || row.status === 'deleted') {
      throw sipEndpointErrors.SIP_ENDPOINT_NOT_FOUND(`no SIP endpoint ${id} in this account`);
    }
    return row;
  }

  /** The endpoint's routes, priority ascending, equal priorities oldest first. */
  routesOf(endpointId: string): RouteRow[] {
    return byPriority(this.routes.all().filter((r) => r.endpointId === endpointId));
  }

  create(accountId: string, input: CreateSipEndpointInput): EndpointRow {
    this.requireAddon(accountId);
    const name = checkName(input.name);
    const now = this.rt.clock.nowIso();
    const id = freshId(this.rt.random, SIP_ENDPOINT_IDS.sipEndpoint, (x) => this.endpoints.has(x));
    return this.endpoints.insert({ id, accountId, name, maxConcurrent: input.maxConcurrent ?? null, status: 'active', dateCreated: now, dateUpdated: now });
  }

  /** Partial update; disabling is refused while numbers route to the endpoint. */
  update(accountId: string, id: string, input: UpdateSipEndpointInput): EndpointRow {
    const current = this.get(accountId, id);
    this.requireAddon(accountId);
    if (input.name === undefined && input.maxConcurrent === undefined && input.status === undefined) {
      throw sipEndpointErrors.NOTHING_TO_UPDATE('the body has no field to update (name, maxConcurrent, status)');
    }
    const next: EndpointRow = { ...current };
    if (input.name !== undefined) next.name = checkName(input.name);
    if (input.maxConcurrent !== undefined) next.maxConcurrent = input.maxConcurrent;
    if (input.status !== undefined) next.status = input.status;
    if (current.status === 'active' && next.status === 'disabled') this.refuseInUse(current, 'disabled');
    if (next.name === current.name && next.maxConcurrent === current.maxConcurrent && next.status === current.status) return current;
    next.dateUpdated = this.rt.clock.nowIso();
    return this.endpoints.replace(next);
  }

  /** Soft delete (reference): the endpoint disappears from every read; its routes go with it. */
  delete(accountId: string, id: string): void {
    const current = this.get(accountId, id);
    this.requireAddon(accountId);
    this.refuseInUse(current, 'deleted');
    this.endpoints.replace({ ...current, status: 'deleted', dateUpdated: this.rt.clock.nowIso() });
  }

  // --- routes ---

  getRoute(accountId: string, endpointId: string, routeId: string): RouteRow {
    this.get(accountId, endpointId);
    const row = this.routes.get(routeId);
    if (!row || row.endpointId !== endpointId) throw sipEndpointErrors.SIP_ROUTE_NOT_FOUND(`no route ${routeId} on SIP endpoint ${endpointId}`);
    return row;
  }

  createRoute(accountId: string, endpointId: string, input: CreateSipRouteInput): RouteRow {
    this.get(accountId, endpointId);
    this.requireAddon(accountId);
    const uri = checkUri(input.uri);
    const transport = input.transport ?? (uri.startsWith('sips:') ? 'tls' : 'udp');
    checkTransport(uri, transport);
    const now = this.rt.clock.nowIso();
    const id = freshId(this.rt.random, SIP_ENDPOINT_IDS.sipRoute, (x) => this.routes.has(x));
    return this.routes.insert({
      id,
      endpointId,
      uri,
      priority: input.priority ?? ROUTE_DEFAULTS.priority,
      weight: input.weight ?? ROUTE_DEFAULTS.weight,
      transport,
      status: 'active',
      lastUsedAt: null,
      lastFailureAt: null,
      failureCount: 0,
      dateCreated: now,
      dateUpdated: now,
    });
  }

  updateRoute(accountId: string, endpointId: string, routeId: string, input: UpdateSipRouteInput): RouteRow {
    const current = this.getRoute(accountId, endpointId, routeId);
    this.requireAddon(accountId);
    if (Object.values(input).every((v) => v === undefined)) {
      throw sipEndpointErrors.NOTHING_TO_UPDATE('the body has no field to update (uri, priority, weight, transport, status)');
    }
    const next: RouteRow = { ...current };
    if (input.uri !== undefined) next.uri = checkUri(input.uri);
    if (input.priority !== undefined) next.priority = input.priority;
    if (input.weight !== undefined) next.weight = input.weight;
    if (input.transport !== undefined) next.transport = input.transport;
    if (input.status !== undefined) next.status = input.status;
    checkTransport(next.uri, next.transport);
    const same = (['uri', 'priority', 'weight', 'transport', 'status'] as const).every((k) => next[k] === current[k]);
    if (same) return current;
    next.dateUpdated = this.rt.clock.nowIso();
    return this.routes.replace(next);
  }

  deleteRoute(accountId: string, endpointId: string, routeId: string): void {
    this.getRoute(accountId, endpointId, routeId);
    this.requireAddon(accountId);
    this.routes.delete(routeId);
  }

  // --- what the SIP server records when it offers calls to routes (spec "SIP route") ---

  /** An endpoint by id alone (the SIP server's view), undefined when unknown or deleted. */
  endpointById(id: string): EndpointRow | undefined {
    const row = this.endpoints.get(id);
    return row && row.status !== 'deleted' ? row : undefined;
  }

  /** A call was offered to the route: lastUsedAt. */
  routeUsed(routeId: string): void {
    const row = this.routes.get(routeId);
    if (row) this.routes.replace({ ...row, lastUsedAt: this.rt.clock.nowIso() });
  }

  /** The route failed a call (4xx/5xx/6xx or no answer in time): lastFailureAt and failureCount. */
  routeFailed(routeId: string): void {
    const row = this.routes.get(routeId);
    if (row) this.routes.replace({ ...row, lastFailureAt: this.rt.clock.nowIso(), failureCount: row.failureCount + 1 });
  }

  // --- helpers ---

  private requireAddon(accountId: string): void {
    if (!this.rt.accounts.hasAddon(accountId, 'sip_trunk')) {
      throw SIP_TRUNK_REQUIRED('SIP endpoints and routes need the sip_trunk add-on');
    }
  }

  /** 409 IN_USE naming every number of the account that routes to the endpoint. */
  private refuseInUse(endpoint: EndpointRow, becoming: 'disabled' | 'deleted'): void {
    const numbers = this.rt.numbers.routedToSipEndpoint(endpoint.accountId, endpoint.id);
    if (numbers.length === 0) return;
    throw sipEndpointErrors.IN_USE(
      `SIP endpoint ${endpoint.id} cannot be ${becoming}: ${numbers.length} number(s) route to it; route them elsewhere first`,
      { blockers: numbers.map((number) => ({ number, code: BLOCKER_NUMBER_ROUTES_HERE, message: `number ${number} routes to this endpoint (routingType sip)` })) },
    );
  }
}

function checkName(name: string): string {
  if (name.trim() === '') throw ApiError.validation('name must not be blank', [{ path: 'name', message: 'must not be blank' }]);
  return name;
}
