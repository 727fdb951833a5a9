// Body checks: JSON where JSON is documented, and the body against the operation's schema.
// The lenient schema (extra fields allowed) is the law for operations the spec shows; the
// strict schema and operations the spec does not show are the simulator's choices.
import type { Check, Exchange } from './types.ts';
import { isApiCall, isJsonContentType } from './types.ts';

function documentedType(ex: Exchange): string | undefined {
  return ex.op?.responses.get(ex.response.status)?.contentType;
}

export const contentTypeJson: Check = {
  id: 'content-type-json',
  level: 'spec',
  clauses: ['conventions.json-bodies'],
  description: 'A response body documented as JSON (or any error body) is sent as application/json and parses.',
  applies: (ex) => isApiCall(ex) && ex.response.text.length > 0 && (ex.response.status >= 400 || documentedType(ex) === undefined || isJsonContentType(documentedType(ex))),
  run(ex) {
    const ct = ex.response.headers['content-type'];
    if (!isJsonContentType(ct)) return `content-type is ${ct ?? '(none)'}, expected application/json`;
    if (ex.response.json === undefined) return `the body is not valid JSON: ${ex.response.text.slice(0, 80)}`;
    return undefined;
  },
};

function schemaApplies(ex: Exchange): boolean {
  return isApiCall(ex) && ex.op !== undefined && ex.response.json !== undefined && ex.op.responses.get(ex.response.status)?.schemaPointer !== undefined;
}

// The lenient and strict problems of an exchange, each found at most once: response-schema
// reports the lenient ones and response-schema-strict applies only without them. Where the
// strict schema's passes are lenient passes too (Contract.strictImpliesLenient), the strict
// validation comes first and a pass stands for both: one validation (and one compiled
// validator) per answer instead of two.
const lenientFound = new WeakMap<Exchange, { path: string; message: string }[]>();
const strictFound = new WeakMap<Exchange, { path: string; message: string }[]>();

function strictProblems(ex: Exchange): { path: string; message: string }[] {
  let problems = strictFound.get(ex);
  if (problems === undefined) {
    problems = ex.contract.responseProblems(ex.op!, ex.response.status, ex.response.json, 'strict') ?? [];
    strictFound.set(ex, problems);
  }
  return problems;
}

function lenientProblems(ex: Exchange): { path: string; message: string }[] {
  let problems = lenientFound.get(ex);
  if (problems === undefined) {
    const strictPass = ex.contract.strictImpliesLenient(ex.op!, ex.response.status) && strictProblems(ex).length === 0;
    problems = strictPass ? [] : (ex.contract.responseProblems(ex.op!, ex.response.status, ex.response.json, 'lenient') ?? []);
    lenientFound.set(ex, problems);
  }
  return problems;
}

function describe(problems: { path: string; message: string }[]): string {
  return problems.map((p) => `${p.path || '(body)'} ${p.message}`).join('; ');
}

export const responseSchema: Check = {
  id: 'response-schema',
  level: (ex) => (ex.op?.origin === 'spec' && ex.response.status < 400 ? 'spec' : 'sim'),
  clauses: ['conventions.required-fields-present', 'conventions.nullable-fields', 'conventions.datetime-format'],
  description: "The body matches the operation's schema for that status (fields the contract does not list are tolerated).",
  applies: schemaApplies,
  run(ex) {
    const problems = lenientProblems(ex);
    return problems.length ? `body does not match the ${ex.op!.operationId} ${ex.response.status} schema: ${describe(problems)}` : undefined;
  },
};

export const responseSchemaStrict: Check = {
  id: 'response-schema-strict',
  level: 'sim',
  clauses: [],
  description: "The body has no field the simulator's schema does not list.",
  applies: (ex) => schemaApplies(ex) && lenientProblems(ex).length === 0,
  run(ex) {
    const problems = strictProblems(ex);
    return problems.length ? `body has fields the contract does not list: ${describe(problems)}` : undefined;
  },
};
