// Loading scenario files: YAML, then the published JSON Schema, then the checks a schema cannot
// express (known operations and clauses, matcher syntax, names used before they are saved).
// Every problem names the file, the line and the reason; all problems of all files are
// reported at once.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { globSync } from 'tinyglobby';
import type { ClauseCatalogue } from '../clauses.ts';
import type { Contract } from '../contract/contract.ts';
import { LoadError, schemaProblems, YamlSource, type SourceProblem } from '../yaml-source.ts';
import { FILTER_NAMES, GENERATOR_NAMES } from './interpolate.ts';
import { matcherProblems } from './matchers.ts';
import type { Expectation, Scenario, Step } from './types.ts';

export const SCENARIO_SCHEMA_PATH = fileURLToPath(new URL('../scenario.schema.json', import.meta.url));
export const SCENARIOS_ROOT = fileURLToPath(new URL('../../scenarios/', import.meta.url));

export interface LoadContext {
  contract: Contract;
  clauses: ClauseCatalogue;
  /** Scenario ids are paths relative to this folder. */
  root?: string;
}

type Raw = Record<string, any>;

/** Names every scenario can use without saving them first. */
const BUILTIN_NAMES = ['main', 'alt', 'seed'];

function expressionsIn(value: unknown, pointer: string, out: { expr: string; pointer: string }[]): void {
  if (typeof value === 'string') {
    for (const m of value.matchAll(/\{\{\s*([^}]*?)\s*\}\}/g)) out.push({ expr: m[1]!, pointer });
    if (/\{\{(?![^}]*\}\})/.test(value)) out.push({ expr: '\u0000unclosed', pointer });
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => expressionsIn(v, `${pointer}/${i}`, out));
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      expressionsIn(k, pointer, out);
      expressionsIn(v, `${pointer}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`, out);
    }
  }
}

function checkExpressions(source: YamlSource, value: unknown, pointer: string, known: Set<string>, problems: SourceProblem[]): void {
  const found: { expr: string; pointer: string }[] = [];
  expressionsIn(value, pointer, found);
  for (const { expr, pointer: at } of found) {
    if (expr === '\u0000unclosed') {
      problems.push(source.problem(at, 'an opening "{{" has no closing "}}"'));
      continue;
    }
    const [head, ...filters] = expr.split('|').map((s) => s.trim());
    for (const f of filters) if (!FILTER_NAMES.includes(f)) problems.push(source.problem(at, `unknown filter "${f}" in {{ ${expr} }} (known: ${FILTER_NAMES.join(', ')})`));
    if (head!.startsWith('fresh.')) {
      if (!GENERATOR_NAMES.includes(head!.slice(6))) problems.push(source.problem(at, `unknown generator "${head}" (known: ${GENERATOR_NAMES.map((g) => `fresh.${g}`).join(', ')})`));
      continue;
    }
    const name = /^[A-Za-z_$][\w$-]*/.exec(head!)?.[0];
    if (!name) problems.push(source.problem(at, `cannot read "{{ ${expr} }}"`));
    else if (!known.has(name)) problems.push(source.problem(at, `"${name}" is used before any step saves it (known here: ${[...known].sort().join(', ')})`));
  }
}

function checkExpectation(source: YamlSource, e: Expectation | undefined, pointer: string, problems: SourceProblem[]): void {
  if (!e) return;
  for (const key of ['status', 'headers', 'body'] as const) {
    if (e[key] === undefined) continue;
    for (const p of matcherProblems(e[key], `${pointer}/${key}`)) problems.push(source.problem(p.pointer, p.message));
  }
}

function toStep(raw: Raw, pointer: string, line: number): Step {
  const common = {
    name: raw.name,
    clauses: raw.clauses,
    requires: raw.requires,
    expect: raw.expect,
    expectSim: raw.expectSim,
    save: raw.save,
    pointer,
    line,
  };
  return raw.request ? { ...common, kind: 'request', request: raw.request } : { ...common, kind: 'control', control: raw.control };
}

/** Loads one scenario file. */
export function loadScenario(file: string, ctx: LoadContext): Scenario {
  const root = ctx.root ?? SCENARIOS_ROOT;
  const display = path.relative(process.cwd(), file) || file;
  const source = YamlSource.read(file, display);
  const problems = schemaProblems(source, SCENARIO_SCHEMA_PATH);
  if (problems.length > 0) throw new LoadError(problems);
  const raw = source.data as Raw;

  const known = new Set<string>(BUILTIN_NAMES);
  checkExpressions(source, raw.vars, '/vars', known, problems);
  for (const name of Object.keys(raw.vars ?? {})) known.add(name);

  (raw.clauses as string[]).forEach((id, i) => {
    if (!ctx.clauses.has(id)) problems.push(source.problem(`/clauses/${i}`, `unknown clause "${id}" (not in the clause catalogue)`));
  });

  const steps: Step[] = [];
  (raw.steps as Raw[]).forEach((s, i) => {
    const at = `/steps/${i}`;
    const step = toStep(s, at, source.position(at).line);
    (s.clauses ?? []).forEach((id: string, j: number) => {
      if (!ctx.clauses.has(id)) problems.push(source.problem(`${at}/clauses/${j}`, `unknown clause "${id}" (not in the clause catalogue)`));
    });
    if (step.kind === 'request') {
      const r = step.request;
      if (r.operationId) {
        const op = ctx.contract.operation(r.operationId);
        if (!op) problems.push(source.problem(`${at}/request/operationId`, `unknown operationId "${r.operationId}" (not in the contract)`));
        else {
          for (const p of Object.keys(r.params ?? {})) {
            if (!op.pathParams.includes(p)) problems.push(source.problem(`${at}/request/params/${p}`, `${r.operationId} has no path parameter "${p}" (it has: ${op.pathParams.join(', ') || 'none'})`));
          }
          for (const p of op.pathParams) {
            if (p !== 'accountId' && !(p in (r.params ?? {}))) problems.push(source.problem(`${at}/request`, `${r.operationId} needs the path parameter "${p}" under params`));
          }
        }
      }
      if (r.body !== undefined && r.rawBody !== undefined) problems.push(source.problem(`${at}/request/rawBody`, 'give either body or rawBody, not both'));
      for (const who of [r.as, r.account]) {
        if (who && !['none', 'invalid'].includes(who) && !known.has(who)) {
          problems.push(source.problem(`${at}/request`, `"${who}" is not an account here (main, alt, none, invalid, or a name given by a createAccount step)`));
        }
      }
      checkExpressions(source, r, `${at}/request`, known, problems);
    } else {
      checkExpressions(source, step.control, `${at}/control`, known, problems);
      if (step.control.as && !step.control.createAccount) problems.push(source.problem(`${at}/control/as`, '"as" names the account made by createAccount; this step creates none'));
    }
    checkExpectation(source, step.expect, `${at}/expect`, problems);
    checkExpectation(source, step.expectSim, `${at}/expectSim`, problems);
    checkExpressions(source, step.expect, `${at}/expect`, known, problems);
    checkExpressions(source, step.expectSim, `${at}/expectSim`, known, problems);
    for (const name of Object.keys(step.save ?? {})) known.add(name);
    if (step.kind === 'control' && step.control.as) known.add(step.control.as);
    steps.push(step);
  });
  if (problems.length > 0) throw new LoadError(problems);

  const id = path.relative(root, file).replace(/\\/g, '/').replace(/\.ya?ml$/, '');
  return {
    id,
    file: display,
    description: raw.description,
    clauses: raw.clauses,
    tags: raw.tags ?? [],
    requires: raw.requires ?? [],
    vars: raw.vars ?? {},
    steps,
  };
}

/** Files matching the globs (relative to the current folder), sorted. Default: every scenario. */
export function scenarioFiles(globs: readonly string[], root = SCENARIOS_ROOT): string[] {
  const patterns = globs.length > 0 ? [...globs] : [path.join(root, '**/*.{yaml,yml}')];
  const files = globSync(patterns.map((g) => g.replace(/\\/g, '/')), { absolute: true, onlyFiles: true });
  return [...new Set(files)].filter((f) => /\.ya?ml$/.test(f)).sort();
}

/** Loads every file; throws one LoadError listing the problems of all files. */
export function loadScenarios(files: readonly string[], ctx: LoadContext): Scenario[] {
  const out: Scenario[] = [];
  const problems: SourceProblem[] = [];
  for (const f of files) {
    try {
      out.push(loadScenario(f, ctx));
    } catch (e) {
      if (e instanceof LoadError) problems.push(...e.problems);
      else throw e;
    }
  }
  if (problems.length > 0) throw new LoadError(problems);
  return out;
}
