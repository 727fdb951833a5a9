// `npm run fixtures:parse -- [--check|--write]`: fixtures/default.yaml.parsed.json, the default
// fixture's YAML parsed ahead of time (simulator/fixture/parsed-cache.ts), which spares the first
// createSimulator() of a process the YAML parse. Generated from the YAML and committed;
// bin/test/fixtures-parse.test.ts fails while it is stale (a stale file is ignored at run time).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseDocument } from 'yaml';
import { DEFAULT_FIXTURE_PATH } from '../simulator/fixture/load.ts';
import { parsedCacheFor, parsedCachePath } from '../simulator/fixture/parsed-cache.ts';
import { schemaErrorsOnce } from '../simulator/core/schema.ts';
import { registry } from '../simulator/registry.ts';

/** The parsed-form file's text exactly as it should be committed for the YAML at `yamlPath`. */
export function parsedCacheText(yamlPath = DEFAULT_FIXTURE_PATH): string {
  const text = readFileSync(yamlPath, 'utf8');
  const doc = parseDocument(text, { prettyErrors: false });
  if (doc.errors.length > 0) throw new Error(`${yamlPath}: not valid YAML: ${doc.errors[0]!.message.split('\n')[0]}`);
  const data: unknown = doc.toJS();
  // Recorded when the data passes the fixture schema, so the loader need not check it again.
  const schema = registry().fixtureSchema;
  const passes = schemaErrorsOnce(schema, data).length === 0;
  return `${JSON.stringify(parsedCacheFor(text, data, passes ? schema : undefined), null, 2)}\n`;
}

interface Io {
  out: { write(s: string): unknown };
  err: { write(s: string): unknown };
}

/** The command: --check (default) exits 0 when current, 1 when stale or missing; --write regenerates. */
export function main(argv: string[], io: Io, yamlPath = DEFAULT_FIXTURE_PATH): number {
  const file = parsedCachePath(yamlPath);
  const shown = path.relative(process.cwd(), file);
  if (argv.length > 1 || argv.some((a) => a !== '--check' && a !== '--write')) {
    io.err.write('usage: npm run fixtures:parse -- [--check|--write]\n');
    return 2;
  }
  const expected = parsedCacheText(yamlPath);
  if (argv[0] === '--write') {
    writeFileSync(file, expected);
    io.out.write(`wrote ${shown}\n`);
    return 0;
  }
  let committed: string | undefined;
  try {
    committed = readFileSync(file, 'utf8');
  } catch {
    /* missing: stale */
  }
  const current = committed === expected;
  io.out.write(current ? `${shown} is current\n` : `${shown} is stale: run \`npm run fixtures:parse -- --write\`\n`);
  return current ? 0 : 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = main(process.argv.slice(2), { out: process.stdout, err: process.stderr });
}
