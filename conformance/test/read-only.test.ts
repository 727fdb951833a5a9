// --read-only against a production-like target (no control plane, data made through the API)
// still checks most of what a read can show: lists and gets, envelopes, paging and aliases,
// filters, the auth matrix, error bodies of bad ids and queries, field types of existing data.
import { describe, expect, it } from 'vitest';
import { failureLines } from './helpers.ts';
import { readOnlyCoverage } from './read-only-coverage.ts';

describe('--read-only coverage', () => {
  it('covers at least 40 % of the clauses a read can show, and fails nothing', async () => {
    const r = await readOnlyCoverage();
    expect(failureLines(r.readOnly)).toEqual([]);
    const share = r.covered.size / r.readable.size;
    const missing = [...r.readable].filter((c) => !r.covered.has(c));
    expect(share, `read-only covers ${r.covered.size} of ${r.readable.size}; missing: ${missing.join(', ')}`).toBeGreaterThanOrEqual(0.4);
    // The read-only scenarios, the paging property and the probes all earned their clauses.
    const passed = r.readOnly.units.filter((u) => u.status === 'passed').map((u) => u.id);
    expect(passed).toEqual(expect.arrayContaining(['usage/read-only', 'blocked-callers/read-only', 'email-domains/read-only', 'conventions/read-only-refusals', 'paging-listBlockedCallers']));
  });
});
