// The request pipeline, independent of any socket: route -> authenticate -> overseas check ->
// account check -> query and body validation -> handler -> one error serialiser. The node:http
// adapter (server.ts), the in-process `handle`/`fetch` API and the tests all go through here.
import { Router } from './core/router.ts';
import { ApiError, errorBody, errorCodes } from './core/errors.ts';
import { coerceQuery, parseQueryString } from './core/query.ts';
import { validate } from './core/schema.ts';
import { formToBody, isFormType } from './core/form-body.ts';
import { MAX_BODY_DEPTH, tooDeepAt } from './core/body-depth.ts';
import { header, type Operation, type Reply, type SimRequest, type SimResponse } from './core/operation.ts';

export { header };
import { rootScope, type Runtime } from './runtime.ts';
import { registry, type Registry } from './registry.ts';
import { matchUpgrade } from './upgrades.ts';
import type { UpgradeAnswer } from './core/live-socket.ts';
import { canonicalAddress } from './peers/geoip/model.ts';

export interface PipelineOptions {
  /** Bearer token the control plane requires; undefined leaves it open. */
  controlToken?: string;
  /** Largest accepted request body in bytes. */
  maxBodyBytes: number;
  /** Largest accepted state snapshot (PUT /_sim/state) in bytes: snapshots outgrow ordinary bodies. */
  maxSnapshotBytes?: number;
  /** Runs before each request (the realtime clock catches up here). */
  beforeRequest?: () => void;
  /** Receives defects (non-ApiError throws) for logging. */
  onDefect?: (error: unknown, request: SimRequest) => void;
}

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
function snapshotLimit(opts: PipelineOptions): number {
  return opts.maxSnapshotBytes ?? DEFAULT_MAX_SNAPSHOT_BYTES;
}

/** 256 MiB: a snapshot of several hundred thousand rows, well under V8's largest string (~512 MiB). */
export const DEFAULT_MAX_SNAPSHOT_BYTES = 256 * 1024 * 1024;

const JSON_TYPE = 'application/json; charset=utf-8';

const routers = new WeakMap<Registry, Router<Operation>>();

/** The router over a list's operations (default the whole list's); built once per list since operations are static data. */
export function router(reg: Registry = registry()): Router<Operation> {
  let r = routers.get(reg);
  if (!r) {
    r = new Router<Operation>();
    for (const op of reg.operations) {
      if (op.auth === 'account' && !op.path.includes('{accountId}')) {
        throw new Error(`${op.operationId}: account-scoped operations need {accountId} in the path`);
      }
      r.add(op.method, op.path, op);
    }
    routers.set(reg, r);
  }
  return r;
}

function jsonResponse(status: number, json: string, extra?: Record<string, string>): SimResponse {
  return { status, headers: extra ? { 'content-type': JSON_TYPE, ...extra } : { 'content-type': JSON_TYPE }, body: json };
}


export function errorResponse(e: ApiError, extra?: Record<string, string>): SimResponse {
  return jsonResponse(e.status, JSON.stringify(errorBody(e)), extra);
}

function toResponse(r: Reply): SimResponse {
  if (r.status === 204) return { status: 204, headers: { ...r.headers }, body: '' };
  if (r.raw !== undefined) return { status: r.status, headers: { ...r.headers }, body: r.raw, ...(r.stream ? { stream: r.stream } : {}) };
  if (r.bytes !== undefined) return { status: r.status, headers: { ...r.headers }, body: '', bytes: r.bytes };
  const json = r.json ?? JSON.stringify(r.body ?? null);
  return jsonResponse(r.status, json, r.headers);
}

function bearer(req: SimRequest): string | undefined {
  const h = header(req, 'authorization');
  if (!h) return undefined;
  const m = /^Bearer[ ]+(\S+)\s*$/i.exec(h);
  return m ? m[1] : '';
}

/** The client address: the first X-Forwarded-For hop when present (a test tool trusts it), else the socket's. */
export function clientAddress(req: SimRequest): string {
  const fwd = header(req, 'x-forwarded-for');
  const first = fwd?.split(',')[0]?.trim();
  return canonicalAddress(first || req.remoteAddress || '127.0.0.1');
}

/** What an operation's handler is handed: its owner family's scope, or the root's scope for the kernel's own. */
function scopeOf(rt: Runtime, op: Operation): unknown {
  return op.owner !== undefined ? rt.scopeOf(op.owner) : rootScope(rt);
}

function authenticate(rt: Runtime, op: Operation, req: SimRequest, params: Record<string, string>, opts: PipelineOptions): string {
  if (op.auth === 'none') return '';
  if (op.auth === 'control') {
    if (opts.controlToken !== undefined && bearer(req) !== opts.controlToken) {
      throw errorCodes.UNAUTHORIZED('the control plane needs "Authorization: Bearer <control token>"');
    }
    return '';
  }
  const key = bearer(req);
  if (key === undefined && op.auth === 'account' && op.signedLink?.(scopeOf(rt, op), req.url)) return params.accountId!; // the handler checks the account owns the resource
  if (key === undefined) throw errorCodes.UNAUTHORIZED('missing credentials: send "Authorization: Bearer <API key>"');
  if (key === '') throw errorCodes.UNAUTHORIZED('the Authorization header must be "Bearer <API key>"');
  const accountId = rt.accounts.accountForKey(key);
  if (!accountId) throw errorCodes.UNAUTHORIZED('the API key is not valid');
  if (!rt.geoip.empty) {
    const ip = clientAddress(req);
    if (rt.geoip.isForeign(ip) && !rt.accounts.get(accountId)!.ipExceptions.includes(ip)) {
      throw errorCodes.OVERSEAS_IP_BLOCKED(`requests from outside the country are refused (${ip})`, { ip });
    }
  }
  if (op.auth === 'account' && params.accountId !== accountId) {
    throw errorCodes.FORBIDDEN(`the API key does not belong to account ${params.accountId}`);
  }
  return accountId;
}

function isJsonType(contentType: string | undefined): boolean {
  if (!contentType) return true; // no declared type: try JSON, as most servers do
  const t = contentType.split(';')[0]!.trim().toLowerCase();
  return t === 'application/json' || t.endsWith('+json');
}

function bodyText(body: SimRequest['body']): string {
  if (body === undefined) return '';
  return typeof body === 'string' ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
}

function bodyLength(body: SimRequest['body']): number {
  if (body === undefined) return 0;
  return typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
}

function parseBody(op: Operation, req: SimRequest): unknown {
  const text = bodyText(req.body);
  if (text.trim() === '') {
    // The official SDK sends an empty body with Content-Type: application/json; that is "no body".
    if (op.bodyRequired) throw ApiError.validation('a JSON request body is required', [{ path: '', message: 'is required' }]);
    return undefined;
  }
  const contentType = header(req, 'content-type');
  const formAccepted = op.bodyEncodings?.includes('form') ?? false;
  let value: unknown;
  if (formAccepted && isFormType(contentType)) {
    value = formToBody(text, op.body!, op.formSpaceLists);
  } else if (!isJsonType(contentType)) {
    const accepted = formAccepted ? 'application/json or application/x-www-form-urlencoded' : 'application/json';
    throw errorCodes.UNSUPPORTED_MEDIA_TYPE(`send the body as ${accepted} (got ${contentType})`);
  } else {
    try {
      value = JSON.parse(text);
    } catch (e) {
      throw errorCodes.INVALID_JSON(`the request body is not valid JSON: ${(e as Error).message}`);
    }
  }
  const deep = tooDeepAt(value);
  if (deep !== undefined) {
    throw ApiError.validation(`the request body nests arrays and objects deeper than ${MAX_BODY_DEPTH} levels (the limit), at ${deep}`, [{ path: deep, message: `nests deeper than ${MAX_BODY_DEPTH} levels` }]);
  }
  if (op.immutable && value && typeof value === 'object' && !Array.isArray(value)) {
    const touched = op.immutable.fields.filter((f) => f in value);
    if (touched.length > 0) {
      throw errorCodes.IMMUTABLE_FIELD(`${touched.join(' and ')} cannot be changed; ${op.immutable.advice}`, {
        errors: touched.map((f) => ({ path: f, message: 'cannot be changed' })),
      });
    }
  }
  validate(op.body!, value, 'request body');
  return value;
}

/** HEAD is GET without the body (RFC 9110 §9.3.2): it routes to the GET operation. */
function routedMethod(method: string): string {
  const m = method.toUpperCase();
  return m === 'HEAD' ? 'GET' : m;
}

/** The body limit of an operation: the snapshot limit for a state import, its own limit if it has one, else the request-body limit. */
function operationLimit(opts: PipelineOptions, op: Operation): number {
  return op.snapshotBody ? snapshotLimit(opts) : (op.maxBodyBytes ?? opts.maxBodyBytes);
}

/** The body limit of the operation at method and URL (the general limit when nothing matches). */
export function bodyLimit(opts: PipelineOptions, method: string, url: string): number {
  const q = url.indexOf('?');
  const match = router().match(routedMethod(method), q === -1 ? url : url.slice(0, q));
  return match.kind === 'found' ? operationLimit(opts, match.value) : opts.maxBodyBytes;
}

/** A HEAD answer: the GET answer's status and headers, its length declared, no body. */
function headOf(r: SimResponse): SimResponse {
  const length = r.bytes ? r.bytes.byteLength : Buffer.byteLength(r.body);
  return { status: r.status, headers: { ...r.headers, 'content-length': String(length) }, body: '' };
}

/** Runs one request through the pipeline. Sync when the handler is; never throws. */
export function dispatch(rt: Runtime, opts: PipelineOptions, req: SimRequest): SimResponse | Promise<SimResponse> {
  if (req.method.toUpperCase() !== 'HEAD') return dispatchRouted(rt, opts, req);
  const out = dispatchRouted(rt, opts, req);
  return out instanceof Promise ? out.then(headOf) : headOf(out);
}

function dispatchRouted(rt: Runtime, opts: PipelineOptions, req: SimRequest): SimResponse | Promise<SimResponse> {
  const q = req.url.indexOf('?');
  const path = q === -1 ? req.url : req.url.slice(0, q);
  const method = req.method.toUpperCase();
  const match = router(rt.registry).match(routedMethod(method), path);
  if (match.kind === 'not-found') {
    if (method === 'GET' && matchUpgrade(path).kind === 'found') return errorResponse(errorCodes.UPGRADE_REQUIRED(`${path} is a WebSocket endpoint: connect with "Upgrade: websocket"`), { upgrade: 'websocket' });
    return errorResponse(errorCodes.NOT_FOUND(`no operation at ${method} ${path}`));
  }
  if (match.kind === 'bad-path') return errorResponse(ApiError.validation(match.reason));
  if (match.kind === 'method-not-allowed') {
    const allowed = match.allowed.includes('GET') ? [...match.allowed, 'HEAD'].sort() : match.allowed;
    return errorResponse(errorCodes.METHOD_NOT_ALLOWED(`${method} is not allowed on ${path} (allowed: ${allowed.join(', ')})`), { allow: allowed.join(', ') });
  }
  const op = match.value;
  try {
    const limit = operationLimit(opts, op);
    if (bodyLength(req.body) > limit) {
      throw errorCodes.PAYLOAD_TOO_LARGE(`the request body is larger than ${limit} bytes`);
    }
    opts.beforeRequest?.();
    const accountId = authenticate(rt, op, req, match.params, opts);
    const query = op.query ? coerceQuery(parseQueryString(q === -1 ? '' : req.url.slice(q + 1)), op.query) : {};
    const body = op.body ? parseBody(op, req) : undefined;
    const input = { accountId, params: match.params, query, body, request: req };
    // A handler sees its family's scope only (the kernel's own operations: the root's scope).
    const result = op.handler({ scope: scopeOf(rt, op), ...input } as Parameters<Operation['handler']>[0]);
    if (result instanceof Promise) return result.then(toResponse, (e) => failure(e, req, opts));
    return toResponse(result);
  } catch (e) {
    return failure(e, req, opts);
  }
}

/**
 * Answers a WebSocket upgrade request (server.ts): the family's route refuses with an HTTP answer
 * or accepts with its session; the clock is brought up to date first, as before any request.
 */
export function upgrade(rt: Runtime, opts: PipelineOptions, req: SimRequest): UpgradeAnswer {
  const q = req.url.indexOf('?');
  const path = q === -1 ? req.url : req.url.slice(0, q);
  const match = matchUpgrade(path);
  if (match.kind !== 'found') return { refuse: errorResponse(errorCodes.NOT_FOUND(`no WebSocket at ${path}`)) };
  try {
    opts.beforeRequest?.();
    return match.value.upgrade(rt.scopeOf(match.value.owner), req, match.params, new URLSearchParams(q === -1 ? '' : req.url.slice(q + 1)));
  } catch (e) {
    return { refuse: failure(e, req, opts) };
  }
}

function failure(e: unknown, req: SimRequest, opts: PipelineOptions): SimResponse {
  if (e instanceof ApiError) return errorResponse(e);
  opts.onDefect?.(e, req);
  return errorResponse(errorCodes.INTERNAL(`internal simulator error: ${(e as Error)?.message ?? String(e)}`));
}
