// Interpolation: typed whole values, text, filters, generators, and clear reasons when a name
// cannot be resolved (the runner skips such steps with that reason).
import { describe, expect, it } from 'vitest';
import { Scope, SeededRandom, selectFromResponse, Unavailable, UnresolvedError } from '../scenario/interpolate.ts';

function scope(seed = 1) {
  const s = new Scope(new SeededRandom(seed));
  s.set('n', '01012345678');
  s.set('seoul', '0212345678');
  s.set('main', { accountId: 'AC1', key: 'sk_x' });
  s.set('page', { data: [{ id: 'a' }, { id: 'b' }], meta: { total: 2 } });
  s.set('alt', new Unavailable('no second account'));
  return s;
}

describe('interpolation', () => {
  it('keeps the type of a whole-string expression and writes text inside strings', () => {
    const s = scope();
    expect(s.resolve('{{ page.meta.total }}')).toBe(2);
    expect(s.resolve('{{ page }}')).toEqual({ data: [{ id: 'a' }, { id: 'b' }], meta: { total: 2 } });
    expect(s.resolve('/v1/accounts/{{ main.accountId }}/x?n={{ page.meta.total }}')).toBe('/v1/accounts/AC1/x?n=2');
    expect(s.resolve({ a: ['{{ n }}'], '{{ n }}': 1 })).toEqual({ a: ['01012345678'], '01012345678': 1 });
    expect(s.resolve('{{ page.data[1].id }}')).toBe('b');
  });

  it('respells phone numbers', () => {
    const s = scope();
    expect(s.resolve('{{ n | hyphens }}')).toBe('010-1234-5678');
    expect(s.resolve('{{ n | intl }}')).toBe('+82 10-1234-5678');
    expect(s.resolve('{{ n | e164 }}')).toBe('+821012345678');
    expect(s.resolve('{{ n | spaced }}')).toBe('010 1234 5678');
    expect(s.resolve('{{ seoul | hyphens }}')).toBe('02-1234-5678');
    expect(s.resolve('{{ seoul | intl }}')).toBe('+82 2-1234-5678');
    expect(s.resolve('{{ page.data | pluck(id) }}')).toEqual(['a', 'b']);
    expect(s.resolve('{{ page | json }}')).toBe('{"data":[{"id":"a"},{"id":"b"}],"meta":{"total":2}}');
    expect(s.resolve('{{ seoul | repeat(2) }}')).toBe('02123456780212345678');
    expect(s.resolve('x{{ page.meta.total | repeat(0) }}y')).toBe('xy');
    expect(() => s.resolve('{{ n | repeat(-1) }}')).toThrow(/repeat needs a count/);
    expect(s.resolve('{{ n | repeat(3) | length }}')).toBe(33);
    expect(s.resolve('{{ page | json | length }}')).toBe(51);
  });

  it('generates fresh values from the seed: same seed, same values; new value each use', () => {
    const a = scope(7);
    const b = scope(7);
    const first = a.resolve('{{ fresh.mobile }}');
    expect(first).toMatch(/^0109\d{7}$/);
    expect(b.resolve('{{ fresh.mobile }}')).toBe(first);
    expect(a.resolve('{{ fresh.mobile }}')).not.toBe(first);
    expect(scope(8).resolve('{{ fresh.mobile }}')).not.toBe(first);
    expect(a.resolve('{{ fresh.seoul }}')).toMatch(/^02\d{8}$/);
  });

  it('says why a name cannot be resolved', () => {
    const s = scope();
    expect(() => s.resolve('{{ nope }}')).toThrow(UnresolvedError);
    expect(() => s.resolve('{{ nope }}')).toThrow(/"nope" is not set/);
    expect(() => s.resolve('{{ alt.key }}')).toThrow(/no second account/);
    expect(() => s.resolve('{{ main.secret }}')).toThrow(/does not exist/);
    expect(() => s.resolve('{{ n | shout }}')).toThrow(/unknown filter/);
    expect(() => s.resolve('{{ fresh.planet }}')).toThrow(/unknown generator/);
  });

  it('selects from responses', () => {
    const res = { status: 201, headers: { location: '/x' }, json: { data: [{ id: 'a' }] } };
    expect(selectFromResponse(res, 'status')).toEqual({ found: true, value: 201 });
    expect(selectFromResponse(res, 'headers.Location')).toEqual({ found: true, value: '/x' });
    expect(selectFromResponse(res, 'body.data[0].id')).toEqual({ found: true, value: 'a' });
    expect(selectFromResponse(res, 'body.data[1].id')).toEqual({ found: false });
    expect(selectFromResponse(res, 'body')).toEqual({ found: true, value: res.json });
  });
});
