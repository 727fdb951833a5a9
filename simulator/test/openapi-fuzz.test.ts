// Requests generated from /openapi.json itself (fast-check, fixed seed from setup.ts; FC_SEED
// replays another): for every operation, requests the document calls valid are not refused for
// their shape, and requests it calls invalid (one spot broken) are refused with a documented
// status and code. The simulator starts from the default fixture after the document's own
// request examples ran, so the examples' ids name real resources; a request that changed state
// is undone before the next. OPENAPI_FUZZ_RUNS sets the requests per operation and kind
// (default 4 for the quick tier; a deeper run takes 100 or more); OPENAPI_FUZZ_ONLY=opA,opB
// limits the run to those operations (with FC_SEED and the printed path, to replay a failure).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { appendFileSync } from 'node:fs';
import { createSimulator, type Simulator } from '../index.ts';
import { ACME } from './helpers.ts';
import { documentValidator, operationsOf, type DocOperation, type FullDocument } from './openapi-fuzz/operations.ts';
import { documentAccepts, invalidCandidates, pathValues, requestArb, toWire, type GeneratedRequest } from './openapi-fuzz/requests.ts';
import { brokenProse, judgeInvalid, judgeValid, PROSE_RULES, type Context, type Verdict } from './openapi-fuzz/judge.ts';
import { runExamples } from './openapi-fuzz/run-examples.ts';

const RUNS = Number(process.env.OPENAPI_FUZZ_RUNS ?? 4);

interface Counts {
  operations: number;
  valid: number;
  invalid: number;
  prose: number;
  noInvalid: string[];
}

async function send(sim: Simulator, op: DocOperation, req: GeneratedRequest) {
  const auth = op.control ? undefined : `Bearer ${ACME.key}`;
  const wire = await toWire(op, req, auth);
  // An answer that never comes is a finding too, not a hung test.
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), 20_000)));
  const res = await Promise.race([sim.handle(wire), late]);
  clearTimeout(timer);
  if (!res) return { status: 0, code: 'NO_ANSWER', body: `no answer within 20 s to ${wire.method} ${wire.url}` };
  let code: string | undefined;
  try {
    code = res.status >= 400 ? JSON.parse(res.body).code : undefined;
  } catch {
    code = undefined;
  }
  return { status: res.status, code, body: res.body };
}

/**
 * Whether one of the first `n` draws of `arb` is `wanted`, drawing no further once one is (a
 * sample of `n` made every draw first, most of them after the answer was known).
 */
function someOfFirst<T>(arb: fc.Arbitrary<T>, n: number, wanted: (value: T) => boolean): boolean {
  return fc.check(fc.property(arb, (value) => !wanted(value)), { numRuns: n, endOnFailure: true }).failed;
}

/** One line per failure: what went wrong, the seed and path that replay it, the request. */
function report(op: DocOperation, kind: string, run: { seed: number; counterexamplePath: string | null; errorInstance: unknown; counterexample: unknown }): string {
  const why = run.errorInstance instanceof Error ? run.errorInstance.message : String(run.errorInstance);
  return `${op.operationId} (${kind}): ${why} [seed ${run.seed}, path "${run.counterexamplePath}"] ${JSON.stringify(run.counterexample)}`;
}

describe('requests generated from /openapi.json', () => {
  it('valid ones are not refused for their shape; invalid ones are refused; every answer is documented', async () => {
    const sim = createSimulator();
    const doc = JSON.parse((await sim.handle({ method: 'GET', url: '/openapi.json' })).body) as FullDocument;
    const ops = operationsOf(doc);
    const check = documentValidator(doc);
    await runExamples(sim, ops);
    const base = sim.snapshot();
    const known = pathValues(ops);
    const counts: Counts = { operations: ops.length, valid: 0, invalid: 0, prose: 0, noInvalid: [] };
    const failures: string[] = [];
    let dirty = false;

    const exchange = async (op: DocOperation, req: GeneratedRequest) => {
      if (dirty) sim.restore(base);
      const answer = await send(sim, op, req);
      dirty = answer.status < 400 && op.method !== 'GET';
      return answer;
    };

    // Every rule stated only in words is stated where the judge says it is.
    for (const op of ops) for (const rule of PROSE_RULES.filter((r) => r.applies(op))) expect(op.description, op.operationId).toMatch(rule.stated);

    const only = process.env.OPENAPI_FUZZ_ONLY?.split(',');
    for (const op of ops.filter((o) => !only || only.includes(o.operationId))) {
      const started = performance.now();
      if (process.env.OPENAPI_FUZZ_TIMES) appendFileSync(process.env.OPENAPI_FUZZ_TIMES, `start ${op.operationId}\n`);
      const candidates = requestArb(op, doc, known);
      // The first ten tries (the same draws as the first ten of a hundred) almost always find
      // one; the hundred are drawn only when they do not, at a tenth of the cost otherwise.
      const accepted = (n: number) => someOfFirst(candidates, n, (r) => documentAccepts(op, r, check, doc));
      if (!accepted(10) && !accepted(100)) {
        failures.push(`${op.operationId}: the generator found no request the document accepts in 100 tries`);
        continue;
      }
      const valid = candidates.filter((r) => documentAccepts(op, r, check, doc));
      const property = (judge: (req: GeneratedRequest, a: { status: number; code?: string }, at: Context) => Verdict) =>
        fc.asyncProperty(valid, async (req) => {
          if (dirty) sim.restore(base);
          dirty = false;
          const at = { now: Date.parse(sim.clock.now()) };
          const a = await exchange(op, req);
          const verdict = judge(req, a, at);
          if (!verdict.ok) throw new Error(`${verdict.why}: ${a.body.slice(0, 300)}`);
        });
      const validRun = await fc.check(
        property((req, a, at) => {
          counts.valid++;
          if (brokenProse(op, req, at).length > 0) counts.prose++;
          return judgeValid(op, req, a, at);
        }),
        { numRuns: RUNS },
      );
      if (validRun.failed) failures.push(report(op, 'valid', validRun));

      const invalid = valid.chain((req) => {
        const candidates = invalidCandidates(op, req, doc).filter((c) => !documentAccepts(op, c.request, check, doc));
        return candidates.length > 0 ? fc.constantFrom(...candidates) : fc.constant(undefined);
      });
      if (!someOfFirst(invalid, 20, (c) => c !== undefined)) {
        counts.noInvalid.push(op.operationId);
        continue;
      }
      const invalidRun = await fc.check(
        fc.asyncProperty(invalid, async (candidate) => {
          fc.pre(candidate !== undefined);
          counts.invalid++;
          const a = await exchange(op, candidate!.request);
          const verdict = judgeInvalid(op, a);
          if (!verdict.ok) throw new Error(`${candidate!.what}: ${verdict.why}: ${a.body.slice(0, 300)}`);
        }),
        { numRuns: RUNS },
      );
      if (invalidRun.failed) failures.push(report(op, 'invalid', invalidRun));
      if (process.env.OPENAPI_FUZZ_TIMES) appendFileSync(process.env.OPENAPI_FUZZ_TIMES, `${op.operationId} ${Math.round(performance.now() - started)} ms\n`);
    }
    await sim.close();
    console.log(
      `openapi fuzz: ${counts.operations} operations, ${counts.valid} valid requests (${counts.prose} breaking a rule stated in prose), ${counts.invalid} invalid requests; ` +
        `no invalid request possible for ${counts.noInvalid.length} (${counts.noInvalid.join(', ')})`,
    );
    expect(failures).toEqual([]);
  }, 600_000);
});
