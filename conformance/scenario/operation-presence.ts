// Whether a 404 or 405 that an expectation wanted means anything. "An unknown id is 404", "HEAD
// answers like GET" and "no 5xx" all hold on a target that serves nothing at all; they count
// only once the target is shown to serve the operation: an answer of it earlier in the run that a
// missing route never gives (2xx, 3xx, 400, 409, 422...), a 2xx from the collection the
// resource belongs to, or a 404/405 unlike the one a path that surely does not exist gets.
// Otherwise the step is skipped as `operation-missing` (docs/scenario-format.md).
import type { ContractOperation } from '../contract/contract.ts';
import type { WireRequest, WireResponse } from '../target.ts';
import type { Scope } from './interpolate.ts';
import type { RunContext } from './run-context.ts';

/** Statuses a target answers for a route it does not have (or before routing: auth, gateways). */
const SAYS_NOTHING = new Set([401, 403, 404, 405]);

/** Records that an answer shows the operation is served. */
export function noteAnswer(ctx: RunContext, op: ContractOperation | undefined, status: number): void {
  if (op && status < 500 && !SAYS_NOTHING.has(status)) ctx.operationPresence.set(op.operationId, 'served');
}

/** The body with the paths it may echo taken out, so two answers compare by what they say. */
function said(res: WireResponse, paths: string[]): string {
  let text = res.text;
  for (const p of paths) text = text.split(p.split('?')[0]!).join('<path>');
  return `${res.status} ${text}`;
}

/** The operation's path with its last fixed segment replaced: a route no implementation has. */
function decoyPath(ctx: RunContext, op: ContractOperation, path: string): string | undefined {
  const template = ctx.contract.pathOf(op).split('/');
  const actual = path.split('?')[0]!.split('/');
  if (template.length !== actual.length) return undefined;
  const last = template.map((s, i) => (s.startsWith('{') ? -1 : i)).filter((i) => i > 1).pop();
  if (last === undefined) return undefined;
  actual[last] = 'conformance-no-such-route';
  return actual.join('/');
}

async function send(ctx: RunContext, req: WireRequest): Promise<WireResponse | undefined> {
  try {
    return await ctx.target.send(req);
  } catch {
    return undefined;
  }
}

/** Why the target is not shown to serve `op` (so its 404/405 proves nothing), or undefined when it is. */
export async function presenceNotShown(ctx: RunContext, op: ContractOperation, request: WireRequest, res: WireResponse, scope: Scope): Promise<string | undefined> {
  const known = ctx.operationPresence.get(op.operationId);
  if (known === 'served') return undefined;
  if (known !== undefined) return known;
  const main = scope.has('main') ? (scope.get('main') as { key?: string }) : undefined;
  const auth: Record<string, string> = main?.key ? { authorization: `Bearer ${main.key}` } : {};
  // The collection the resource belongs to (GET on the path without its last parameter).
  const parent = request.path.split('?')[0]!.replace(/\/[^/]+$/, '');
  const collection = ctx.contract.match('GET', parent)?.op;
  if (collection && ctx.contract.pathOf(op).endsWith('}')) {
    const listed = await send(ctx, { method: 'GET', path: parent, headers: auth });
    if (listed) noteAnswer(ctx, collection, listed.status);
    if (listed && listed.status >= 200 && listed.status < 300) {
      ctx.operationPresence.set(op.operationId, 'served');
      return undefined;
    }
  }
  const decoy = decoyPath(ctx, op, request.path);
  const other = decoy ? await send(ctx, { ...request, path: decoy }) : undefined;
  const shown = other !== undefined && said(other, [decoy!, request.path]) !== said(res, [decoy!, request.path]);
  const why = shown
    ? undefined
    : `operation-missing: ${op.operationId} (${op.method} ${ctx.contract.pathOf(op)}) answers ${res.status} like a path that does not exist, and nothing in this run showed it is served, so that ${res.status} proves nothing`;
  ctx.operationPresence.set(op.operationId, why ?? 'served');
  return why;
}
