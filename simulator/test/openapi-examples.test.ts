// The request examples of /openapi.json: every public operation that takes any input has one,
// each is a request the document itself calls valid, and sent in document order against the
// default fixture (as Dredd or a Postman run would) each succeeds with a documented answer. The
// ids the examples show are the ids those earlier examples create; when they drift (an example
// or the id drawing changed), this test says so, and EXAMPLES_WRITE=1 rewrites them
// (simulator/resources/example-values.json).
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createSimulator } from '../index.ts';
import values from '../resources/example-values.json' with { type: 'json' };
import { documentValidator, operationsOf, type FullDocument } from './openapi-fuzz/operations.ts';
import { examplesOf } from './openapi-fuzz/examples.ts';
import { documentAccepts } from './openapi-fuzz/requests.ts';
import { runExamples } from './openapi-fuzz/run-examples.ts';

const VALUES_FILE = fileURLToPath(new URL('../resources/example-values.json', import.meta.url));

describe('request examples in /openapi.json', () => {
  it('every public operation with parameters or a body has one, and each is valid by the document', async () => {
    const sim = createSimulator();
    const doc = JSON.parse((await sim.handle({ method: 'GET', url: '/openapi.json' })).body) as FullDocument;
    await sim.close();
    const ops = operationsOf(doc);
    const examples = examplesOf(ops);
    const without = ops.filter((op) => !op.control && (op.params.length > 0 || op.body) && !examples.some((e) => e.op === op)).map((op) => op.operationId);
    expect(without).toEqual([]);
    const check = documentValidator(doc);
    const invalid = examples.filter((e) => !documentAccepts(e.op, e.request, check, doc)).map((e) => `${e.op.operationId}.${e.name}`);
    expect(invalid).toEqual([]);
  });

  it('sent in document order against the default fixture, each succeeds with a documented answer, and the ids shown are the ids created', async () => {
    const sim = createSimulator();
    const doc = JSON.parse((await sim.handle({ method: 'GET', url: '/openapi.json' })).body) as FullDocument;
    const ops = operationsOf(doc);
    const check = documentValidator(doc);
    const { answers, resolved } = await runExamples(sim, ops);
    await sim.close();
    const failed: string[] = [];
    for (const { example, status, body } of answers) {
      const name = `${example.op.operationId}.${example.name}`;
      const documented = example.op.responses.get(status);
      if (status >= 400 || !documented) failed.push(`${name}: ${status} ${body.slice(0, 200)}`);
      else if (documented.schema && documented.contentType === 'application/json' && !check(documented.schema, JSON.parse(body))) failed.push(`${name}: the ${status} body does not match its schema`);
    }
    expect(failed).toEqual([]);
    if (process.env.EXAMPLES_WRITE) writeFileSync(VALUES_FILE, `${JSON.stringify(Object.fromEntries([...resolved].sort()), null, 2)}\n`);
    const stale = [...resolved].filter(([key, value]) => (values as Record<string, string>)[key] !== value).map(([key, value]) => `${key}: shown ${(values as Record<string, string>)[key]}, created ${value}`);
    expect(stale, 'run EXAMPLES_WRITE=1 npx vitest run simulator/test/openapi-examples.test.ts').toEqual([]);
  });
});
