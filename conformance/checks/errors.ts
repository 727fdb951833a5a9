// Error bodies: the spec's shape ({ error, code, ip? }) and, as the simulator's choice, a code
// the contract documents for that status.
import type { Check } from './types.ts';
import { isApiCall } from './types.ts';

function body(ex: Parameters<Check['run']>[0]): Record<string, unknown> | undefined {
  const b = ex.response.json;
  return b && typeof b === 'object' && !Array.isArray(b) ? (b as Record<string, unknown>) : undefined;
}

export const errorBodyShape: Check = {
  id: 'error-body',
  level: 'spec',
  clauses: ['errors.body-shape'],
  description: 'An error answer has the spec\'s body: `error` (string), `code` (string when present), `ip` only with overseas_ip_blocked.',
  applies: (ex) => isApiCall(ex) && ex.response.status >= 400,
  run(ex) {
    const b = body(ex);
    if (!b) return `an error answer without a JSON object body: ${ex.response.text.slice(0, 80) || '(empty)'}`;
    if (typeof b.error !== 'string') return `error body lacks a string "error": ${JSON.stringify(b).slice(0, 120)}`;
    if (b.code !== undefined && typeof b.code !== 'string') return `"code" must be a string, got ${JSON.stringify(b.code)}`;
    if (b.code === 'overseas_ip_blocked' && typeof b.ip !== 'string') return 'overseas_ip_blocked without the "ip" it refused';
    if (b.ip !== undefined && b.code !== 'overseas_ip_blocked') return `"ip" appears with code ${JSON.stringify(b.code)}; the spec gives it only with overseas_ip_blocked`;
    return undefined;
  },
};

export const errorCodeDocumented: Check = {
  id: 'error-code',
  level: 'sim',
  clauses: [],
  description: 'An error body carries a `code` the contract documents for that status.',
  applies: (ex) => isApiCall(ex) && ex.op !== undefined && ex.response.status >= 400 && ex.op.responses.has(ex.response.status) && body(ex) !== undefined,
  run(ex) {
    const code = body(ex)!.code;
    const documented = ex.op!.responses.get(ex.response.status)!.errorCodes;
    if (typeof code !== 'string') return 'error body without a "code"';
    if (documented.length && !documented.includes(code)) return `code ${code} is not documented for ${ex.op!.operationId} ${ex.response.status} (documented: ${documented.join(', ')})`;
    return undefined;
  },
};
