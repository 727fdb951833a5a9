// fixtures/default.yaml.parsed.json (the default fixture's YAML parsed ahead of time) is
// generated and committed: it must match the YAML as it is now, the command says so, and the
// loader uses such a file only when it was made from exactly the YAML beside it.
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { main, parsedCacheText } from '../fixtures-parse.ts';
import { DEFAULT_FIXTURE_PATH, loadFixtureFile, parseFixture } from '../../simulator/fixtures.ts';
import { parsedCacheFor, parsedCachePath, readParsedCache } from '../../simulator/fixture/parsed-cache.ts';
import { registry } from '../../simulator/registry.ts';
import { Kind } from '@sinclair/typebox';

function io() {
  let out = '';
  return { io: { out: { write: (s: string) => (out += s) }, err: { write: () => true } }, out: () => out };
}

/** A copy of the default fixture in a fresh folder, with `cache` (text) beside it when given. */
function copyOfDefault(cache?: (committed: { yaml: string; data: Record<string, unknown> }) => unknown): string {
  const yaml = path.join(mkdtempSync(path.join(os.tmpdir(), 'fixture-parsed-')), 'default.yaml');
  copyFileSync(DEFAULT_FIXTURE_PATH, yaml);
  if (cache) writeFileSync(parsedCachePath(yaml), JSON.stringify(cache(JSON.parse(parsedCacheText()))));
  return yaml;
}

describe('npm run fixtures:parse', () => {
  it('the committed parsed form is current: regenerate with `npm run fixtures:parse -- --write` after editing the YAML', () => {
    expect(readFileSync(parsedCachePath(DEFAULT_FIXTURE_PATH), 'utf8')).toBe(parsedCacheText());
    const a = io();
    expect(main(['--check'], a.io)).toBe(0);
    expect(a.out()).toMatch(/default\.yaml\.parsed\.json is current\n$/);
  });

  it('notices a missing or stale file, and --write makes it current', () => {
    const yaml = copyOfDefault();
    expect(main([], io().io, yaml)).toBe(1);
    expect(main(['--write'], io().io, yaml)).toBe(0);
    expect(main([], io().io, yaml)).toBe(0);
    writeFileSync(yaml, `${readFileSync(yaml, 'utf8')}\n# edited\n`);
    const a = io();
    expect(main([], a.io, yaml)).toBe(1);
    expect(a.out()).toMatch(/is stale: run `npm run fixtures:parse -- --write`/);
    expect(main(['--bogus'], io().io, yaml)).toBe(2);
  });
});

describe('the loader and the parsed form', () => {
  it('gives the default fixture exactly as parsing its YAML does', () => {
    expect(loadFixtureFile(DEFAULT_FIXTURE_PATH)).toEqual(parseFixture(readFileSync(DEFAULT_FIXTURE_PATH, 'utf8'), DEFAULT_FIXTURE_PATH));
  });

  it('uses a parsed form made from the same text', () => {
    const yaml = copyOfDefault((c) => ({ ...c, data: { ...c.data, description: 'from the parsed form' } }));
    expect(loadFixtureFile(yaml).description).toBe('from the parsed form');
  });

  it('ignores one made from other text, and parses the YAML', () => {
    const yaml = copyOfDefault((c) => ({ ...c, yaml: `${c.yaml}# another text\n`, data: { ...c.data, description: 'stale' } }));
    expect(loadFixtureFile(yaml)).toEqual(loadFixtureFile(DEFAULT_FIXTURE_PATH));
  });

  it('parses the YAML when the parsed form breaks a rule, so an error would name its line', () => {
    const yaml = copyOfDefault((c) => ({ ...c, data: { ...c.data, accounts: 'not a list' } }));
    expect(loadFixtureFile(yaml)).toEqual(loadFixtureFile(DEFAULT_FIXTURE_PATH));
    const broken = copyOfDefault();
    const text = readFileSync(broken, 'utf8').replace(/^accounts:/m, 'accounts: 3\nx:');
    writeFileSync(broken, text);
    writeFileSync(parsedCachePath(broken), JSON.stringify(parsedCacheFor(text, { accounts: 3 })));
    expect(() => loadFixtureFile(broken)).toThrow(/default\.yaml:28: x: is not a known field/);
  });

  it('records that the default fixture passed the schema, which the loader then skips while schema and data are the same', () => {
    const text = readFileSync(DEFAULT_FIXTURE_PATH, 'utf8');
    const schema = registry().fixtureSchema;
    expect(readParsedCache(DEFAULT_FIXTURE_PATH, text, schema)?.schemaPassed).toBe(true);
    // Another schema (here one field's limit; or only a node's kind, with the same JSON) is checked again.
    expect(readParsedCache(DEFAULT_FIXTURE_PATH, text, { ...schema, maxProperties: 99 })?.schemaPassed).toBe(false);
    const kindOnly = { ...schema, [Kind]: 'Unknown' } as unknown as typeof schema;
    expect(JSON.stringify(kindOnly)).toBe(JSON.stringify(schema));
    expect(readParsedCache(DEFAULT_FIXTURE_PATH, text, kindOnly)?.schemaPassed).toBe(false);
    // Other data under the same record: checked again, and refused data leaves the parsed form unused.
    const yaml = copyOfDefault((c) => ({ ...c, data: { ...c.data, clock: { start: 3 } } }));
    expect(readParsedCache(yaml, readFileSync(yaml, 'utf8'), schema)?.schemaPassed).toBe(false);
    expect(loadFixtureFile(yaml)).toEqual(loadFixtureFile(DEFAULT_FIXTURE_PATH));
  });

  it('ignores an unreadable one', () => {
    const yaml = copyOfDefault();
    writeFileSync(parsedCachePath(yaml), '{ not json');
    expect(loadFixtureFile(yaml)).toEqual(loadFixtureFile(DEFAULT_FIXTURE_PATH));
  });
});
