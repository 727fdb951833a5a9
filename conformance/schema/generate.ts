// What is generated from the kit's format schemas (conformance/schema/*.ts): the published JSON
// Schema files, and the key tables of the format references in docs/, each between a pair of
// markers in an otherwise hand-written page. `npm run schemas -- --write` (bin/schemas.ts)
// rewrites them; conformance/test/generated-formats.test.ts fails while one is stale.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Type, type TSchema } from '@sinclair/typebox';
import { plainJson } from './build.ts';
import { ClauseCatalogueSchema, ClauseSchema } from './clauses.ts';
import { AgentAction, AgentExpectation } from './agent-step.ts';
import { ApiRequest, Control, Expectation, Receiver, Repeat, ReceiverStepSchema, RequestStepSchema, ScenarioSchema, StepSchema, Webhook, WebhookExpectation, Within } from './scenario.ts';
import { AccountSchema, OperationMappingSchema, TargetFileSchema, TargetWebhooksSchema } from './target-file.ts';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface GeneratedFile {
  /** Repository path. */
  path: string;
  /** The whole text the file should have. */
  text: string;
}

/** Every copy of a named sub-schema replaced by a reference to one copy under `$defs` (steps appear under `steps` and `teardown`). */
function hoist(json: Record<string, unknown>, defs: Record<string, TSchema>): Record<string, unknown> {
  const byText = new Map(Object.entries(defs).map(([name, schema]) => [JSON.stringify(plainJson(schema)), name]));
  const walk = (node: unknown): unknown => {
    if (!node || typeof node !== 'object') return node;
    const name = byText.get(JSON.stringify(node));
    if (name) return { $ref: `#/$defs/${name}` };
    if (Array.isArray(node)) return node.map(walk);
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, walk(v)]));
  };
  const $defs = Object.fromEntries(Object.entries(defs).map(([name, schema]) => [name, plainJson(schema)]));
  return { ...(walk(json) as Record<string, unknown>), ...(Object.keys($defs).length ? { $defs } : {}) };
}

/** A JSON Schema file: the schema as plain JSON, saying where it comes from. */
function jsonSchemaText(schema: TSchema, source: string, defs: Record<string, TSchema> = {}): string {
  const { $schema, $id, ...rest } = hoist(plainJson(schema), defs);
  return `${JSON.stringify({ $schema, $id, $comment: `Generated from ${source} (npm run schemas -- --write); do not edit.`, ...rest }, null, 2)}\n`;
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** A Markdown table of an object schema's keys, in the order they are declared. */
export function keyTable(schema: TSchema, options: { required?: boolean; only?: readonly string[] } = {}): string {
  const props = (schema as { properties?: Record<string, TSchema & { description?: string }> }).properties ?? {};
  const required = new Set((schema as { required?: string[] }).required ?? []);
  const keys = Object.keys(props).filter((k) => !options.only || options.only.includes(k));
  const head = options.required ? ['| Key | Required | Meaning |', '|---|---|---|'] : ['| Key | Meaning |', '|---|---|'];
  const rows = keys.map((k) => {
    const meaning = cell(props[k]!.description ?? '');
    return options.required ? `| \`${k}\` | ${required.has(k) ? 'yes' : 'no'} | ${meaning} |` : `| \`${k}\` | ${meaning} |`;
  });
  return [...head, ...rows].join('\n');
}

/** The keys every step takes (those of a receiver step but `receiver`), then a request step's expectations. */
const stepKeys = Type.Object({
  ...Object.fromEntries(Object.entries(ReceiverStepSchema.properties).filter(([k]) => k !== 'receiver')),
  expect: RequestStepSchema.properties.expect,
  expectSim: RequestStepSchema.properties.expectSim,
});

/** The generated blocks of each docs page, by name. */
const DOC_BLOCKS: Record<string, Record<string, () => string>> = {
  'docs/scenario-format.md': {
    'scenario-top-level': () => keyTable(ScenarioSchema, { required: true }),
    'step-keys': () => keyTable(stepKeys),
    request: () => keyTable(ApiRequest),
    repeat: () => keyTable(Repeat, { required: true }),
    control: () => keyTable(Control),
    expectation: () => keyTable(Expectation),
    webhook: () => keyTable(Webhook),
    within: () => keyTable(Within),
    'webhook-expectation': () => keyTable(WebhookExpectation),
    receiver: () => keyTable(Receiver, { required: true }),
    agent: () => keyTable(AgentAction),
    'agent-expectation': () => keyTable(AgentExpectation),
  },
  'docs/target-file.md': {
    'target-file': () => keyTable(TargetFileSchema, { required: true }),
    account: () => keyTable(AccountSchema, { required: true }),
    webhooks: () => keyTable(TargetWebhooksSchema),
    operation: () => keyTable(OperationMappingSchema),
  },
  'docs/clauses.md': {
    'clause-fields': () => keyTable(ClauseSchema, { required: true }),
  },
};

const BEGIN = (name: string) => `<!-- generated: ${name} (npm run schemas -- --write; edit conformance/schema/, not here) -->`;
const END = (name: string) => `<!-- end generated: ${name} -->`;

/** A page with each named block's text put between its markers; an unknown or missing marker is an error naming it. */
export function fillBlocks(page: string, file: string, blocks: Record<string, () => string>): string {
  let out = page;
  for (const [name, render] of Object.entries(blocks)) {
    const begin = out.indexOf(BEGIN(name));
    const end = out.indexOf(END(name));
    if (begin === -1 || end === -1 || end < begin) throw new Error(`${file} lacks the markers of the generated block "${name}": ${BEGIN(name)} ... ${END(name)}`);
    out = `${out.slice(0, begin + BEGIN(name).length)}\n${render()}\n${out.slice(end)}`;
  }
  return out;
}

/** Every generated file with the text it should have, reading the hand-written parts of docs pages from `root`. */
export function generatedFiles(root = REPO_ROOT): GeneratedFile[] {
  const files: GeneratedFile[] = [
    { path: 'conformance/scenario.schema.json', text: jsonSchemaText(ScenarioSchema, 'conformance/schema/scenario.ts', { step: StepSchema }) },
    { path: 'conformance/target.schema.json', text: jsonSchemaText(TargetFileSchema, 'conformance/schema/target-file.ts') },
    { path: 'conformance/clauses.schema.json', text: jsonSchemaText(ClauseCatalogueSchema, 'conformance/schema/clauses.ts', { clause: ClauseSchema }) },
  ];
  for (const [file, blocks] of Object.entries(DOC_BLOCKS)) {
    files.push({ path: file, text: fillBlocks(readFileSync(path.join(root, file), 'utf8'), file, blocks) });
  }
  return files;
}

/** The generated files whose committed text differs from what the schemas give. */
export function staleFiles(root = REPO_ROOT, read = (p: string) => readFileSync(path.join(root, p), 'utf8')): string[] {
  return generatedFiles(root)
    .filter((f) => {
      try {
        return read(f.path) !== f.text;
      } catch {
        return true;
      }
    })
    .map((f) => f.path);
}
