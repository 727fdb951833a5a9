// "Bad input" (docs/decisions.md "Wire conventions"): every malformed request gets a 4xx with the spec's error body, never
// a 5xx, and a refused request changes no state. fast-check generates the malformed requests.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { TSchema } from '@sinclair/typebox';
import { allOperations } from '../operations.ts';
import { createSimulator } from '../index.ts';
import { dispatch, DEFAULT_MAX_BODY_BYTES } from '../app.ts';
import type { SimResponse } from '../core/operation.ts';
import { ACME } from './helpers.ts';
import { runtimeOf } from '../internal.ts';
import { MAX_BODY_DEPTH } from '../core/body-depth.ts';

// simStartMcpServer opens a socket for a valid script (answered asynchronously); its refusals
// are covered in mcp-connections.test.ts.
const ops = allOperations().filter((op) => op.operationId !== 'simPutState' && op.operationId !== 'simStartMcpServer');

function fieldNames(schema: TSchema | undefined): string[] {
  return Object.keys((schema as { properties?: Record<string, unknown> } | undefined)?.properties ?? {});
}

const weirdString = fc.oneof(
  fc.string(),
  fc.constantFrom('', ' ', '0', '-1', '1e309', 'null', '010-1234-5678', '+1 555', '\u0000', 'ｆｕｌｌ', '💥', '../..', '%00', 'x'.repeat(5000)),
);
const weirdValue = fc.oneof(weirdString, fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.array(fc.string(), { maxLength: 3 }), fc.object({ maxDepth: 1 }));

const request = fc.constantFrom(...ops).chain((op) =>
  fc.record({
    op: fc.constant(op),
    params: fc.record(Object.fromEntries(Object.keys(op.params ?? {}).map((k) => [k, k === 'accountId' ? fc.constantFrom(ACME.accountId) : weirdString]))),
    query: fc.dictionary(fc.constantFrom(...fieldNames({ properties: op.query } as never), 'page', 'junk'), weirdString, { maxKeys: 3 }),
    body: fc.oneof(
      fc.constant(undefined),
      weirdString.map((s) => ({ raw: s })),
      fc.jsonValue({ maxDepth: 2 }).map((v) => ({ raw: JSON.stringify(v) })),
      fc.dictionary(fc.constantFrom(...fieldNames(op.body), 'unknownField'), weirdValue, { maxKeys: 4 }).map((v) => ({ raw: JSON.stringify(v) })),
    ),
    contentType: fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', undefined),
  }),
);

describe('malformed requests', () => {
  it('a body nested thousands of levels deep is a 400 naming the depth limit, for every operation that takes a body', async () => {
    const sim = createSimulator();
    const opts = { maxBodyBytes: DEFAULT_MAX_BODY_BYTES };
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    const shapes = [deep, `{"a":${deep}}`, `{"a":{"b":${'{"c":'.repeat(3000)}1${'}'.repeat(3000)}}}`];
    for (const op of allOperations().filter((o) => o.body)) {
      const path = op.path.replace('{accountId}', ACME.accountId).replace(/\{[^}]+\}/g, 'x1');
      for (const body of shapes) {
        const res = await dispatch(runtimeOf(sim), opts, { method: op.method, url: path, headers: { authorization: `Bearer ${ACME.key}`, 'content-type': 'application/json' }, body });
        expect([op.operationId, res.status, JSON.parse(res.body).code]).toEqual([op.operationId, 400, 'VALIDATION']);
        expect(JSON.parse(res.body).error).toContain(`deeper than ${MAX_BODY_DEPTH} levels`);
      }
    }
    // Bodies the handler reads itself (multipart, forms, JSON-RPC) never get a 5xx either.
    for (const op of allOperations().filter((o) => !o.body && o.method === 'POST')) {
      const path = op.path.replace('{accountId}', ACME.accountId).replace(/\{[^}]+\}/g, 'x1');
      const res = await dispatch(runtimeOf(sim), opts, { method: op.method, url: path, headers: { authorization: `Bearer ${ACME.key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: shapes[1] });
      expect(res.status, `${op.operationId}: ${res.body}`).toBeLessThan(500);
    }
    await sim.close();
  });

  it('never get a 5xx; refusals carry the error body and leave state unchanged', async () => {
    const sim = createSimulator();
    const opts = { maxBodyBytes: DEFAULT_MAX_BODY_BYTES };
    await fc.assert(
      // Async: some handlers await (multipart parsing, real I/O to peers).
      fc.asyncProperty(request, async ({ op, params, query, body, contentType }) => {
        let path = op.path;
        for (const [k, v] of Object.entries(params)) path = path.replace(`{${k}}`, encodeURIComponent(v as string));
        const qs = new URLSearchParams(query as Record<string, string>).toString();
        const headers: Record<string, string> = { authorization: `Bearer ${ACME.key}` };
        if (contentType) headers['content-type'] = contentType;
        const before = JSON.stringify(sim.snapshot());
        const res: SimResponse = await dispatch(runtimeOf(sim), opts, { method: op.method, url: qs ? `${path}?${qs}` : path, headers, body: body?.raw });
        expect(res.status, `${op.operationId}: ${res.body}`).toBeLessThan(500);
        if (res.status >= 400) {
          const parsed = JSON.parse(res.body);
          expect(typeof parsed.error).toBe('string');
          expect(typeof parsed.code).toBe('string');
          expect(JSON.stringify(sim.snapshot()), `${op.operationId} changed state on ${res.status}`).toBe(before);
        }
      }),
      { numRuns: 600 },
    );
  });
});
