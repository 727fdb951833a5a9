// What bin/test/package.test.ts needs to run the README's "From another project" block as a
// customer types it: the block's commands, a free port for the one that serves, and a shell in
// the customer's project that reports a command's exit code and output instead of throwing.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The commands of the README's block, one per line, without their comments. */
export function readmeCommands(root: string): string[] {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const block = /<!-- from-another-project[^>]*-->\n```sh\n([\s\S]*?)```/.exec(readme)?.[1];
  if (!block) throw new Error('README.md lacks the "from-another-project" block');
  return block.split('\n').map((l) => l.replace(/\s+#.*$/, '').trim()).filter(Boolean);
}

export async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface ShellResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs commands through bash in `cwd`, as typed; each resolves with its exit code and output. */
export function shellIn(cwd: string, env: NodeJS.ProcessEnv): (command: string) => Promise<ShellResult> {
  return async (command) => {
    try {
      const r = await run('bash', ['-c', command], { cwd, env, maxBuffer: 16 * 1024 * 1024 });
      return { code: 0, stdout: r.stdout, stderr: r.stderr };
    } catch (e) {
      const err = e as { code?: number; stdout?: string; stderr?: string };
      return { code: typeof err.code === 'number' ? err.code : 1, stdout: err.stdout ?? '', stderr: err.stderr ?? '' };
    }
  };
}
