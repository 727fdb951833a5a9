// `npm run schemas -- [--check|--write]`: the kit's file formats are described once, as TypeBox
// schemas in conformance/schema/; the published JSON Schema files (conformance/*.schema.json)
// and the key tables of the format references (docs/scenario-format.md, docs/target-file.md,
// docs/clauses.md) are generated from them. --check (default) exits 1 naming what is stale;
// --write regenerates. conformance/test/generated-formats.test.ts fails while one is stale.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { generatedFiles, REPO_ROOT, staleFiles } from '../conformance/schema/generate.ts';

interface Io {
  out: { write(s: string): unknown };
  err: { write(s: string): unknown };
}

export function main(argv: string[], io: Io, root = REPO_ROOT): number {
  if (argv.length > 1 || argv.some((a) => a !== '--check' && a !== '--write')) {
    io.err.write('usage: npm run schemas -- [--check|--write]\n');
    return 2;
  }
  if (argv[0] === '--write') {
    for (const f of generatedFiles(root)) writeFileSync(path.join(root, f.path), f.text);
    io.out.write(`wrote ${generatedFiles(root).map((f) => f.path).join(', ')}\n`);
    return 0;
  }
  const stale = staleFiles(root);
  io.out.write(stale.length ? `stale: ${stale.join(', ')}: run \`npm run schemas -- --write\`\n` : 'the generated format files are current\n');
  return stale.length ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    process.exitCode = main(process.argv.slice(2), { out: process.stdout, err: process.stderr });
  } catch (e) {
    process.stderr.write(`schemas: ${(e as Error).message}\n`);
    process.exitCode = 2;
  }
}
