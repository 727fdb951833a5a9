// The kit's file formats are described once (conformance/schema/*.ts); the published JSON
// Schema files and the key tables in docs/ are generated from them. These tests fail while a
// generated file is stale (`npm run schemas -- --write` mends it), and show that the published
// files are what an editor or another tool needs: every shipped scenario, the catalogue and the
// example target file are valid against them.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { globSync } from 'tinyglobby';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { newAjv } from '../contract/validator.ts';
import { fillBlocks, generatedFiles, keyTable, REPO_ROOT, staleFiles } from '../schema/generate.ts';
import { Receiver } from '../schema/scenario.ts';
import { main as schemasCommand } from '../../bin/schemas.ts';

const read = (p: string) => readFileSync(path.join(REPO_ROOT, p), 'utf8');
/** A published schema's validator, compiled once for the file's tests (the scenario format's is large). */
const compiled = new Map<string, ReturnType<Ajv2020['compile']>>();
const published = (p: string) => compiled.get(p) ?? compiled.set(p, newAjv().compile(JSON.parse(read(p)))).get(p)!;

describe('generated format files', () => {
  it('are current (npm run schemas -- --write regenerates them)', () => {
    expect(staleFiles()).toEqual([]);
    const out: string[] = [];
    expect(schemasCommand(['--check'], { out: { write: (s: string) => out.push(s) }, err: { write: () => true } })).toBe(0);
    expect(out.join('')).toMatch(/current/);
  });

  it('a file that differs from what the schemas give is named stale', () => {
    const paths = generatedFiles().map((f) => f.path);
    expect(paths).toEqual(expect.arrayContaining(['conformance/scenario.schema.json', 'conformance/target.schema.json', 'conformance/clauses.schema.json', 'docs/scenario-format.md', 'docs/target-file.md', 'docs/clauses.md']));
    for (const victim of ['conformance/target.schema.json', 'docs/scenario-format.md']) {
      const edited = (p: string) => (p === victim ? read(p).replace('|', '| edited by hand ') : read(p));
      expect(staleFiles(REPO_ROOT, edited)).toEqual([victim]);
    }
  });

  it('a docs page without a block\'s markers is an error naming the block', () => {
    expect(() => fillBlocks('# a page\n', 'docs/x.md', { receiver: () => keyTable(Receiver) })).toThrow(/docs\/x\.md lacks the markers of the generated block "receiver"/);
    const filled = fillBlocks('a\n<!-- generated: r (npm run schemas -- --write; edit conformance/schema/, not here) -->\nold\n<!-- end generated: r -->\nb\n', 'p', { r: () => 'new' });
    expect(filled).toBe('a\n<!-- generated: r (npm run schemas -- --write; edit conformance/schema/, not here) -->\nnew\n<!-- end generated: r -->\nb\n');
  });

  it('the docs tables say which keys are required and what each means', () => {
    const table = keyTable(Receiver, { required: true });
    expect(table.split('\n')[0]).toBe('| Key | Required | Meaning |');
    expect(table).toMatch(/^\| `status` \| yes \| The status the receiver answers\. \|$/m);
    expect(table).toMatch(/^\| `times` \| no \| /m);
  });
});

describe('the published JSON Schemas', () => {
  it('accept every shipped scenario, the clause catalogue and the example target file', () => {
    const scenario = published('conformance/scenario.schema.json');
    const files = globSync('scenarios/**/*.yaml', { cwd: REPO_ROOT });
    expect(files.length).toBeGreaterThan(100);
    for (const f of files) expect(scenario(parse(read(f))), `${f}: ${JSON.stringify(scenario.errors?.slice(0, 2))}`).toBe(true);
    expect(published('conformance/clauses.schema.json')(parse(read('conformance/clauses.yaml')))).toBe(true);
    expect(published('conformance/target.schema.json')(parse(read('conformance/target.example.yaml')))).toBe(true);
  });

  it('refuse what the loader refuses: an unknown key of a step, a request that is both raw and by operation', () => {
    const scenario = published('conformance/scenario.schema.json');
    const base = { description: 'x', clauses: ['auth.bearer'] };
    expect(scenario({ ...base, steps: [{ request: { operationId: 'listBlockedCallers' }, expectt: {} }] })).toBe(false);
    expect(scenario.errors?.some((e) => e.keyword === 'additionalProperties' && (e.params as { additionalProperty: string }).additionalProperty === 'expectt')).toBe(true);
    expect(scenario({ ...base, steps: [{ request: { operationId: 'listBlockedCallers', method: 'GET', path: '/x' } }] })).toBe(false);
    expect(scenario({ ...base, steps: [{ request: { operationId: 'listBlockedCallers' } }], teardown: [{ receiver: { status: 503 } }] })).toBe(true);
  });
});
