// CallContext of a call handled by a managed agent: from createCall (`CallContext`), or for an
// inbound call to a number routed `agent`, fetched from the number's `callContextUrl` just
// before the call is answered (guides "Phone numbers"): a signed form POST like the platform's
// other requests to the customer (CallId, AccountId, From, To, Direction, AgentId), answered with
// the CallContext shape `{ Instruction, Variables }`. Any failure (refused URL, no answer,
// non-2xx, a body that is not that shape) leaves the call on the agent's stored configuration.
import { buildRequest } from '../../peers/webhooks/request.ts';
import type { FlowHttpRequest } from './flow-http.ts';
import type { CallRow } from './schema.ts';
import { callRequestFields } from './request-fields.ts';

export type CallContext = NonNullable<CallRow['context']>;

const MAX_VARIABLES = 50;
const MAX_INSTRUCTION = 4000;

/** CallContext as createCall takes it (schema-checked), stored with string values; an empty Instruction is none. */
export function contextOf(input: { Instruction: string; Variables?: Record<string, string | number | boolean> } | undefined): CallContext | null {
  if (input === undefined) return null;
  return { instruction: input.Instruction === '' ? null : input.Instruction, variables: Object.fromEntries(Object.entries(input.Variables ?? {}).map(([k, v]) => [k, String(v)])) };
}

/** The signed request for a number's callContextUrl. */
export function contextRequest(row: CallRow, url: string, signingKey: string): FlowHttpRequest {
  const fields: [string, string][] = [...callRequestFields(row), ['AgentId', row.handler?.target ?? '']];
  const req = buildRequest({ url, method: 'POST', fields, headers: {}, signingKey });
  return { method: req.method, url: req.url, headers: req.headers, body: req.body };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The answer read as a CallContext, or null when it is not one (the stored configuration applies). */
export function contextFromAnswer(status: number | null, body: string | null): CallContext | null {
  if (status === null || status < 200 || status > 299 || body === null) return null;
  let v: unknown;
  try {
    v = JSON.parse(body);
  } catch {
    return null;
  }
  if (!isObject(v) || typeof v.Instruction !== 'string' || [...v.Instruction].length > MAX_INSTRUCTION) return null;
  if (Object.keys(v).some((k) => k !== 'Instruction' && k !== 'Variables')) return null;
  const vars = v.Variables ?? {};
  if (!isObject(vars) || Object.keys(vars).length > MAX_VARIABLES) return null;
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(vars)) {
    if (typeof x !== 'string' && typeof x !== 'number' && typeof x !== 'boolean') return null;
    out[k] = String(x);
  }
  return { instruction: v.Instruction, variables: out };
}
