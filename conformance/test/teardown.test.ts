// Teardown steps undo what a scenario made, even when a step failed, so a shared target (no
// reset between scenarios) never shows one scenario's leftovers to the next.
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runConformance } from '../run.ts';
import { loadScenario } from '../scenario/load.ts';
import { simTarget } from '../target.ts';
import { catalogue, contract, SEED } from './helpers.ts';

const SCENARIO = `description: registers a webhook, then fails
clauses: [events.webhook-registration]
steps:
  - request: { operationId: createWebhook, body: { url: "https://hooks.example/x", events: [callflow.ended] } }
    save: { hook: body.id }
  - name: a step that fails and saves nothing
    request: { operationId: listWebhooks }
    expect: { status: 418 }
    save: { never: body.nothing }
teardown:
  - request: { operationId: deleteWebhook, params: { webhookId: "{{ hook }}" } }
  - name: a teardown step whose name was never saved is skipped on its own
    request: { operationId: deleteWebhook, params: { webhookId: "{{ never }}" } }
`;

describe('teardown', () => {
  it('runs after a failed step, each step on its own, and leaves nothing behind', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'teardown-'));
    const file = path.join(dir, 'leaky.yaml');
    writeFileSync(file, SCENARIO);
    const scenario = loadScenario(file, { contract, clauses: catalogue, root: dir });
    const target = simTarget({ seed: SEED });
    try {
      const report = await runConformance({ target, contract, clauses: catalogue, scenarios: [scenario], seed: SEED });
      const unit = report.units[0]!;
      expect(unit.status).toBe('failed');
      const teardown = unit.steps.filter((s) => s.teardown);
      expect(teardown.map((s) => [s.name, s.status])).toEqual([
        ['teardown: deleteWebhook', 'passed'],
        ['teardown: a teardown step whose name was never saved is skipped on its own', 'skipped'],
      ]);
      const main = target.accounts.get('main')!;
      const left = await target.send({ method: 'GET', path: `/v1/accounts/${main.accountId}/webhooks`, headers: { authorization: `Bearer ${main.key}` } });
      expect((left.json as { data: unknown[] }).data).toEqual([]);
    } finally {
      await target.close();
    }
  });

  it('is reported by the loader with file and line when a teardown step is wrong', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'teardown-'));
    const file = path.join(dir, 'bad.yaml');
    writeFileSync(file, `description: x\nclauses: [events.webhook-registration]\nsteps:\n  - request: { operationId: listWebhooks }\nteardown:\n  - request: { operationId: nope }\n`);
    expect(() => loadScenario(file, { contract, clauses: catalogue, root: dir })).toThrow(/bad\.yaml:6:\d+: unknown operationId "nope"/);
  });
});
