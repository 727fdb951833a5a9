// Loading errors name the file, the line and the reason, for the scenario format, the clause
// catalogue and target files; every problem of every file is reported at once.
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadClauses } from '../clauses.ts';
import { loadScenario, loadScenarios } from '../scenario/load.ts';
import { loadTargetFile } from '../target-file.ts';
import { LoadError } from '../yaml-source.ts';
import { catalogue, contract } from './helpers.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'conformance-load-'));
const FIXTURE_CLAUSES = fileURLToPath(new URL('./fixtures/clauses.yaml', import.meta.url));

function file(name: string, text: string): string {
  const p = path.join(dir, name);
  writeFileSync(p, text);
  return p;
}

function problems(fn: () => unknown): string[] {
  try {
    fn();
  } catch (e) {
    if (e instanceof LoadError) return e.problems.map((p) => `${path.basename(p.file)}:${p.line}: ${p.message}`);
    throw e;
  }
  throw new Error('expected a LoadError');
}

const ctx = { contract, clauses: catalogue, root: dir };
const HEAD = 'description: d\nclauses: [auth.bearer-required]\nsteps:\n';

describe('loading scenarios', () => {
  it('loads a valid file and names it by its path under the root', () => {
    const s = loadScenario(file('ok.yaml', `${HEAD}  - request: { operationId: listBlockedCallers }\n    expect: { status: 200 }\n`), ctx);
    expect(s.id).toBe('ok');
    expect(s.steps[0]).toMatchObject({ kind: 'request', line: 4 });
  });

  it('loads a file again as new data: nothing a caller changes in one load shows in the next', () => {
    const f = file('twice.yaml', `${HEAD}  - request: { operationId: listBlockedCallers }\n    expect: { status: 200 }\n`);
    const first = loadScenario(f, ctx);
    (first.steps[0] as { name: string }).name = 'changed';
    first.clauses.push('changed');
    const second = loadScenario(f, ctx);
    expect(second.steps[0]!.name).not.toBe('changed');
    expect(second.clauses).not.toContain('changed');
    // An edited file is read as it is now.
    writeFileSync(f, `${HEAD}  - request: { operationId: listBlockedCallers }\n  - request: { operationId: listBlockedCallers }\n`);
    expect(loadScenario(f, ctx).steps).toHaveLength(2);
  });

  it('names the line of a YAML syntax error', () => {
    expect(problems(() => loadScenario(file('syntax.yaml', `${HEAD}  - request: { operationId: x\n`), ctx))[0]).toMatch(/^syntax\.yaml:\d+: YAML: /);
  });

  it('names the line of a schema violation', () => {
    const p = problems(() => loadScenario(file('schema.yaml', `${HEAD}  - request: { operationId: listBlockedCallers }\n    expct: { status: 200 }\n`), ctx));
    expect(p.some((l) => /^schema\.yaml:4: .*unknown field "expct"/.test(l)), p.join('\n')).toBe(true);
  });

  it('refuses unknown operations, clauses, path parameters and matchers, each on its line', () => {
    const text = [
      'description: d',
      'clauses: [auth.bearer-required, no.such-clause]',
      'steps:',
      '  - request: { operationId: listBlockedCalers }',
      '  - request: { operationId: getBlockedCaller, params: { id: x } }',
      '    expect: { body: { active: { $bool: true } } }',
      '',
    ].join('\n');
    const p = problems(() => loadScenario(file('semantic.yaml', text), ctx));
    expect(p).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^semantic\.yaml:2: unknown clause "no\.such-clause"/),
        expect.stringMatching(/^semantic\.yaml:4: unknown operationId "listBlockedCalers"/),
        expect.stringMatching(/^semantic\.yaml:5: getBlockedCaller has no path parameter "id"/),
        expect.stringMatching(/^semantic\.yaml:5: getBlockedCaller needs the path parameter "blockedCallerId"/),
        expect.stringMatching(/^semantic\.yaml:6: unknown matcher \$bool/),
      ]),
    );
  });

  it('refuses a name used before any step saves it, and unknown filters and generators', () => {
    const text = `${HEAD}  - request: { operationId: getBlockedCaller, params: { blockedCallerId: "{{ idd }}" } }\n  - request: { operationId: createBlockedCaller, body: { number: "{{ fresh.phone | dashes }}" } }\n    save: { id: body.id }\n`;
    const p = problems(() => loadScenario(file('names.yaml', text), ctx));
    expect(p).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^names\.yaml:4: "idd" is used before any step saves it/),
        expect.stringMatching(/^names\.yaml:5: unknown filter "dashes"/),
        expect.stringMatching(/^names\.yaml:5: unknown generator "fresh\.phone"/),
      ]),
    );
  });

  it('refuses a repeat count that is missing, not a number or too large', () => {
    const text = `${HEAD}  - request: { operationId: createBlockedCaller, body: { note: "{{ seed | repeat }}", number: "{{ seed | repeat(x) }}" } }\n  - request: { operationId: createBlockedCaller, body: { note: "{{ seed | repeat(100001) }}", number: "{{ seed | repeat(3) }}" } }\n`;
    const p = problems(() => loadScenario(file('repeat.yaml', text), ctx));
    expect(p.filter((l) => /repeat needs a count/.test(l)).map((l) => l.split(': ')[0])).toEqual(['repeat.yaml:4', 'repeat.yaml:4', 'repeat.yaml:5']);
  });

  it('checks webhook steps: what they save, whose key, their matchers; using the receiver implies requiring it', () => {
    const text = [
      HEAD.trimEnd(),
      '  - request: { operationId: createWebhook, body: { url: "{{ receiver.url }}/events/callflow.ended", events: [callflow.ended] } }',
      '  - webhook: { event: callflow.ended, account: nobody, fields: { CallId: { $like: x } } }',
      '    save: { s: status, id: fields.CallId, sig: headers.x-signature }',
      '    expect: { count: { $gte: 1 } }',
      '  - receiver: { status: 503, times: 2 }',
      '',
    ].join('\n');
    const p = problems(() => loadScenario(file('webhook.yaml', text), ctx));
    expect(p).toEqual([
      expect.stringMatching(/^webhook\.yaml:5: "nobody" is not an account here/),
      expect.stringMatching(/^webhook\.yaml:5: unknown matcher \$like/),
      expect.stringMatching(/^webhook\.yaml:6: a webhook step cannot save "status"/),
    ]);
    const ok = loadScenario(file('webhook-ok.yaml', text.replace('account: nobody, ', '').replace('{ $like: x }', 'CA1').replace('s: status, ', '')), ctx);
    expect(ok.requires).toEqual(['receiver']);
    expect(ok.steps.map((st) => st.kind)).toEqual(['request', 'webhook', 'receiver']);
    const implied = loadScenario(file('implied.yaml', `${HEAD}  - request: { operationId: createWebhook, body: { url: "{{ receiver.url }}/x", events: [callflow.ended] } }\n`), ctx);
    expect(implied.requires).toEqual(['receiver']);
  });

  it('refuses a webhook step with request expectations, and a receiver step with any', () => {
    const text = `${HEAD}  - webhook: { event: x }\n    expect: { status: 200 }\n  - receiver: { status: 503 }\n    expectSim: { count: 1 }\n`;
    const p = problems(() => loadScenario(file('webhook-bad.yaml', text), ctx));
    expect(p).toEqual(['webhook-bad.yaml:5: /steps/0/expect: unknown field "status"', 'webhook-bad.yaml:6: /steps/1: unknown field "expectSim"']);
  });

  it('reports the problems of every file together', () => {
    const a = file('a.yaml', 'description: d\nsteps: []\n');
    const b = file('b.yaml', `${HEAD}  - control: { advance: { seconds: -1 } }\n`);
    const p = problems(() => loadScenarios([a, b], ctx));
    expect(p.some((l) => l.startsWith('a.yaml:'))).toBe(true);
    expect(p.some((l) => l.startsWith('b.yaml:4:'))).toBe(true);
  });
});

describe('loading the clause catalogue', () => {
  it('loads the fixture catalogue', () => {
    const c = loadClauses(FIXTURE_CLAUSES);
    expect(c.has('conventions.phone-normalization')).toBe(true);
    expect(c.select('conventions.*')).toEqual(['conventions.phone-normalization', 'conventions.list-envelope']);
  });

  it('names the line of a duplicate id and of a bad kind', () => {
    const text = 'version: 1\nclauses:\n  - { id: a.b, section: S, kind: rule, text: t, observable: true }\n  - { id: a.b, section: S, kind: rules, text: t, observable: true }\n';
    expect(problems(() => loadClauses(file('bad-kind.yaml', text)))[0]).toMatch(/^bad-kind\.yaml:4: /);
    const dup = 'version: 1\nclauses:\n  - { id: a.b, section: S, kind: rule, text: t, observable: true }\n  - { id: a.b, section: S, kind: rule, text: t, observable: true }\n';
    expect(problems(() => loadClauses(file('dup.yaml', dup)))).toEqual([expect.stringMatching(/^dup\.yaml:4: duplicate clause id "a\.b"/)]);
  });
});

describe('loading target files', () => {
  const text = 'baseUrl: https://api.example.test\naccounts:\n  main: { accountId: AC1, key: "${MAIN_KEY}" }\n  alt: { accountId: AC2, key: "${ALT_KEY}" }\noperations:\n  listBlockedCallers: { path: \"/v1/accounts/{accountId}/caller-blocks\" }\n';
  it('takes secrets from the environment', () => {
    const t = loadTargetFile(file('target.yaml', text), { MAIN_KEY: 'sk_main_secret', ALT_KEY: 'sk_alt_secret' });
    expect(t.accounts.get('main')).toEqual({ accountId: 'AC1', key: 'sk_main_secret' });
    expect(t.operations.listBlockedCallers!.path).toBe('/v1/accounts/{accountId}/caller-blocks');
  });
  it('the example target file loads', () => {
    const t = loadTargetFile(fileURLToPath(new URL('../target.example.yaml', import.meta.url)), { VENDOR_MAIN_KEY: 'a_secret', VENDOR_ALT_KEY: 'b_secret' });
    expect(t.baseUrl).toBe('https://api.vendor.example');
    expect(t.operations.createBlockedCaller).toEqual({ unsupported: true });
    expect(() => contract.withOverrides(t.operations)).not.toThrow();
  });
  it('names the variable that is not set, and its line', () => {
    expect(problems(() => loadTargetFile(file('target2.yaml', text), { MAIN_KEY: 'x' }))).toEqual([expect.stringMatching(/^target2\.yaml:4: environment variable ALT_KEY is not set/)]);
  });
});
