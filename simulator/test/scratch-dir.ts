// vitest's global setup: one scratch folder for the whole run. TMPDIR (TMP and TEMP on Windows)
// points into it before the workers start, so every os.tmpdir() of a test file, and of the
// processes it spawns (npm, the bins, Chromium), lands there; it is removed when the run ends,
// whatever the tests left behind.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const NAMES = ['TMPDIR', 'TMP', 'TEMP'] as const;
/** Set while a scratch folder is in place: each project runs the global setup, the first one makes it. */
const MARK = 'PLATFORM_SIMULATOR_TEST_SCRATCH';

export default function setup(): () => void {
  if (process.env[MARK]) return () => {};
  const scratch = mkdtempSync(join(tmpdir(), 'platform-simulator-tests-'));
  const before = NAMES.map((n) => process.env[n]);
  for (const n of NAMES) process.env[n] = scratch;
  process.env[MARK] = scratch;
  return () => {
    NAMES.forEach((n, i) => {
      if (before[i] === undefined) delete process.env[n];
      else process.env[n] = before[i];
    });
    delete process.env[MARK];
    rmSync(scratch, { recursive: true, force: true });
  };
}
