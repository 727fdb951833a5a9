// A recording as a scenario of the kit's format (docs/scenario-format.md), for a vendor to keep in
// their suite: the same requests in order, as raw requests (control-plane ones as control steps),
// with the ids the recorded implementation made up saved where they first appeared and used by
// name after, the recorded keys standing for the suite's accounts (`as: main`, `alt`, or an
// account the session created), fresh values for secrets the session sent, and each answer
// expected: its status, its error code, its JSON body with matchers for what cannot be equal
// (instants, the first sight of an id, secrets, random hex). It counts only for the clause every
// JSON answer shows (conventions.json-bodies); docs/decisions.md "Record and replay".
import { stringify } from 'yaml';
import { bodyJson, type Exchange, type RecordingMeta } from '../recording/format.ts';
import { isDatetime } from '../scenario/matchers.ts';
import { hexPattern, isIdLike, isPlaceholder, kitPath } from './values.ts';

type Json = unknown;

/** Request headers the kit sets itself, or that say nothing about the request. */
const LEFT_OUT = new Set(['authorization', 'x-signature', 'cookie', 'content-length', 'content-type', 'host', 'connection', 'accept', 'accept-encoding', 'accept-language', 'user-agent', 'pragma', 'cache-control']);
const leftOut = (name: string) => LEFT_OUT.has(name) || name.startsWith('sec-');

class Names {
  private readonly expr = new Map<string, string>(); // maps a recorded value to the expression standing for it
  private ids = 0;
  private accounts = 0;
  private readonly given = ['main', 'alt'];

  of(value: string): string | undefined {
    return this.expr.get(value);
  }

  set(value: string, expr: string): void {
    if (!this.expr.has(value)) this.expr.set(value, expr);
  }

  newId(): string {
    return `id${++this.ids}`;
  }

  newAccount(): string {
    return `account${++this.accounts}`;
  }

  /** The suite account a recorded key stands for (main, then alt); undefined past them. */
  account(placeholder: string, path: string): string | undefined {
    const known = this.of(placeholder);
    if (known !== undefined) return known;
    const name = this.given.shift();
    if (name === undefined) return undefined;
    this.set(placeholder, name);
    const account = /^\/v1\/accounts\/([^/?]+)/.exec(path)?.[1];
    if (account !== undefined) this.set(decodeURIComponent(account), `${name}.accountId`);
    return name;
  }

  /** Text with every named value in it written as its expression. */
  text(s: string): string {
    const whole = this.of(s);
    if (whole !== undefined) return `{{ ${whole} }}`;
    let out = s;
    for (const [value, expr] of [...this.expr].sort((a, b) => b[0].length - a[0].length)) {
      if (value.length >= 6 && out.includes(value)) out = out.split(value).join(`{{ ${expr} }}`);
    }
    return out.replace(/\[secret:\d+\]/g, '{{ fresh.hex }}');
  }

  request(v: Json): Json {
    if (isPlaceholder(v)) return '{{ fresh.hex }}';
    if (typeof v === 'string') return this.text(v);
    if (Array.isArray(v)) return v.map((x) => this.request(x));
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, this.request(x)]));
    return v;
  }
}

/** The expected body: known ids by name, matchers where values cannot be equal; ids seen here first are saved. */
function expectation(v: Json, names: Names, save: Record<string, string>, path: (string | number)[] = [], key?: string): Json {
  if (Array.isArray(v)) return v.map((x, i) => expectation(x, names, save, [...path, i], key));
  if (v && typeof v === 'object') {
    const out = Object.fromEntries(Object.entries(v).map(([k, x]) => [k, expectation(x, names, save, [...path, k], k)]));
    return Object.keys(out).length > 0 && Object.keys(out).every((k) => k.startsWith('$')) ? { $literal: out } : out;
  }
  if (isPlaceholder(v)) return { $type: 'string' };
  if (isIdLike(key, v)) {
    const known = names.of(v);
    if (known !== undefined) return `{{ ${known} }}`;
    const name = names.newId();
    names.set(v, name);
    save[name] = kitPath(path);
    return { $type: 'string' };
  }
  if (isDatetime(v)) return { $type: 'datetime' };
  if (typeof v === 'string' && hexPattern(v)) return { $regex: hexPattern(v) };
  return v;
}

function step(e: Exchange, names: Names): Record<string, unknown> | string {
  if (e.upgrade) return `#${e.seq}: a WebSocket upgrade, not replayed`;
  if (!e.response) return `#${e.seq}: the recorder could not reach the upstream`;
  const r = e.request;
  const reqJson = bodyJson(r);
  const body = reqJson !== undefined ? names.request(reqJson) : r.body !== undefined ? names.text(r.body) : undefined;
  const headers = Object.fromEntries(Object.entries(r.headers).filter(([k]) => !leftOut(k)).map(([k, v]) => [k, names.text(v)]));
  const out: Record<string, unknown> = { name: `#${e.seq} ${r.method} ${r.path.split('?')[0]}` };
  const resJson = bodyJson(e.response);
  const expect: Record<string, unknown> = { status: e.response.status };
  const save: Record<string, string> = {};
  if (r.path.startsWith('/_sim')) {
    if (r.method === 'POST' && r.path === '/_sim/accounts' && e.response.status === 201 && resJson && typeof resJson === 'object') {
      const as = names.newAccount();
      // Its key stands for the account made here (its id is saved like any id, below).
      const made = resJson as { apiKey?: string };
      if (made.apiKey) names.set(made.apiKey, as);
      out.control = { createAccount: body ?? {}, as };
    } else {
      out.control = { method: r.method, path: names.text(r.path.slice('/_sim'.length)), ...(body !== undefined ? { body } : {}) };
    }
  } else {
    const auth = /^\w+\s+(\S+)$/.exec(r.headers.authorization ?? '')?.[1];
    const as = auth === undefined ? 'none' : isPlaceholder(auth) ? names.account(auth, r.path) : undefined;
    if (as === undefined) return `#${e.seq}: its credential stands for no account of the suite (a third key)`;
    out.request = { method: r.method, path: names.text(r.path), ...(body !== undefined ? (reqJson !== undefined ? { body } : { rawBody: body }) : {}), ...(Object.keys(headers).length ? { headers } : {}), as };
  }
  if (e.response.status >= 400) {
    const code = resJson && typeof resJson === 'object' ? (resJson as { code?: unknown }).code : undefined;
    if (code !== undefined) expect.body = { code };
  } else if (resJson !== undefined) {
    expect.body = expectation(resJson, names, save);
  }
  out.expect = expect;
  if (Object.keys(save).length) out.save = save;
  return out;
}

/** The scenario YAML of a recording, and the exchanges it leaves out (with why). */
export function recordedScenario(meta: RecordingMeta, exchanges: readonly Exchange[]): { yaml: string; steps: number; leftOut: string[] } {
  const names = new Names();
  const steps: Record<string, unknown>[] = [];
  const leftOut: string[] = [];
  for (const e of exchanges) {
    const s = step(e, names);
    if (typeof s === 'string') leftOut.push(s);
    else steps.push(s);
  }
  const scenario = {
    description: `Recorded by platform-sim record from ${meta.upstream} on ${meta.startedAt}: ${steps.length} exchanges, each expected as the recorded implementation answered it (status, error code, body; ids, instants and secrets by matchers).${leftOut.length ? ` Left out: ${leftOut.join('; ')}.` : ''}`,
    clauses: ['conventions.json-bodies'],
    tags: ['recorded'],
    steps,
  };
  return { yaml: `# yaml-language-server: $schema=../../conformance/scenario.schema.json\n${stringify(scenario, { lineWidth: 0 })}`, steps: steps.length, leftOut };
}
