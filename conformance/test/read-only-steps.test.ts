// Scenarios' read-only steps: `readOnly` runs instead of `steps` where the target may not be
// written to (and the scenario's own requirements, its writing steps', do not apply); a step that
// writes is refused there when loading; `found` skips a step, and those after it, when the data it
// was to read is not on the target, rather than passing an $each over nothing.
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runConformance } from '../run.ts';
import { loadScenario } from '../scenario/load.ts';
import { simTarget } from '../target.ts';
import { LoadError } from '../yaml-source.ts';
import { catalogue, contract, SEED } from './helpers.ts';

function load(text: string) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'read-only-steps-'));
  const file = path.join(dir, 'x.yaml');
  writeFileSync(file, text);
  return loadScenario(file, { contract, clauses: catalogue, root: dir });
}

const SCENARIO = `description: blocks a caller, or reads the callers there are
clauses: [blocked-caller.field.shape]
requires: [teleportation]
steps:
  - request: { operationId: createBlockedCaller, body: { number: "{{ fresh.mobile }}" } }
    save: { id: body.id }
  - request: { operationId: getBlockedCaller, params: { blockedCallerId: "{{ id }}" } }
    expect: { status: 200 }
readOnly:
  - request: { operationId: listBlockedCallers, query: { status: STATUS } }
    found: body.data
    save: { id0: "body.data[0].id" }
  - request: { operationId: getBlockedCaller, params: { blockedCallerId: "{{ id0 }}" } }
    expect: { status: 200, body: { id: "{{ id0 }}" } }
`;

async function run(text: string, readOnly: boolean) {
  const target = simTarget({ seed: SEED });
  try {
    return (await runConformance({ target, contract, clauses: catalogue, scenarios: [load(text)], seed: SEED, readOnly })).units[0]!;
  } finally {
    await target.close();
  }
}

describe('read-only steps', () => {
  it('run instead of the steps where the target may not be written to, with data found there', async () => {
    const unit = await run(SCENARIO.replace('STATUS', 'all'), true);
    expect(unit.status).toBe('passed');
    expect(unit.steps.map((s) => s.request?.split('?')[0])).toEqual(['GET /v1/accounts/AC1a2b3c4d/blocked-callers', expect.stringMatching(/^GET \/v1\/accounts\/AC1a2b3c4d\/blocked-callers\/bc_/)]);
    // Where it may write, the steps run, and need the scenario's capabilities (the read-only steps did not).
    const writing = await run(SCENARIO.replace('STATUS', 'all'), false);
    expect(writing.status).toBe('skipped');
    expect(writing.skipReason).toMatch(/target lacks capability "teleportation"/);
  });

  it('skip, with the reason, where the data they read is not there, instead of passing on nothing', async () => {
    const unit = await run(SCENARIO.replace('STATUS', 'released'), true);
    expect(unit.status).toBe('skipped');
    expect(unit.skipReason).toMatch(/^no data on the target to read: GET .*status=released answered 200 with nothing at body\.data/);
  });

  it('may not write: a writing step among them is a loading error naming its place', () => {
    const bad = SCENARIO.replace('STATUS', 'all') + '  - request: { operationId: createBlockedCaller, body: { number: "01012345678" } }\n';
    expect(() => load(bad)).toThrow(LoadError);
    expect(() => load(bad)).toThrow(/x\.yaml:\d+:\d+: a readOnly step only reads, and this one sends POST/);
    const control = SCENARIO.replace('STATUS', 'all') + '  - control: { advance: { seconds: 1 } }\n';
    expect(() => load(control)).toThrow(/a readOnly step only reads, and this one is a control-plane advance/);
  });

  it('see only the names they save themselves', () => {
    const leaning = SCENARIO.replace('STATUS', 'all').replace('params: { blockedCallerId: "{{ id0 }}" } }\n    expect: { status: 200, body: { id: "{{ id0 }}" } }', 'params: { blockedCallerId: "{{ id }}" } }');
    expect(() => load(leaning)).toThrow(/"id" is used before any step saves it/);
  });
});
