// Telling "this target does not serve the operation" apart from a wrong answer: a 404 or 405
// where the contract says the path exists. 405 says so at once; a 404 does when its body is
// not the spec's error body, or when the operation names no resource by id and the same call
// with the main key is still 404 (an unknown route, not an unknown record).
import type { ContractOperation } from '../contract/contract.ts';
import type { WireRequest, WireResponse } from '../target.ts';
import type { Scope } from './interpolate.ts';
import type { RunContext } from './run-context.ts';

function isSpecErrorBody(res: WireResponse): boolean {
  const b = res.json as { error?: unknown } | undefined;
  return Boolean(b) && typeof b === 'object' && typeof b!.error === 'string';
}

/** Why the operation is not at this target, or undefined when the answer may be a real verdict. */
export async function missingOperation(ctx: RunContext, op: ContractOperation, request: WireRequest, res: WireResponse, scope: Scope): Promise<string | undefined> {
  if (res.status === 405) return `${request.method} answered 405 (method not allowed)`;
  if (res.status !== 404) return undefined;
  const byId = op.pathParams.some((p) => p !== 'accountId');
  // An unknown record: the route is there and answered the spec's error body.
  if (byId && isSpecErrorBody(res)) return undefined;
  const main = scope.has('main') ? (scope.get('main') as { key?: string }) : undefined;
  // Confirm with the main key: reads, or writes that need a body (an empty one is refused, never stored).
  if (!main?.key || !(request.method === 'GET' || op.bodyRequired)) return isSpecErrorBody(res) ? undefined : '404 without the error body the spec gives';
  const again: WireRequest = {
    method: request.method,
    path: request.path,
    headers: { authorization: `Bearer ${main.key}`, ...(request.method === 'GET' ? {} : { 'content-type': 'application/json' }) },
    body: request.method === 'GET' ? undefined : '{}',
  };
  try {
    const r = await ctx.target.send(again);
    if (r.status === 404 || r.status === 405) return `${res.status} with the step's credentials and ${r.status} with the main key`;
  } catch {
    // No answer: the step's own failure says so.
  }
  return undefined;
}
