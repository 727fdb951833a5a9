// The contract travels with the kit: the kit reads operations, paths and schemas from
// conformance/contract.json, with a target's own path mapping. That the file is current is
// checked on the simulator's side (bin/test/contract.test.ts).
import { describe, expect, it } from 'vitest';
import { contract } from './helpers.ts';

describe('the contract', () => {
  it('knows every operation with its auth, origin and paging', () => {
    const list = contract.operation('listBlockedCallers')!;
    expect(list).toMatchObject({ method: 'GET', auth: 'account', origin: 'spec', pathParams: ['accountId'] });
    expect(list.paging).toEqual({ firstPage: 0, defaultPageSize: 20, maxPageSize: 100, aliases: ['page_size', 'limit'] });
    expect(contract.operation('listNumbers')!.paging).toBeUndefined();
    expect(contract.operation('simHealth')!.auth).toBe('control');
    expect(contract.operation('getOpenApiDocument')!.auth).toBe('none');
  });

  it('matches concrete paths, static segments first', () => {
    expect(contract.match('GET', '/v1/accounts/AC1/blocked-callers/bc_1?x=1')).toMatchObject({ op: { operationId: 'getBlockedCaller' }, params: { accountId: 'AC1', blockedCallerId: 'bc_1' } });
    expect(contract.match('POST', '/_sim/accounts/AC1/blocked-callers')?.op.operationId).toBe('simIntakeBlockedCaller');
    expect(contract.match('PUT', '/v1/accounts/AC1/blocked-callers')).toBeUndefined();
  });

  it('applies a target\'s path mapping and refuses to map an unknown operation', () => {
    const mapped = contract.withOverrides({ listBlockedCallers: { path: '/v1/accounts/{accountId}/caller-blocks' }, createBlockedCaller: { unsupported: true } });
    expect(mapped.match('GET', '/v1/accounts/AC1/caller-blocks')?.op.operationId).toBe('listBlockedCallers');
    expect(mapped.isUnsupported(mapped.operation('createBlockedCaller')!)).toBe(true);
    expect(() => contract.withOverrides({ listBlockedCalers: { path: '/x' } })).toThrow(/does not have/);
  });

  it('validates bodies strictly or leniently', () => {
    const op = contract.operation('getBlockedCaller')!;
    const body = { id: 'x', number: '010', active: true, source: 'api', note: null, createdBy: null, createdAt: '2026-03-02T00:00:00Z', updatedAt: '2026-03-02T00:00:00Z', unblockedAt: null, unblockedSource: null, unblockedBy: null, unblockedNote: null };
    expect(contract.responseProblems(op, 200, body, 'strict')).toEqual([]);
    expect(contract.responseProblems(op, 200, { ...body, extra: 1 }, 'lenient')).toEqual([]);
    expect(contract.responseProblems(op, 200, { ...body, extra: 1 }, 'strict')).toEqual([{ path: '', message: expect.stringMatching(/additional properties \(extra\)/) }]);
    expect(contract.responseProblems(op, 200, { ...body, createdAt: 'yesterday' }, 'lenient')![0]!.path).toBe('/createdAt');
  });
});
