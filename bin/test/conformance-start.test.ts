// bin/conformance-start.mjs: `npm run conformance` runs the kit from its bundle (bin/fast-start.cjs).
// In the bundle each module keeps its own import.meta.url, so the kit still finds the contract,
// the clause catalogue and the scenarios beside its modules; usage lines name the command typed.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const kit = (...args: string[]) => spawnSync(process.execPath, ['bin/conformance-start.mjs', ...args], { cwd: root, encoding: 'utf8', env: { ...process.env, npm_lifecycle_event: '' } });

describe('the kit from its bundle', () => {
  it('loads every scenario, the contract and the clauses from their places, and runs a scenario', () => {
    const validated = kit('validate');
    expect(validated.stderr).toBe('');
    expect(validated.status).toBe(0);
    expect(validated.stdout).toMatch(/^\d{3} scenario\(s\) load without problems/m);
    expect(existsSync(path.join(root, 'dist', 'conformance.cjs'))).toBe(true);

    const ran = kit('run', 'scenarios/conventions/head.yaml');
    expect(ran.status).toBe(0);
    expect(ran.stdout).toMatch(/^✓ conventions\/head /m);
    expect(ran.stdout).toMatch(/units:\s+1 passed, 0 failed, 0 skipped/);
  });

  it('names the command the user typed in its usage line', () => {
    const bad = kit('run', '--no-such-option');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/node bin\/conformance-start\.mjs --help/);
  });
});
