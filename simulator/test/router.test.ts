import { describe, expect, it } from 'vitest';
import { Router } from '../core/router.ts';

describe('Router', () => {
  const r = new Router<string>();
  const routes: [string, string, string][] = [
    ['GET', '/v1/accounts/{accountId}/numbers', 'listNumbers'],
    ['POST', '/v1/accounts/{accountId}/numbers', 'registerNumber'],
    ['PUT', '/v1/accounts/{accountId}/numbers/{number}', 'updateNumber'],
    ['DELETE', '/v1/accounts/{accountId}/numbers/{number}', 'deleteNumber'],
    ['GET', '/v1/accounts/{accountId}/blocked-callers/{blockedCallerId}', 'getBlockedCaller'],
    ['GET', '/v1/accounts/{accountId}/blocked-callers/export', 'staticBeatsParam'],
    ['GET', '/v2/verifications', 'listVerifications'],
    ['GET', '/_sim/health', 'health'],
    ['GET', '/', 'root'],
  ];
  for (const [m, p, v] of routes) r.add(m, p, v);

  const table: { method: string; path: string; expect: ReturnType<Router<string>['match']> }[] = [
    { method: 'GET', path: '/v1/accounts/AC1/numbers', expect: { kind: 'found', value: 'listNumbers', params: { accountId: 'AC1' } } },
    { method: 'POST', path: '/v1/accounts/AC1/numbers', expect: { kind: 'found', value: 'registerNumber', params: { accountId: 'AC1' } } },
    { method: 'GET', path: '/v1/accounts/AC1/numbers/', expect: { kind: 'found', value: 'listNumbers', params: { accountId: 'AC1' } } },
    { method: 'PUT', path: '/v1/accounts/AC1/numbers/010-1234-5678', expect: { kind: 'found', value: 'updateNumber', params: { accountId: 'AC1', number: '010-1234-5678' } } },
    { method: 'PUT', path: '/v1/accounts/AC1/numbers/%2B82%2010', expect: { kind: 'found', value: 'updateNumber', params: { accountId: 'AC1', number: '+82 10' } } },
    { method: 'PATCH', path: '/v1/accounts/AC1/numbers/0101', expect: { kind: 'method-not-allowed', allowed: ['DELETE', 'PUT'] } },
    { method: 'GET', path: '/v1/accounts/AC1/blocked-callers/export', expect: { kind: 'found', value: 'staticBeatsParam', params: { accountId: 'AC1' } } },
    { method: 'GET', path: '/v1/accounts/AC1/blocked-callers/bc_1', expect: { kind: 'found', value: 'getBlockedCaller', params: { accountId: 'AC1', blockedCallerId: 'bc_1' } } },
    { method: 'GET', path: '/v2/verifications', expect: { kind: 'found', value: 'listVerifications', params: {} } },
    { method: 'GET', path: '/', expect: { kind: 'found', value: 'root', params: {} } },
    { method: 'GET', path: '/v1/accounts/AC1', expect: { kind: 'not-found' } },
    { method: 'GET', path: '/v1/accounts//numbers', expect: { kind: 'not-found' } },
    { method: 'GET', path: '/v1/accounts/AC1/numbers/extra/deep', expect: { kind: 'not-found' } },
    { method: 'GET', path: '/nope', expect: { kind: 'not-found' } },
    { method: 'GET', path: '/v1/accounts/%E0%A4%A/numbers', expect: { kind: 'bad-path', reason: 'the path has a malformed percent-encoding' } },
  ];
  for (const row of table) {
    it(`${row.method} ${row.path}`, () => {
      expect(r.match(row.method, row.path)).toEqual(row.expect);
    });
  }

  it('refuses duplicate routes and conflicting parameter names', () => {
    const x = new Router<string>();
    x.add('GET', '/a/{id}', 'one');
    expect(() => x.add('GET', '/a/{id}', 'two')).toThrow(/duplicate route/);
    expect(() => x.add('POST', '/a/{other}', 'three')).toThrow(/conflicting parameter names/);
    expect(() => x.add('GET', 'a', 'bad')).toThrow(/must start/);
  });
});
