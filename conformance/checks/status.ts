// Status checks: no server errors, and statuses the contract documents.
import type { Check } from './types.ts';
import { isApiCall } from './types.ts';

export const noServerError: Check = {
  id: 'no-server-error',
  level: 'spec',
  // The spec lists no condition answered with a 5xx except 503 of email-domain verification, which
  // the contract documents; no single clause says "never 500", so this counts for none.
  clauses: [],
  description: 'No 5xx, except a 5xx the operation documents (e.g. 503 of email-domain verification).',
  applies: isApiCall,
  run(ex) {
    const s = ex.response.status;
    if (s < 500) return undefined;
    if (ex.op?.responses.has(s)) return undefined;
    return `answered ${s}, a server error the contract does not document for ${ex.op?.operationId ?? `${ex.request.method} ${ex.request.path}`}`;
  },
};

export const statusDocumented: Check = {
  id: 'status-documented',
  level: 'sim',
  clauses: [],
  description: "The status is one the contract documents for the operation (the simulator's choice where the spec is silent).",
  applies: (ex) => isApiCall(ex) && ex.op !== undefined,
  run(ex) {
    if (ex.op!.responses.has(ex.response.status)) return undefined;
    return `status ${ex.response.status} is not documented for ${ex.op!.operationId} (documented: ${[...ex.op!.responses.keys()].join(', ')})`;
  },
};
