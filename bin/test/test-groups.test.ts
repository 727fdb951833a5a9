// The quick group (`npm run test:quick`) stays in process: no test file outside
// WHOLE_SUITE_ONLY (vitest.config.ts), nor a test helper it imports, starts a child process or a
// browser. Every file of that list exists, so a renamed file cannot drop out of both groups'
// reasons unnoticed (docs/contributing.md, "Tests and their speed").
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { globSync } from 'tinyglobby';
import { describe, expect, it } from 'vitest';
import { WHOLE_SUITE_ONLY } from '../../vitest.config.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const ALL = globSync(['simulator/test/**/*.test.ts', 'conformance/test/**/*.test.ts', 'bin/test/**/*.test.ts'], { cwd: root }).sort();
/** What only the whole suite may do: child processes (servers, npm, linters) and browsers. */
const OUT_OF_PROCESS = /from ['"](node:)?child_process['"]|from ['"]playwright(-core)?['"]|\.\/chromium\.ts['"]/;

/** The file and the test helpers it imports (relative imports inside a test folder), transitively. */
function withHelpers(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const text = readFileSync(join(root, file), 'utf8');
  for (const m of text.matchAll(/from ['"](\.{1,2}\/[^'"]+\.ts)['"]/g)) {
    const target = relative(root, resolve(root, dirname(file), m[1]!));
    if (/(^|\/)test\//.test(target) && existsSync(join(root, target))) withHelpers(target, seen);
  }
  return seen;
}

describe('test groups', () => {
  it('every file the whole suite alone runs exists', () => {
    for (const f of WHOLE_SUITE_ONLY) expect(ALL, f).toContain(f);
  });

  it('no quick test file, nor a helper it imports, starts a process or a browser', () => {
    const offenders = ALL.filter((f) => !WHOLE_SUITE_ONLY.includes(f)).flatMap((f) =>
      [...withHelpers(f)].filter((h) => OUT_OF_PROCESS.test(readFileSync(join(root, h), 'utf8'))).map((h) => (h === f ? f : `${f} (through ${h})`)),
    );
    expect(offenders, 'move these to WHOLE_SUITE_ONLY in vitest.config.ts, or keep them in process').toEqual([]);
  });

  it('the whole list does start processes or browsers, or runs the whole kit many times', () => {
    const wholeKitRuns = ['conformance/test/wrong-server.test.ts', 'conformance/test/repeatable.test.ts', 'conformance/test/repeatable-http.test.ts'];
    for (const f of WHOLE_SUITE_ONLY.filter((f) => !wholeKitRuns.includes(f))) {
      expect([...withHelpers(f)].some((h) => OUT_OF_PROCESS.test(readFileSync(join(root, h), 'utf8'))), f).toBe(true);
    }
  });
});
