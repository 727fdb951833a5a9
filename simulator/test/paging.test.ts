import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parsePaging, pageOf } from '../core/paging.ts';
import { ApiError } from '../core/errors.ts';
import { harness } from './helpers.ts';

describe('parsePaging', () => {
  it('defaults to page 0 and pageSize 20', () => {
    expect(parsePaging({})).toEqual({ page: 0, pageSize: 20 });
  });
  it('accepts the deprecated aliases', () => {
    expect(parsePaging({ page_size: 7 })).toEqual({ page: 0, pageSize: 7 });
    expect(parsePaging({ limit: 9, page: 2 })).toEqual({ page: 2, pageSize: 9 });
    expect(parsePaging({ pageSize: 5, limit: 5 })).toEqual({ page: 0, pageSize: 5 });
  });
  it('refuses disagreeing aliases, out-of-range sizes and negative pages', () => {
    for (const q of [{ pageSize: 5, limit: 6 }, { pageSize: 0 }, { pageSize: 101 }, { limit: -1 }, { page: -1 }]) {
      expect(() => parsePaging(q), JSON.stringify(q)).toThrow(ApiError);
    }
  });
  it('pages are disjoint and cover every row (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer(), { maxLength: 300 }), fc.integer({ min: 1, max: 100 }), (rows, size) => {
        const seen: number[] = [];
        for (let page = 0; ; page++) {
          const p = pageOf(rows, { page, pageSize: size });
          expect(p.meta.total).toBe(rows.length);
          seen.push(...p.data);
          if ((page + 1) * size >= p.meta.total) break; // the SDK's last-page rule
        }
        expect(seen).toEqual(rows);
      }),
    );
  });
});

describe('paging over HTTP', () => {
  it('query values are checked: non-integers and repeats are 400, the envelope echoes the paging', async () => {
    const h = harness();
    for (let i = 0; i < 45; i++) await h.call('POST', h.acme('/blocked-callers'), { number: `010-2000-${String(i).padStart(4, '0')}` });
    const page2 = await h.call('GET', h.acme('/blocked-callers?page=2&pageSize=20'));
    expect(page2.json.meta).toEqual({ page: 2, pageSize: 20, total: 46 });
    expect(page2.json.data).toHaveLength(6);
    const beyond = await h.call('GET', h.acme('/blocked-callers?page=9'));
    expect(beyond.json.data).toEqual([]);
    expect(beyond.json.meta.total).toBe(46);
    const alias = await h.call('GET', h.acme('/blocked-callers?limit=10&page=1'));
    const canonical = await h.call('GET', h.acme('/blocked-callers?pageSize=10&page=1'));
    expect(alias.json).toEqual(canonical.json);
    expect((await h.call('GET', h.acme('/blocked-callers?page_size=10&page=1'))).json).toEqual(canonical.json);
    for (const q of ['pageSize=abc', 'pageSize=1.5', 'page=x', 'pageSize=', 'pageSize=101', 'pageSize=0', 'page=-1', 'page=1&page=2', 'pageSize=10&limit=20']) {
      const r = await h.call('GET', h.acme(`/blocked-callers?${q}`));
      expect(r.status, q).toBe(400);
      expect(r.json.code, q).toBe('VALIDATION');
      expect(r.json.error, q).toMatch(/page/);
    }
  });
});
