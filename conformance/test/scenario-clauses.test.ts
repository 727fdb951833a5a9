// Every scenario names only clauses of the catalogue, and only clauses a test can observe.
import { describe, expect, it } from 'vitest';
import { catalogue, scenarios } from './helpers.ts';

describe('the scenarios\' clauses', () => {
  it('every scenario names only clauses of the catalogue, and every clause it names is observable', () => {
    for (const s of scenarios) {
      for (const id of [...s.clauses, ...s.steps.flatMap((st) => st.clauses ?? [])]) {
        expect(catalogue.has(id), `${s.file}: ${id}`).toBe(true);
        expect(catalogue.byId.get(id)!.observable, `${s.file}: ${id} is marked not observable`).toBe(true);
      }
    }
  });
});
