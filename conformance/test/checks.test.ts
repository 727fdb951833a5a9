// Checks and probes are pure functions: each one is shown passing a good exchange and failing
// a bad one (a check that cannot fail is a defect).
import { describe, expect, it } from 'vitest';
import { CHECKS, PROBES } from '../checks/index.ts';
import type { Check, Exchange, Probe } from '../checks/types.ts';
import { levelOf } from '../checks/types.ts';
import { Contract } from '../contract/contract.ts';
import { SecretSet } from '../secrets.ts';
import type { WireResponse } from '../target.ts';
import { contract } from './helpers.ts';

const KEY = 'sk_test_acme_4f9c2b7e1d3a5c8f';
const CALLER = {
  id: 'bc_1', number: '01012345678', active: true, source: 'api', note: null, createdBy: null,
  createdAt: '2026-03-02T00:00:00.000Z', updatedAt: '2026-03-02T00:00:00.000Z',
  unblockedAt: null, unblockedSource: null, unblockedBy: null, unblockedNote: null,
};

function exchange(method: string, path: string, status: number, body: unknown, opts: { headers?: Record<string, string>; text?: string; contract?: Contract } = {}): Exchange {
  const c = opts.contract ?? contract;
  const text = opts.text ?? (body === undefined ? '' : JSON.stringify(body));
  const response: WireResponse = { status, headers: { 'content-type': 'application/json; charset=utf-8', ...opts.headers }, text, json: opts.text !== undefined ? undefined : body, ms: 1 };
  const m = c.match(method, path);
  const q = path.indexOf('?');
  const secrets = new SecretSet();
  secrets.add(KEY);
  return { request: { method, path, headers: { authorization: `Bearer ${KEY}` } }, response, op: m?.op, params: m?.params ?? {}, query: new URLSearchParams(q < 0 ? '' : path.slice(q + 1)), contract: c, secrets };
}

/** A call whose completed leg 1 is the representative although busy leg 2 ended later. */
const leg = (sequence: number, status: string, extra: Record<string, unknown> = {}) => ({
  sequence, to: `0101234000${sequence}`, mode: 'blind', destinationType: 'pstn', status, duration: null, billable: false, billableDuration: null,
  hangupCauseQ850: status === 'busy' ? 17 : 16, sipResponseCode: status === 'busy' ? 486 : 200, reasonText: status === 'busy' ? 'USER_BUSY' : null,
  startedAt: '2026-07-11T00:00:00.000Z', connectedAt: null, endedAt: '2026-07-11T00:01:00.000Z', ...extra,
});
const COMPLETED_LEG = leg(1, 'completed', { duration: 20, billable: true, billableDuration: 20, connectedAt: '2026-07-11T00:00:40.000Z' });
const TRANSFERRED = {
  callId: 'CA1', status: 'completed', to: '01012345678', from: '07012340001', direction: 'outbound', duration: 60, accountId: 'AC1', answeredBy: null, recordingUrl: null,
  hangupCause: 'normal_clearing', hangupCauseQ850: 16, sipResponseCode: 200, hangupSource: 'caller',
  transferTo: '01012340001', transferStatus: 'completed', transferDuration: 20, transferHangupCauseQ850: 16, transferSipResponseCode: 200, transferReasonText: null,
  dateCreated: '2026-07-11T00:00:00.000Z', dateUpdated: '2026-07-11T00:02:00.000Z',
  transfers: [COMPLETED_LEG, leg(2, 'busy')],
};
const CALL = '/v1/accounts/AC1/calls/CA1';

const LIST = '/v1/accounts/AC1/blocked-callers';
const GET = '/v1/accounts/AC1/blocked-callers/bc_1';
const envelope = (data: unknown[], meta: Record<string, number>) => ({ data, meta });

const check = (id: string): Check => CHECKS.find((c) => c.id === id)!;
const probe = (id: string): Probe => PROBES.find((p) => p.id === id)!;

function verdict(c: Check, ex: Exchange): string | undefined {
  expect(c.applies(ex), `${c.id} should apply`).toBe(true);
  return c.run(ex);
}

const table: { check: string; good: Exchange; bad: Exchange; message: RegExp }[] = [
  { check: 'no-server-error', good: exchange('GET', GET, 404, { error: 'x' }), bad: exchange('GET', GET, 500, { error: 'x' }), message: /answered 500/ },
  { check: 'status-documented', good: exchange('GET', GET, 200, CALLER), bad: exchange('GET', GET, 418, { error: 'x' }), message: /418 is not documented/ },
  { check: 'content-type-json', good: exchange('GET', GET, 200, CALLER), bad: exchange('GET', GET, 200, undefined, { text: 'ok', headers: { 'content-type': 'text/plain' } }), message: /text\/plain/ },
  { check: 'response-schema', good: exchange('GET', GET, 200, { ...CALLER, extra: 1 }), bad: exchange('GET', GET, 200, { ...CALLER, active: 'yes' }), message: /\/active must be boolean/ },
  { check: 'response-schema-strict', good: exchange('GET', GET, 200, CALLER), bad: exchange('GET', GET, 200, { ...CALLER, extra: 1 }), message: /extra/ },
  { check: 'error-body', good: exchange('GET', GET, 404, { error: 'no', code: 'x' }), bad: exchange('GET', GET, 404, { message: 'no' }), message: /lacks a string "error"/ },
  { check: 'error-code', good: exchange('GET', GET, 404, { error: 'no', code: 'blocked_caller_not_found' }), bad: exchange('GET', GET, 404, { error: 'no', code: 'gone' }), message: /code gone is not documented/ },
  { check: 'list-envelope', good: exchange('GET', LIST, 200, envelope([], { page: 0, pageSize: 20, total: 0 })), bad: exchange('GET', LIST, 200, { data: [], total: 0 }), message: /not the list envelope/ },
  { check: 'paging-meta-echo', good: exchange('GET', `${LIST}?page=1&limit=5`, 200, envelope([], { page: 1, pageSize: 5, total: 5 })), bad: exchange('GET', `${LIST}?page_size=5`, 200, envelope([], { page: 0, pageSize: 20, total: 0 })), message: /5 was requested/ },
  { check: 'page-rows-match-total', good: exchange('GET', `${LIST}?page=1&pageSize=2`, 200, envelope([CALLER], { page: 1, pageSize: 2, total: 3 })), bad: exchange('GET', LIST, 200, envelope([CALLER], { page: 0, pageSize: 20, total: 2 })), message: /must have 2/ },
  { check: 'transfer-chain-order', good: exchange('GET', CALL, 200, TRANSFERRED), bad: exchange('GET', CALL, 200, { ...TRANSFERRED, transfers: [leg(2, 'busy'), COMPLETED_LEG] }), message: /sequences \[2, 1\], expected \[1, 2\]/ },
  { check: 'transfer-representative', good: exchange('GET', CALL, 200, TRANSFERRED), bad: exchange('GET', CALL, 200, { ...TRANSFERRED, transferTo: '01012340002', transferStatus: 'busy' }), message: /representative is leg 1 \(completed\), but transferTo/ },
  { check: 'transfer-billable-once', good: exchange('GET', CALL, 200, TRANSFERRED), bad: exchange('GET', CALL, 200, { ...TRANSFERRED, transfers: [COMPLETED_LEG, leg(2, 'busy', { billableDuration: 0 })] }), message: /leg 2 \(busy\) has billableDuration 0/ },
  { check: 'no-secret-echoed', good: exchange('GET', GET, 200, CALLER), bad: exchange('GET', GET, 200, CALLER, { headers: { 'x-debug': `Bearer ${KEY}` } }), message: /header contains a secret/ },
];

describe('checks', () => {
  it('every check is in the table', () => {
    expect(table.map((t) => t.check).sort()).toEqual(CHECKS.map((c) => c.id).sort());
  });
  for (const t of table) {
    it(`${t.check} passes a good exchange and fails a bad one`, () => {
      expect(verdict(check(t.check), t.good)).toBeUndefined();
      const message = verdict(check(t.check), t.bad);
      expect(message).toMatch(t.message);
      expect(message).not.toContain(KEY);
    });
  }

  it('schema failures count for the spec only on operations the spec shows', () => {
    expect(levelOf(check('response-schema'), exchange('GET', GET, 200, CALLER))).toBe('spec');
    expect(levelOf(check('response-schema'), exchange('GET', '/v1/accounts/AC1/numbers', 200, { data: [] }))).toBe('sim');
  });

  it('a 5xx the contract documents is not a failure', () => {
    expect(check('no-server-error').run(exchange('POST', '/v1/accounts/AC1/numbers', 503, { error: 'x', code: 'NUMBER_POOL_EMPTY' }))).toBeUndefined();
  });

  it('the control plane is not judged by API checks', () => {
    for (const c of CHECKS) expect(c.applies(exchange('GET', '/_sim/health', 500, { x: 1 })), c.id).toBe(false);
  });
});

describe('probes', () => {
  const ok = exchange('GET', GET, 200, CALLER);
  const ctx = { alt: { accountId: 'AC2', key: 'sk_test_other' }, invalidKey: 'sk_invalid' };
  const res = (status: number): WireResponse => ({ status, headers: {}, text: '', json: undefined, ms: 1 });

  it('plan follow-up requests only after successful reads', () => {
    expect(probe('auth-missing-key').plan(exchange('GET', GET, 404, { error: 'x' }), ctx)).toBeUndefined();
    expect(probe('auth-missing-key').plan(exchange('POST', LIST, 201, CALLER), ctx)).toBeUndefined();
  });

  it('missing key: no Authorization header, expects 401', () => {
    const p = probe('auth-missing-key').plan(ok, ctx)!;
    expect(Object.keys(p.request.headers).map((h) => h.toLowerCase())).not.toContain('authorization');
    expect(probe('auth-missing-key').verdict(p, res(401), ok)).toBeUndefined();
    expect(probe('auth-missing-key').verdict(p, res(200), ok)).toMatch(/got 200, expected 401/);
  });

  it('missing key on a signed recording link: asks for the bare path (signed links download without a key)', () => {
    const link = '/v1/accounts/AC1/recordings/CA1/verb/memo?expires=1772496014&signature=abc';
    const signed = exchange('GET', link, 200, undefined, { text: 'RIFF' });
    const p = probe('auth-missing-key').plan(signed, ctx)!;
    expect(p.request.path).toBe('/v1/accounts/AC1/recordings/CA1/verb/memo');
    expect(Object.keys(p.request.headers).map((h) => h.toLowerCase())).not.toContain('authorization');
    expect(probe('auth-missing-key').verdict(p, res(200), signed)).toMatch(/expected 401/);
  });

  it('invalid key, other account, other account\'s resource', () => {
    const invalid = probe('auth-invalid-key').plan(ok, ctx)!;
    expect(invalid.request.headers.authorization).toBe('Bearer sk_invalid');
    expect(probe('auth-invalid-key').verdict(invalid, res(403), ok)).toMatch(/expected 401/);
    const other = probe('auth-other-account').plan(ok, ctx)!;
    expect(other.request).toMatchObject({ path: GET, headers: { authorization: 'Bearer sk_test_other' } });
    expect(probe('auth-other-account').verdict(other, res(403), ok)).toBeUndefined();
    expect(probe('auth-other-account').verdict(other, res(404), ok)).toMatch(/expected 403/);
    const ns = probe('namespace-isolation').plan(ok, ctx)!;
    expect(ns.request.path).toBe('/v1/accounts/AC2/blocked-callers/bc_1');
    expect(probe('namespace-isolation').verdict(ns, res(404), ok)).toBeUndefined();
    expect(probe('namespace-isolation').verdict(ns, res(200), ok)).toMatch(/another account was served/);
    expect(probe('namespace-isolation').plan(exchange('GET', LIST, 200, envelope([], { page: 0, pageSize: 20, total: 0 })), ctx)).toBeUndefined();
    expect(probe('auth-other-account').plan(ok, { invalidKey: 'x' })).toBeUndefined();
    // A resource addressed by id and key alone (the account comes from the key): the other key on the same path.
    const byKey = exchange('GET', '/v2/verifications/VE1', 200, { verificationId: 'VE1' });
    expect(probe('namespace-isolation').plan(byKey, ctx)!.request).toMatchObject({ path: '/v2/verifications/VE1', headers: { authorization: 'Bearer sk_test_other' } });
    expect(probe('namespace-isolation').plan(exchange('GET', '/v2/verifications', 200, { data: [] }), ctx)).toBeUndefined();
  });

  it('use after delete: a 204 DELETE with a GET on the same path expects 404 there', () => {
    // A contract with a hard delete (the simulator has none yet): delete answers 204, get 200/404.
    const doc = structuredClone(contract.document) as any;
    const item = doc.paths['/v1/accounts/{accountId}/blocked-callers/{blockedCallerId}'];
    item.delete.responses = { 204: { description: 'gone' } };
    const c = new Contract(doc);
    const deleted = exchange('DELETE', GET, 204, undefined, { contract: c, text: '' });
    const p = probe('use-after-delete').plan(deleted, ctx)!;
    expect(p.request).toMatchObject({ method: 'GET', path: GET });
    expect(probe('use-after-delete').verdict(p, res(404), deleted)).toBeUndefined();
    expect(probe('use-after-delete').verdict(p, res(200), deleted)).toMatch(/expected 404/);
    // A release that answers 200 with the entry keeps it as history: no probe.
    expect(probe('use-after-delete').plan(exchange('DELETE', GET, 200, CALLER), ctx)).toBeUndefined();
  });
});

describe('secret redaction', () => {
  it('redacts strings and keys inside a value, never digits inside numbers', () => {
    const s = new SecretSet();
    s.add('482913'); // a one-time code saved as a secret
    s.add('sk_test_0123456789');
    const value = { durationMs: 1.4829131, body: 'your code is 482913', headers: { authorization: 'Bearer sk_test_0123456789' }, list: ['482913'], sk_test_0123456789: 1 };
    const out = s.redactValue(value);
    expect(out).toEqual({ durationMs: 1.4829131, body: 'your code is ***', headers: { authorization: 'Bearer ***' }, list: ['***'], '***': 1 });
    expect(JSON.stringify(out)).not.toContain('482913"');
  });
});
