// Turning a step into the wire request it sends: operation or raw path, the account whose key
// is sent and whose id fills the path, query, headers and body, all interpolated.
import type { Contract, ContractOperation } from '../contract/contract.ts';
import type { WireRequest } from '../target.ts';
import { Scope, UnresolvedError } from './interpolate.ts';
import type { ApiRequestSpec, ControlSpec } from './types.ts';

export interface BuiltRequest {
  wire: WireRequest;
  op?: ContractOperation;
  /** The resolved JSON body, when one is sent (secret fields are registered from it). */
  body?: unknown;
}

/** A key no implementation has issued, for "invalid key" requests. */
export function invalidKeyFor(scope: Scope): string {
  return `sk_test_conformance_invalid_${String(scope.get('seed') ?? 0)}`;
}

function credentials(scope: Scope, who: string, expression: string): { accountId: string; key: string } {
  const v = scope.evaluate(who) as { accountId?: unknown; key?: unknown };
  if (!v || typeof v.accountId !== 'string' || typeof v.key !== 'string') {
    throw new UnresolvedError(expression, `"${who}" is not an account (it needs accountId and key)`);
  }
  return v as { accountId: string; key: string };
}

function queryString(query: Record<string, unknown> | undefined): string {
  if (!query) return '';
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null) continue;
    for (const item of Array.isArray(v) ? v : [v]) qs.append(k, typeof item === 'string' ? item : JSON.stringify(item));
  }
  const s = qs.toString();
  return s ? `?${s}` : '';
}

export function buildApiRequest(spec: ApiRequestSpec, scope: Scope, contract: Contract): BuiltRequest {
  const r = scope.resolve(spec);
  const who = r.as ?? 'main';
  const headers: Record<string, string> = {};
  if (who === 'invalid') headers.authorization = `Bearer ${invalidKeyFor(scope)}`;
  else if (who !== 'none') headers.authorization = `Bearer ${credentials(scope, who, `as: ${who}`).key}`;

  let method: string;
  let path: string;
  let op: ContractOperation | undefined;
  if (r.operationId) {
    op = contract.operation(r.operationId)!;
    method = op.method;
    const owner = r.account ?? (who === 'none' || who === 'invalid' ? 'main' : who);
    const params: Record<string, unknown> = { ...r.params };
    if (op.pathParams.includes('accountId') && params.accountId === undefined) params.accountId = credentials(scope, owner, `account: ${owner}`).accountId;
    path = contract.pathOf(op).replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(String(params[name])));
    path += queryString(r.query);
  } else {
    method = r.method!;
    path = r.path! + queryString(r.query);
    op = contract.match(method, path)?.op;
  }

  let body: string | undefined;
  if (r.rawBody !== undefined) body = r.rawBody;
  else if (r.body !== undefined) body = JSON.stringify(r.body);
  if (body !== undefined) headers['content-type'] = 'application/json';
  for (const [k, v] of Object.entries(r.headers ?? {})) {
    for (const existing of Object.keys(headers)) if (existing.toLowerCase() === k.toLowerCase()) delete headers[existing];
    headers[k.toLowerCase()] = v;
  }
  return { wire: { method, path, headers, body }, op, body: r.body };
}

export interface ControlCall {
  method: string;
  path: string;
  body?: unknown;
  /** The capability the target's control plane must list. */
  capability: string;
}

/** The control-plane request behind a control step (paths are the fixed /_sim contract). */
export function controlCall(spec: ControlSpec, scope: Scope): ControlCall {
  const c = scope.resolve(spec);
  if (c.advance) return { method: 'POST', path: '/_sim/clock/advance', body: c.advance, capability: 'clock' };
  if (c.createAccount) return { method: 'POST', path: '/_sim/accounts', body: c.createAccount, capability: 'accounts' };
  if (c.reset) return { method: 'POST', path: '/_sim/reset', body: c.reset, capability: 'state' };
  if (c.foreign) return { method: 'POST', path: '/_sim/geoip/foreign', body: { ip: c.foreign }, capability: 'geoip' };
  return { method: c.method!, path: `/_sim${c.path}`, body: c.body, capability: 'control' };
}

export function controlRequest(call: ControlCall, controlToken: string | undefined): WireRequest {
  const headers: Record<string, string> = {};
  if (controlToken) headers.authorization = `Bearer ${controlToken}`;
  if (call.body !== undefined) headers['content-type'] = 'application/json';
  return { method: call.method, path: call.path, headers, body: call.body === undefined ? undefined : JSON.stringify(call.body) };
}
