// Fixtures as this simulator reads them: the generic loader (fixture/load.ts) with the rules of
// the list, the schema from every entry's sections and per-account fields, and every entry's
// checks and normalisers in list order (registry.ts). The entry point and the tests load here.
import { registry } from './registry.ts';
import * as loader from './fixture/load.ts';
import type { Fixture } from './fixture/schema.ts';

export { FixtureError, DEFAULT_FIXTURE_PATH } from './fixture/load.ts';

let rules: loader.FixtureRules | undefined;

function houseRules(): loader.FixtureRules {
  return (rules ??= { schema: registry().fixtureSchema, parts: registry().fixtureParts });
}

/** Reads, validates and normalises a fixture file (cached per path; each call gets its own copy). */
export function loadFixtureFile(path: string): Fixture {
  return loader.loadFixtureFile(houseRules(), path);
}

/** Parses, validates and normalises fixture YAML text; `source` names it in errors. */
export function parseFixture(text: string, source = 'fixture'): Fixture {
  return loader.parseFixture(houseRules(), text, source);
}
