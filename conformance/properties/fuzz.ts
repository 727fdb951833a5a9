// No 5xx on malformed input: every API operation of the contract receives generated garbage in
// its path parameters, query and body (wrong types, unknown fields, broken JSON, odd content
// types). Any answer is fine except a server error the contract does not document, an error
// without the spec's body, or a leaked secret: the checks on every response judge that.
import fc from 'fast-check';
import type { Contract, ContractOperation } from '../contract/contract.ts';
import { generatedProperty } from './harness.ts';
import type { PropertyDef } from './types.ts';

// Interpolation reads "{{"; generated text never contains it, so the replay file stays literal.
const noBraces = (s: string) => !s.includes('{{') && !s.includes('}}');

const weirdString = fc
  .oneof(
    fc.string({ maxLength: 24 }),
    fc.constantFrom('', ' ', '0', '-1', '1e309', 'null', 'true', '010-1234-5678', '+1 555 0100', '\u0000', 'ｆｕｌｌ', '💥', '../..', '%00', '%zz', 'x'.repeat(3000)),
  )
  .filter(noBraces);

const weirdValue = fc.oneof(weirdString, fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.array(weirdString, { maxLength: 3 }), fc.dictionary(weirdString, weirdString, { maxKeys: 2 }));

function fieldNames(contract: Contract, op: ContractOperation): string[] {
  if (!op.bodyPointer) return [];
  const schema = contract.schemaAt(op.bodyPointer);
  return Object.keys(schema?.properties ?? {});
}

interface FuzzCase {
  operationId: string;
  params: Record<string, string>;
  query: Record<string, string>;
  body: string | undefined;
  contentType: string | undefined;
}

function caseArbitrary(contract: Contract, ops: ContractOperation[]): fc.Arbitrary<FuzzCase> {
  return fc.constantFrom(...ops).chain((op) =>
    fc.record({
      operationId: fc.constant(op.operationId),
      params: fc.record(Object.fromEntries(op.pathParams.filter((p) => p !== 'accountId').map((p) => [p, weirdString]))) as fc.Arbitrary<Record<string, string>>,
      query: fc.dictionary(fc.constantFrom(...op.query.map((q) => q.name), 'page', 'junk'), weirdString, { maxKeys: 3 }),
      body: fc.oneof(
        fc.constant(undefined),
        weirdString,
        fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
        fc.dictionary(fc.constantFrom(...fieldNames(contract, op), 'unknownField'), weirdValue, { maxKeys: 4 }).map((v) => JSON.stringify(v)),
      ).filter((b) => b === undefined || noBraces(b)),
      contentType: fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', undefined),
    }),
  );
}

export function fuzzProperty(contract: Contract): PropertyDef {
  // The platform API only: the control plane is the simulator's own tool, not the interface.
  // Operations the target file marks unsupported are not fuzzed: their answers would prove nothing.
  const ops = [...contract.operations.values()].filter((op) => (op.auth === 'account' || op.auth === 'key') && !contract.isUnsupported(op));
  const spec = {
    id: 'no-server-error-fuzz',
    description: 'every API operation answers malformed input without a server error and with the spec\'s error body',
    clauses: ['errors.400-validation', 'errors.body-shape'],
    tags: ['fuzz', 'property'],
    requires: [],
  };
  if (ops.length === 0) {
    return { ...spec, run: async (ctx) => ({ kind: 'property', ...spec, status: 'skipped', skipReason: 'the target file marks every API operation unsupported', ms: 0, seed: ctx.seed, steps: [] }) };
  }
  return generatedProperty<FuzzCase>({
    id: 'no-server-error-fuzz',
    description: 'every API operation answers malformed input without a server error and with the spec\'s error body',
    clauses: ['errors.400-validation', 'errors.body-shape'],
    tags: ['fuzz', 'property'],
    requires: [],
    level: 'spec',
    numRuns: 150,
    // Whatever garbage an operation accepts lands in a fresh account with the add-ons the demo
    // account has (so add-on checks do not stop the input early), not in the given accounts.
    ownAccount: { numbers: 1, addons: ['external_assignment', 'sip_trunk', 'representative_number'] },
    arbitrary: caseArbitrary(contract, ops),
    counts: (a) => ['check:no-server-error', 'check:error-body', 'check:content-type-json'].includes(a.id),
    drive: async (v, c) => {
      const headers: Record<string, string> = {};
      if (v.contentType) headers['content-type'] = v.contentType;
      // By operation, so that the kit knows which one answered even where a generated parameter
      // leaves the path matching none (an empty segment): its 404 then shows nothing about it.
      await c.exec({
        name: `${v.operationId} with malformed input`,
        request: { operationId: v.operationId, params: v.params, query: v.query, ...(v.body !== undefined ? { rawBody: v.body } : {}), headers },
        // Any status: the checks (no-server-error, error-body, ...) are the verdict.
        expect: { status: { $gte: 100 } },
      });
      return undefined;
    },
  });
}
