import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { parseFixture, FixtureError, DEFAULT_FIXTURE_PATH } from '../fixtures.ts';
import { createSimulator } from '../index.ts';

const base = readFileSync(DEFAULT_FIXTURE_PATH, 'utf8');

function errorOf(text: string): string {
  try {
    parseFixture(text, 'f.yaml');
  } catch (e) {
    expect(e).toBeInstanceOf(FixtureError);
    return (e as Error).message;
  }
  throw new Error('expected the fixture to be refused');
}

describe('fixture', () => {
  it('the default fixture has two accounts: one Business with the managed-number add-on, one without', () => {
    const f = parseFixture(base, 'default');
    expect(f.accounts.length).toBeGreaterThanOrEqual(2);
    const business = f.accounts.find((a) => a.plan === 'business' && a.addons?.includes('external_assignment'));
    const other = f.accounts.find((a) => !a.addons?.includes('external_assignment'));
    expect(business).toBeDefined();
    expect(other).toBeDefined();
    for (const a of f.accounts) {
      expect(a.apiKeys.length).toBeGreaterThan(0);
      expect(a.numbers?.length).toBeGreaterThan(0);
      expect(a.subscription.startedAt).toMatch(/Z$/);
    }
  });

  const cases: [string, (t: string) => string, RegExp][] = [
    ['unknown plan', (t) => t.replace('plan: starter', 'plan: gold'), /^f\.yaml:\d+: accounts\[1\]\.plan: no plan named "gold"/],
    ['bad start instant', (t) => t.replace('start: "2026-03-02T00:00:00Z"', 'start: "March"'), /^f\.yaml:\d+: clock\.start: /],
    ['missing apiKeys', (t) => t.replace('    apiKeys: [sk_test_bistro_9a8b7c6d5e4f3a2b]\n', ''), /accounts\[1\]\.apiKeys: is required/],
    ['unknown field', (t) => t.replace('    plan: starter', '    plan: starter\n    colour: red'), /accounts\[1\]\.colour: is not a known field/],
    ['bad number', (t) => t.replace('"07012349001"', '"12345"'), /accounts\[1\]\.numbers\[0\]: number "12345" is not a valid domestic phone number/],
    ['number owned twice', (t) => t.replace('"07012349001"', '"070-1234-0001"'), /accounts\[1\]\.numbers\[0\]: number 07012340001 is already owned by AC1a2b3c4d/],
    ['key shared', (t) => t.replace('sk_test_bistro_9a8b7c6d5e4f3a2b', 'sk_test_acme_4f9c2b7e1d3a5c8f'), /accounts\[1\]\.apiKeys\[0\]: API key already belongs to AC1a2b3c4d/],
    ['duplicate account', (t) => t.replace('AC5e6f7a8b', 'AC1a2b3c4d'), /accounts\[1\]\.accountId: account AC1a2b3c4d is defined twice/],
    ['unknown add-on', (t) => t.replace('addons: []', 'addons: [teleport]'), /accounts\[1\]\.addons\[0\]: must be one of/],
    ['over the line limit', (t) => t.replace('lineLimit: 3', 'lineLimit: 0'), /accounts\[1\]\.numbers: 1 numbers exceed the plan's lineLimit of 0/],
    ['not YAML', () => 'accounts: [\n  - x: 1\n', /^f\.yaml(:\d+)?: not valid YAML/],
  ];
  for (const [name, edit, re] of cases) {
    it(`refuses ${name}, naming the field and line`, () => {
      expect(errorOf(edit(base))).toMatch(re);
    });
  }

  it('names the line of the offending field', () => {
    const msg = errorOf(base.replace('plan: starter', 'plan: gold'));
    const line = Number(/^f\.yaml:(\d+):/.exec(msg)![1]);
    expect(base.split('\n')[line - 1]).toContain('plan: starter');
  });

  it('createSimulator takes a fixture as YAML text or an object, validated the same way', () => {
    const sim = createSimulator({ fixture: { yaml: base } });
    expect(sim.fixture.accounts[0]!.accountId).toBe('AC1a2b3c4d');
    const obj = structuredClone(sim.fixture);
    obj.accounts[0]!.plan = 'nope';
    expect(() => createSimulator({ fixture: obj })).toThrow(FixtureError);
  });
});
