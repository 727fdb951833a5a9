// The kit tests itself: a deliberately wrong server must make it fail on exactly the clauses
// (and, for failures no clause names, the checks) that each defect breaks, and on nothing else.
// Each defect runs the whole suite, so the cases are spread over two test files
// (wrong-server-*.test.ts) that the test runner can run on both cores.
import { describe, expect, it } from 'vitest';
import { simTarget } from '../target.ts';
import { failedClauses, failureLines, runSuite, SEED } from './helpers.ts';
import { wrongServer, type Defect } from './wrong-server.ts';

export const EXPECTED: Record<Defect, string[]> = {
  // The email-domain list's own error row names 401 and 403 as well.
  'auth-ignored': ['auth.bearer-required', 'auth.invalid-key', 'auth.other-account-403', 'email-domain.list.errors', 'errors.401', 'errors.403-other-account'],
  'wrong-total': [
    'blocked-caller.list.total',
    'conventions.list-total-before-paging',
    'property:paging-listBlockedCallers',
    'property:paging-listEmailDomains',
    'property:paging-listVerifications',
    'usage.field.meta',
    'usage.last-page',
  ],
  'numbers-not-normalised': [
    'blocked-caller.field.number',
    'blocked-caller.list.number-filter',
    'conventions.phone-normalization',
    'conventions.phone-normalization.filters',
    'property:blocklists-model',
    'property:phone-normalization-listBlockedCallers',
    'property:phone-normalization-listBlockedRecipients',
  ],
  'released-dropped': [
    // A released entry that cannot be read never shows its unblocked fields either.
    'blocked-caller.field.unblocked-source',
    'blocked-caller.get.released-entries',
    'blocked-caller.list.status-filter',
    'blocked-caller.release.keeps-history',
    'blocked-recipient.field.unblocked-by-null-for-automatic',
    'blocked-recipient.release.keeps-history',
    'property:blocklists-model',
    'property:filters-listBlockedCallers',
  ],
  'server-error-on-bad-input': [
    'blocked-caller.get.errors',
    'blocked-caller.list.errors',
    'blocked-recipient.field.source-api',
    'call-flow.block.fields-shown',
    'call-flow.block.type',
    'call-flow.graph.nodes',
    'call-flow.graph.required-fields',
    'call-flow.graph.start',
    'call-flow.update.errors',
    'call-flow.update.name-or-graph-required',
    'call-flow.voice.model-only-paid-2',
    'call-flow.voice.voice-id-paid-1',
    'check:no-server-error',
    'conventions.json-bodies',
    'conventions.paging.page-size-max',
    'conventions.paging.usage-one-based',
    'email-domain.list.errors',
    'errors.400-invalid-phone-number',
    'errors.400-unsupported-country',
    'errors.400-validation',
    'errors.400-validation.bad-url',
    'errors.400-validation.page-size-not-integer',
    'errors.body-shape',
    'limits.call-flow-graph',
    'limits.ip-acl-cidrs',
    'limits.page-size',
    'limits.usage-range',
    'property:no-server-error-fuzz',
    'property:verifications-model',
    'sip-ip-acl.create.body',
    'sip-ip-acl.field.cidrs',
    'usage.query.from-to-together',
    'usage.query.group-by-comma-rejected',
    'verification.list.errors',
    'versioning.call-flow-graph-version',
  ],
  'key-echoed': ['check:no-secret-echoed'],
  'note-not-cleared': ['blocked-recipient.update.note-clear', 'property:blocklists-model'],
  // An unknown channel is no longer refused either.
  'verification-channel-ignored': ['property:filters-listVerifications', 'verification.list.channel-filter', 'verification.list.errors'],
  'code-echoed': ['check:no-secret-echoed', 'verification.code-never-returned'],
  // Caught by the receiving scenario and by the zone property's generated MX sets.
  'mx-tie-accepted': ['email-domain.receiving-status.not-lowest-priority', 'property:email-domain-zone'],
  'events-for-block-lists': ['events.none-for-domains-blocklists-usage'],
  // 75 s out + 50 s transferred is 3 minutes; 75 s alone is 2.
  'usage-minutes-without-transfer': ['usage.billable-minutes.single-round-up', 'usage.billable-minutes.transfer-counted'],
  // The answers lose required fields of their schema, which the response check reports too.
  'call-flow-defaults-unfilled': [
    'call-flow.defaults-filled',
    'call-flow.voice.language-default',
    'conventions.datetime-format',
    'conventions.nullable-fields',
    'conventions.required-fields-present',
  ],
};

const DEFECTS = Object.keys(EXPECTED) as Defect[];

/** Declares the cases of one half (0 or 1) of the defects. */
export function wrongServerCases(half: 0 | 1): void {
  const mid = Math.ceil(DEFECTS.length / 2);
  const mine = half === 0 ? DEFECTS.slice(0, mid) : DEFECTS.slice(mid);
  describe('a deliberately wrong server', () => {
    for (const defect of mine) {
      const expected = EXPECTED[defect];
      it(`${defect}: fails exactly the clauses it breaks (${expected.length})`, async () => {
        const report = await runSuite(simTarget({ seed: SEED, middleware: wrongServer(defect) }), { simLevel: 'fail', replayDir: defect });
        expect(report.summary.exitCode).toBe(1);
        expect(failedClauses(report), failureLines(report).join('\n')).toEqual(expected);
      });
    }
  });
}
