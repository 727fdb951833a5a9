// Probes: after a successful read the kit asks again the way an attacker or a buggy client
// would, and judges the answer (RESTler's checkers are the model): no key or a bad key gives
// 401, another account's key 403, another account's resource is never served, and a deleted
// resource is gone.
import type { Exchange, Probe, ProbeContext, ProbeRequest } from './types.ts';
import { isApiCall } from './types.ts';

function withAuth(ex: Exchange, authorization: string | undefined): ProbeRequest['request'] {
  const headers = { ...ex.request.headers };
  for (const k of Object.keys(headers)) if (k.toLowerCase() === 'authorization') delete headers[k];
  if (authorization !== undefined) headers.authorization = authorization;
  return { ...ex.request, headers };
}

/** A successful read of the API under a bearer key: the base of every probe. */
function successfulRead(ex: Exchange): boolean {
  return isApiCall(ex) && ex.op !== undefined && (ex.op.auth === 'account' || ex.op.auth === 'key') && ex.request.method === 'GET' && ex.response.status >= 200 && ex.response.status < 300;
}

const once = (ex: Exchange) => ex.op!.operationId;

/** A probe that repeats a successful read with other credentials and expects one status. */
function credentialProbe(spec: {
  id: string;
  clauses: string[];
  description: string;
  /** The Authorization header to send (`header: undefined` sends none); undefined when the probe does not apply. */
  authorization: (ex: Exchange, ctx: ProbeContext) => { header: string | undefined } | undefined;
  status: number;
  /** "without a key", "with an unknown key", ... */
  what: string;
}): Probe {
  return {
    id: spec.id,
    level: 'spec',
    clauses: spec.clauses,
    description: spec.description,
    onceKey: once,
    plan(ex, ctx) {
      const auth = successfulRead(ex) ? spec.authorization(ex, ctx) : undefined;
      return auth && { request: withAuth(ex, auth.header), expectation: `${spec.status} ${spec.what}` };
    },
    verdict: (_p, res) => (res.status === spec.status ? undefined : `${spec.what} the request got ${res.status}, expected ${spec.status}`),
  };
}

const missingKeyBase = credentialProbe({
  id: 'auth-missing-key',
  clauses: ['auth.bearer-required', 'errors.401'],
  description: 'The same request without an Authorization header gets 401 (a signed recording link is asked for by its bare path).',
  authorization: () => ({ header: undefined }),
  status: 401,
  what: 'without a key',
});

/**
 * Recording links issued before 2026-07-28 were signed (spec Limits) and download without the
 * key, so the probe drops `expires` and `signature` from such a URL: the bare path needs the key.
 */
export const missingKey: Probe = {
  ...missingKeyBase,
  plan(ex, ctx) {
    const planned = missingKeyBase.plan(ex, ctx);
    if (!planned || !ex.query.has('signature')) return planned;
    const q = new URLSearchParams(ex.query);
    q.delete('signature');
    q.delete('expires');
    const path = planned.request.path.split('?')[0]! + (q.toString() !== '' ? `?${q}` : '');
    return { ...planned, request: { ...planned.request, path } };
  },
};

export const invalidKey = credentialProbe({
  id: 'auth-invalid-key',
  clauses: ['auth.invalid-key', 'errors.401'],
  description: 'The same request with an unknown key gets 401.',
  authorization: (_ex, ctx) => ({ header: `Bearer ${ctx.invalidKey}` }),
  status: 401,
  what: 'with an unknown key',
});

export const otherAccountKey = credentialProbe({
  id: 'auth-other-account',
  clauses: ['auth.other-account-403', 'errors.403-other-account'],
  description: "The same request with the second account's key (the path still names the first account) gets 403.",
  authorization: (ex, ctx) => (ex.op!.auth === 'account' && ctx.alt && ctx.alt.accountId !== ex.params.accountId ? { header: `Bearer ${ctx.alt.key}` } : undefined),
  status: 403,
  what: "with another account's key",
});

export const otherAccountResource: Probe = {
  id: 'namespace-isolation',
  level: 'spec',
  clauses: ['conventions.account-ownership'],
  description: "The second account, asking for the first account's resource by id (under its own account path, or by its key alone where the path names no account), is not served it.",
  onceKey: once,
  plan(ex, ctx) {
    if (!successfulRead(ex) || !ctx.alt) return undefined;
    const op = ex.op!;
    // Only reads of one resource by id: a path parameter besides the account.
    if (op.pathParams.filter((p) => p !== 'accountId').length === 0) return undefined;
    let path = ex.request.path;
    if (op.auth === 'account') {
      if (ex.params.accountId === ctx.alt.accountId) return undefined;
      path = path.replace(`/accounts/${encodeURIComponent(ex.params.accountId!)}/`, `/accounts/${encodeURIComponent(ctx.alt.accountId)}/`);
      if (path === ex.request.path) return undefined;
    }
    return { request: { ...withAuth(ex, `Bearer ${ctx.alt.key}`), path }, expectation: "no 2xx for another account's resource" };
  },
  verdict: (_p, res) => (res.status >= 200 && res.status < 300 ? `another account was served this resource (status ${res.status})` : undefined),
};

export const deletedIsGone: Probe = {
  id: 'use-after-delete',
  level: 'spec',
  clauses: [],
  description: 'After a DELETE that answers 204 (the resource is gone, not kept as history), a GET of the same path gets 404.',
  plan(ex) {
    if (!isApiCall(ex) || !ex.op || ex.request.method !== 'DELETE' || ex.response.status !== 204) return undefined;
    const template = ex.contract.pathOf(ex.op);
    const getter = [...ex.contract.operations.values()].find((o) => o.method === 'GET' && ex.contract.pathOf(o) === template);
    if (!getter) return undefined;
    return { request: { method: 'GET', path: ex.request.path.split('?')[0]!, headers: withAuth(ex, ex.request.headers.authorization).headers }, expectation: '404 after delete' };
  },
  verdict: (_p, res) => (res.status === 404 ? undefined : `GET after DELETE got ${res.status}, expected 404`),
};
