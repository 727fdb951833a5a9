// The contract as the kit reads it: operations by id, a path matcher, documented statuses and
// content types, and compiled validators for response bodies. It is built from an OpenAPI 3.1
// document (the committed conformance/contract.json by default), never from the target. The
// kit only reads that JSON: it is written on the simulator's side (`npm run contract -- --write`).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { pointerGet, SchemaValidator, type SchemaProblem } from './validator.ts';

type Json = Record<string, any>;

export const CONTRACT_PATH = fileURLToPath(new URL('../contract.json', import.meta.url));

/** Who may call an operation, read from the document's `security` and path. */
export type ContractAuth = 'account' | 'key' | 'none' | 'control';

export interface ContractResponse {
  status: number;
  /** Content type of the documented body, when one is documented. */
  contentType?: string;
  /** JSON pointer of the body schema inside the document. */
  schemaPointer?: string;
  /** Error codes documented for this status (`x-error-codes`). */
  errorCodes: string[];
}

export interface QueryParam {
  name: string;
  schema: Json;
  deprecated: boolean;
}

/** Paging rules of a list operation, read from its `page` and `pageSize` parameters. */
export interface PagingRules {
  firstPage: number;
  defaultPageSize: number;
  maxPageSize: number;
  /** Deprecated aliases of pageSize the operation declares (`page_size`, `limit`). */
  aliases: string[];
}

export interface ContractOperation {
  operationId: string;
  method: string;
  /** Path template as the contract declares it. */
  path: string;
  /** spec | reference | simulator (`x-origin`). */
  origin: string;
  auth: ContractAuth;
  tag: string;
  pathParams: string[];
  query: QueryParam[];
  /** Pointer of the request body schema, if the operation takes a body. */
  bodyPointer?: string;
  bodyRequired: boolean;
  responses: Map<number, ContractResponse>;
  /** Set when the operation answers the standard list envelope with paging. */
  paging?: PagingRules;
}

export interface PathOverride {
  /** The path template this implementation serves the operation at. */
  path?: string;
  /** The implementation lacks the operation: steps using it are skipped. */
  unsupported?: boolean;
}

function pointerEscape(s: string): string {
  return s.replace(/~/g, '~0').replace(/\//g, '~1');
}

function resolveRef(doc: Json, node: Json | undefined): Json | undefined {
  if (!node || typeof node.$ref !== 'string') return node;
  const parts = node.$ref.replace(/^#\//, '').split('/').map((p: string) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  let cur: any = doc;
  for (const p of parts) cur = cur?.[p];
  return cur;
}

function authOf(op: Json, path: string): ContractAuth {
  const security = op.security as Json[] | undefined;
  if (Array.isArray(security) && security.length === 0) return 'none';
  if (Array.isArray(security) && security.some((s) => s && 'controlToken' in s)) return 'control';
  return path.includes('{accountId}') ? 'account' : 'key';
}

function pagingOf(doc: Json, query: QueryParam[], responses: Map<number, ContractResponse>): PagingRules | undefined {
  const page = query.find((q) => q.name === 'page');
  const size = query.find((q) => q.name === 'pageSize');
  const ok = responses.get(200);
  if (!page || !size || !ok?.schemaPointer) return undefined;
  const schema = resolveRef(doc, pointerGet(doc, ok.schemaPointer));
  if (!schema?.properties?.meta || !schema.properties.data) return undefined;
  return {
    firstPage: typeof page.schema.minimum === 'number' ? page.schema.minimum : 0,
    defaultPageSize: typeof size.schema.default === 'number' ? size.schema.default : 20,
    maxPageSize: typeof size.schema.maximum === 'number' ? size.schema.maximum : 100,
    aliases: query.filter((q) => q.name === 'page_size' || q.name === 'limit').map((q) => q.name),
  };
}

// The document is only read, never changed (withOverrides already shares it), so contracts of
// one file text share the parsed document and its validator: the validators compiled for one run
// serve the next in the same process (the kit's tests load the contract dozens of times).
const parsedFiles = new Map<string, { text: string; document: Json }>();
const validators = new WeakMap<Json, SchemaValidator>();
function validatorOf(document: Json): SchemaValidator {
  let found = validators.get(document);
  if (!found) validators.set(document, (found = new SchemaValidator(document)));
  return found;
}

interface CompiledPath {
  op: ContractOperation;
  regex: RegExp;
  names: string[];
}

/** Where match() looks for a path: its method and how many segments it has (trailing slash removed). */
function bucketOf(method: string, path: string): string {
  let segments = 1;
  for (let i = path.indexOf('/'); i >= 0; i = path.indexOf('/', i + 1)) segments++;
  return `${method} ${segments}`;
}

function compileTemplate(template: string): { regex: RegExp; names: string[] } {
  const names: string[] = [];
  const body = template
    .replace(/\/+$/, '')
    .split('/')
    .map((seg) => {
      const m = /^\{([^}]+)\}$/.exec(seg);
      if (m) {
        names.push(m[1]!);
        return '([^/]+)';
      }
      return seg.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return { regex: new RegExp(`^${body}/?$`), names };
}

export class Contract {
  readonly document: Json;
  readonly operations = new Map<string, ContractOperation>();
  private readonly validator: SchemaValidator;
  private readonly overrides: Record<string, PathOverride>;
  /** The compiled templates by method and segment count (a template's `{param}` is one segment), each list in match order. */
  private compiled = new Map<string, CompiledPath[]>();

  constructor(document: Json, overrides: Record<string, PathOverride> = {}) {
    this.document = document;
    this.overrides = overrides;
    for (const [path, item] of Object.entries<Json>(document.paths ?? {})) {
      for (const [method, op] of Object.entries<Json>(item)) {
        if (!op || typeof op !== 'object' || typeof op.operationId !== 'string') continue;
        const base = `#/paths/${pointerEscape(path)}/${method}`;
        const params = (op.parameters ?? []) as Json[];
        const responses = new Map<number, ContractResponse>();
        for (const [status, r] of Object.entries<Json>(op.responses ?? {})) {
          const content = Object.entries<Json>(r.content ?? {})[0];
          responses.set(Number(status), {
            status: Number(status),
            contentType: content?.[0],
            schemaPointer: content ? `${base}/responses/${status}/content/${pointerEscape(content[0])}/schema` : undefined,
            errorCodes: Array.isArray(r['x-error-codes']) ? r['x-error-codes'] : [],
          });
        }
        const query = params.filter((p) => p.in === 'query').map((p) => ({ name: p.name, schema: p.schema ?? {}, deprecated: Boolean(p.deprecated) }));
        const entry: ContractOperation = {
          operationId: op.operationId,
          method: method.toUpperCase(),
          path,
          origin: op['x-origin'] ?? 'spec',
          auth: authOf(op, path),
          tag: op.tags?.[0] ?? '',
          pathParams: params.filter((p) => p.in === 'path').map((p) => p.name),
          query,
          bodyPointer: op.requestBody ? `${base}/requestBody/content/application~1json/schema` : undefined,
          bodyRequired: Boolean(op.requestBody?.required),
          responses,
        };
        entry.paging = pagingOf(document, query, responses);
        if (this.operations.has(entry.operationId)) throw new Error(`contract: operationId ${entry.operationId} appears twice`);
        this.operations.set(entry.operationId, entry);
      }
    }
    for (const id of Object.keys(overrides)) {
      if (!this.operations.has(id)) throw new Error(`target file maps operation "${id}", which the contract does not have`);
    }
    this.validator = validatorOf(document);
    this.compilePaths();
  }

  static load(path = CONTRACT_PATH, overrides: Record<string, PathOverride> = {}): Contract {
    const text = readFileSync(path, 'utf8');
    let parsed = parsedFiles.get(path);
    if (parsed?.text !== text) parsedFiles.set(path, (parsed = { text, document: JSON.parse(text) }));
    return new Contract(parsed.document, overrides);
  }

  /** A copy of this contract with an implementation's path mapping applied. */
  withOverrides(overrides: Record<string, PathOverride>): Contract {
    return new Contract(this.document, { ...this.overrides, ...overrides });
  }

  operation(id: string): ContractOperation | undefined {
    return this.operations.get(id);
  }

  /** The path template this target serves the operation at (after the target's mapping). */
  pathOf(op: ContractOperation): string {
    return this.overrides[op.operationId]?.path ?? op.path;
  }

  isUnsupported(op: ContractOperation): boolean {
    return Boolean(this.overrides[op.operationId]?.unsupported);
  }

  /** The operation a concrete request path and method belong to (on this target's paths). */
  match(method: string, path: string): { op: ContractOperation; params: Record<string, string> } | undefined {
    const clean = path.split('?')[0]!;
    // A template matches its own number of segments, with or without one trailing slash.
    for (const c of this.compiled.get(bucketOf(method.toUpperCase(), clean.endsWith('/') ? clean.slice(0, -1) : clean)) ?? []) {
      const m = c.regex.exec(clean);
      if (!m) continue;
      const params: Record<string, string> = {};
      c.names.forEach((n, i) => {
        try {
          params[n] = decodeURIComponent(m[i + 1]!);
        } catch {
          params[n] = m[i + 1]!;
        }
      });
      return { op: c.op, params };
    }
    return undefined;
  }

  /** Problems of `body` against the documented schema of `op` answering `status`. */
  responseProblems(op: ContractOperation, status: number, body: unknown, mode: 'strict' | 'lenient'): SchemaProblem[] | undefined {
    const pointer = op.responses.get(status)?.schemaPointer;
    if (!pointer) return undefined;
    return this.validator.problems(pointer, body, mode);
  }

  /** Whether a body that passes the strict schema of this answer passes the lenient one too (SchemaValidator.strictImpliesLenient). */
  strictImpliesLenient(op: ContractOperation, status: number): boolean {
    const pointer = op.responses.get(status)?.schemaPointer;
    return pointer !== undefined && this.validator.strictImpliesLenient(pointer);
  }

  /** Problems of `value` against any schema of the document, by pointer. */
  schemaProblems(pointer: string, value: unknown, mode: 'strict' | 'lenient'): SchemaProblem[] {
    return this.validator.problems(pointer, value, mode);
  }

  /** The schema at a pointer, with `$ref`s at the top resolved. */
  schemaAt(pointer: string): Json | undefined {
    return resolveRef(this.document, pointerGet(this.document, pointer));
  }

  resolve(node: Json | undefined): Json | undefined {
    return resolveRef(this.document, node);
  }

  private compilePaths(): void {
    // Static segments win over parameters: sort templates with more literal segments first.
    const literalWeight = (p: string) => p.split('/').map((s) => (s.startsWith('{') ? '1' : '0')).join('');
    const ordered = [...this.operations.values()]
      .map((op) => ({ op, ...compileTemplate(this.pathOf(op)) }))
      .sort((a, b) => literalWeight(this.pathOf(a.op)).localeCompare(literalWeight(this.pathOf(b.op))));
    this.compiled = new Map();
    for (const c of ordered) {
      const key = bucketOf(c.op.method, this.pathOf(c.op).replace(/\/+$/, ''));
      this.compiled.set(key, [...(this.compiled.get(key) ?? []), c]);
    }
  }
}
