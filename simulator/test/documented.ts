// Checks one answer against what /openapi.json documents for its operation: a success body its
// schema, a refusal a documented status, the error body shape and a documented code. Returns
// the operationId so a tour can tell which operations it visited.
import { expect } from 'vitest';
import { router } from '../app.ts';
import { errorStatuses } from '../openapi.ts';
import { schemaErrors } from '../core/schema.ts';
import { ErrorBodySchema } from '../core/error-schema.ts';
import type { CallResult } from './helpers.ts';

export function expectDocumentedAnswer(method: string, url: string, r: CallResult): string | undefined {
  const m = router().match(method, url.split('?')[0]!);
  expect(m.kind, `${method} ${url}`).toBe('found');
  if (m.kind !== 'found') return undefined;
  const op = m.value;
  const success = op.responses[r.status];
  if (success) {
    if (success.schema) expect(schemaErrors(success.schema, r.json), `${method} ${url} -> ${r.status}`).toEqual([]);
  } else {
    const codes = errorStatuses(op).get(r.status)?.map((i) => i.code) ?? [];
    expect(codes.length, `${method} ${url} -> ${r.status} ${r.text} is not documented`).toBeGreaterThan(0);
    expect(schemaErrors(ErrorBodySchema, r.json)).toEqual([]);
    expect(codes, `${method} ${url}: code ${r.json.code} not documented for ${r.status}`).toContain(r.json.code);
  }
  return op.operationId;
}
