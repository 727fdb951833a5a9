// Request steps with `repeat`: the request goes out `times` times with the round under `as`,
// every response meets the expectations, the first that does not stands for the step, and
// `save` reads the last response.
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runConformance } from '../run.ts';
import { loadScenario } from '../scenario/load.ts';
import { LoadError } from '../yaml-source.ts';
import { simTarget } from '../target.ts';
import { catalogue, contract, SEED } from './helpers.ts';

function load(text: string) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'repeat-'));
  const file = path.join(dir, 'repeat.yaml');
  writeFileSync(file, text);
  return loadScenario(file, { contract, clauses: catalogue, root: dir });
}

async function run(text: string) {
  const report = await runConformance({ target: simTarget({ seed: SEED }), contract, clauses: catalogue, scenarios: [load(text)], seed: SEED });
  return report.units[0]!;
}

const BLOCKS = (expectation: string) => `description: blocks five callers in a row
clauses: [blocked-caller.release.keeps-history]
steps:
  - request: { operationId: createBlockedCaller, body: { number: "0109000000{{ i }}", note: "round {{ i }}" } }
    repeat: { times: 5, as: i }
    expect: ${expectation}
    save: { last: body.note }
  - name: the saved note is the last round's
    request: { operationId: createBlockedCaller, body: { number: "01092000000", note: "{{ last }} again" } }
    expect: { body: { note: "round 4 again" } }
`;

describe('repeat', () => {
  it('sends the request times times with the round, and saves from the last response', async () => {
    const unit = await run(BLOCKS('{ status: 201 }'));
    expect(unit.status).toBe('passed');
    expect(unit.steps[0]!.name).toBe('createBlockedCaller (x5)');
    const list = await run(`description: five rounds leave five entries
clauses: [blocked-caller.release.keeps-history]
steps:
  - request: { operationId: createBlockedCaller, body: { number: "0109100000{{ i }}" } }
    repeat: { times: 5, as: i }
  - request: { operationId: listBlockedCallers }
    expect: { body: { data: { $filter: { where: { number: { $regex: "^0109100000" } }, then: { $length: 5 } } } } }
`);
    expect(list.status).toBe('passed');
  });

  it('the first round that fails stands for the step, named with its round; every round is still sent', async () => {
    const unit = await run(BLOCKS('{ body: { note: { $ne: "round 3" } } }'));
    expect(unit.status).toBe('failed');
    expect(unit.steps[0]!.name).toBe('createBlockedCaller (round 4 of 5)');
    expect(unit.steps[1]!.status).toBe('passed'); // saved from round 5: "round 4 again"
  });

  it('refuses a repeat without times or beyond 20,000 when loading', () => {
    for (const repeat of ['{ as: i }', '{ times: 20001 }', '{ times: 0 }']) {
      expect(() => load(`description: bad
clauses: [blocked-caller.release.keeps-history]
steps:
  - request: { operationId: listBlockedCallers }
    repeat: ${repeat}
`), repeat).toThrow(LoadError);
    }
  });
});
