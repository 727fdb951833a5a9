// What an operation is: its wire identity (method, path, operationId), where it comes from
// (spec, reference or our choice), its schemas and its handler, which sees one scope (its
// family's, or the kernel's for the fixed control plane and the documents). Routes are declared
// as data with a scope's definer (`scopedOperations<S>()`); the dispatcher, the OpenAPI document
// and the conformance contract all read the same declarations.
import type { Static, TSchema } from '@sinclair/typebox';
import type { ErrorFactory, Origin } from './errors.ts';
import type { Method } from './router.ts';

/** Who may call: an account key matching {accountId}, any account key, anyone, or the control plane. */
export type AuthMode = 'account' | 'key' | 'none' | 'control';

export interface SimRequest {
  method: string;
  /** Path plus optional query string, e.g. "/v1/accounts/AC1/numbers?x=1". */
  url: string;
  headers?: Record<string, string | string[] | undefined>;
  body?: string | Uint8Array;
  /** Address of the client; defaults to 127.0.0.1. */
  remoteAddress?: string;
  /** Set by the HTTP adapter: header names are already lowercase (node:http does that). */
  lowercaseHeaders?: boolean;
}

export interface SimResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** A binary body (images): sent instead of `body`, which is then "". */
  bytes?: Uint8Array;
  /** A stream that follows `body` (server-sent events): the HTTP adapter keeps the response open. */
  stream?: EventStream;
}

/** An open-ended response body: `open` starts writing chunks and returns the function that stops. */
export interface EventStream {
  open(write: (chunk: string) => void): () => void;
}

/** A request header by lowercase name (first value when repeated). */
export function header(req: SimRequest, name: string): string | undefined {
  const h = req.headers;
  if (!h) return undefined;
  let v = h[name];
  if (v === undefined && !req.lowercaseHeaders) {
    for (const k in h) {
      if (k.toLowerCase() === name) {
        v = h[k];
        break;
      }
    }
  }
  return Array.isArray(v) ? v[0] : v;
}

/** What a handler returns: a JS value to serialise, or ready JSON text (cached rows). */
export interface Reply {
  status: number;
  body?: unknown;
  json?: string;
  headers?: Record<string, string>;
  /** A non-JSON body (HTML pages, WAV files) with its content type in `headers`. */
  raw?: string;
  /** A binary body (images) with its content type in `headers`. */
  bytes?: Uint8Array;
  /** Server-sent events after `raw` (with its content type in `headers`). */
  stream?: EventStream;
}

/** What a handler receives: its family's scope (core/scope.ts), never the runtime. */
export interface ScopedCtx<S, P = Record<string, string>, Q = Record<string, unknown>, B = unknown> {
  scope: S;
  /** The authenticated account (from the key); undefined for `none` and `control` routes. */
  accountId: string;
  params: P;
  query: Q;
  body: B;
  request: SimRequest;
}

export interface ResponseDoc {
  description: string;
  schema?: TSchema;
  /** Content type when not JSON (e.g. "text/html"). */
  contentType?: string;
}

/**
 * One request the operation accepts, shown in the OpenAPI document: its parameters beside each
 * parameter and its body under the request body's `examples`, all under the same `name`.
 * Sent in document order against the default fixture, each succeeds (openapi-examples.test.ts).
 */
export interface OperationExample {
  /** The key that pairs the example's parameters and body in the document. */
  name: string;
  summary: string;
  params?: Record<string, string>;
  query?: Record<string, string | number | boolean | readonly string[]>;
  headers?: Record<string, string>;
  body?: unknown;
  /** The encoding of `body` when not JSON (a form, or multipart/form-data). */
  contentType?: string;
}

/** A request body the handler reads itself (multipart, a form, JSON-RPC): documented, not validated by the pipeline. */
export interface BodyDoc {
  required: boolean;
  content: Record<string, { schema: TSchema; encoding?: Record<string, { contentType: string }> }>;
}

type StaticRecord<R> = { [K in keyof R]: R[K] extends TSchema ? Static<R[K]> : never };

export interface OperationSpec<
  S = any,
  P extends Record<string, TSchema> = Record<string, TSchema>,
  Q extends Record<string, TSchema> = Record<string, TSchema>,
  B extends TSchema | undefined = TSchema | undefined,
> {
  operationId: string;
  method: Method;
  path: string;
  tag: string;
  summary: string;
  description?: string;
  /** spec: the interface spec shows it; reference: shaped after the public API document; simulator: our design. */
  origin: Origin;
  /** Where the origin is not the spec, the line of docs/decisions.md or the reference it follows. */
  basis?: string;
  auth: AuthMode;
  /**
   * `account` downloads that also take a signed link instead of the bearer header: called only
   * when the request has no Authorization header; true when the URL is a valid signed link,
   * undefined when it carries no signature (the usual 401 follows); throws when it is invalid.
   * It gets what the handler gets: its family's scope.
   */
  signedLink?: (scope: S, url: string) => true | undefined;
  params?: P;
  query?: Q;
  /** Request headers the handler reads itself (documented as header parameters; the pipeline does not check them). */
  headerParams?: Record<string, TSchema>;
  body?: B;
  /** Whether a body must be present; an empty body with a JSON content type counts as none. */
  bodyRequired?: boolean;
  /** The body is a state snapshot: it may be as large as the snapshot limit, not the request-body limit. */
  snapshotBody?: boolean;
  /** The body may be this large (bytes) instead of the general request-body limit: an operation the reference gives its own limit. */
  maxBodyBytes?: number;
  /** Body encodings accepted (default JSON only); `form` is application/x-www-form-urlencoded (core/form-body.ts). */
  bodyEncodings?: readonly ('json' | 'form')[];
  /** Form bodies: string fields whose repeated keys are joined by spaces (space-separated lists). */
  formSpaceLists?: readonly string[];
  /** A body the handler parses itself, for the document only (an operation has this or `body`). */
  bodyDoc?: BodyDoc;
  /** Requests to show in the document; every public operation has at least one. */
  examples?: readonly OperationExample[];
  /** Body fields that exist on the resource but cannot be changed here, with the advice to give. */
  immutable?: { fields: string[]; advice: string };
  /** The success responses. */
  responses: Record<number, ResponseDoc>;
  /** Error codes the handler may raise beyond the generic ones (validation, auth, body). */
  errors?: ErrorFactory[];
  handler: (ctx: ScopedCtx<S, StaticRecord<P>, Partial<StaticRecord<Q>>, B extends TSchema ? Static<B> : undefined>) => Reply | Promise<Reply>;
  /**
   * It changes only live peers (sockets the simulator runs, such as fake MCP servers), never
   * state: a durable state dir does not journal it, and a restart does not bring those peers back.
   */
  liveOnly?: boolean;
  /**
   * A GET that changes state (it checks something at a peer and records what it found): a
   * durable state dir journals it, where it leaves every other GET and HEAD out as a read.
   */
  writesOnRead?: boolean;
  /** Set by the registry: the key of the family that declared it (its scope is the one handed in); none for the kernel's own. */
  owner?: string;
}

export type Operation = OperationSpec<any, any, any, any>;

/**
 * The definer of a scope's operations: `const operation = scopedOperations<BlockListsScope>()`,
 * then `operation({...})`; the handler gets `ctx.scope` typed as that scope, and its params,
 * query and body typed from their schemas.
 */
export function scopedOperations<S>() {
  return <P extends Record<string, TSchema>, Q extends Record<string, TSchema>, B extends TSchema | undefined = undefined>(
    op: Omit<OperationSpec<S, P, Q, B>, 'owner'>,
  ): Operation => op as unknown as Operation;
}

export const reply = {
  ok: (body: unknown): Reply => ({ status: 200, body }),
  created: (body: unknown): Reply => ({ status: 201, body }),
  json: (status: number, json: string): Reply => ({ status, json }),
  noContent: (): Reply => ({ status: 204 }),
};

/** The origin clients reach the simulator at, from the request (Host; X-Forwarded-Proto https). */
export function apiOrigin(req: SimRequest): string {
  const host = header(req, 'host');
  const proto = header(req, 'x-forwarded-proto') === 'https' ? 'https' : 'http';
  // Anything odd in Host (it is client-controlled) falls back to localhost rather than build a bad URL.
  return host && /^[A-Za-z0-9.\-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/.test(host) ? `${proto}://${host}` : 'http://localhost';
}
