// The bench's child processes: servers spawned from the repository's root, the URL or port they
// print when listening, their stop, and their CPU time so far (Linux /proc).
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('..', import.meta.url));

/** The URL a simulator prints ("listening on http://..."), or a rejection if it exits first. */
export function listeningUrl(child: ChildProcess, what: string): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.on('exit', (code) => reject(new Error(`${what} exited with ${code}`)));
  });
}

/** A server on loopback: the simulator ("listening on") or the bare one ("READY port"). */
export function startServer(cmd: string, args: string[]): Promise<{ child: ChildProcess; port: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /READY (\d+)|listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
      if (m) resolve({ child, port: Number(m[1] ?? m[2]) });
    });
    child.on('exit', (code) => reject(new Error(`${cmd} exited with ${code}`)));
  });
}

/** Stops a child with `signal` and waits for it to exit. */
export function stop(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  return new Promise((resolve) => {
    child.removeAllListeners('exit');
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}

/** CPU time a process has used so far (Linux /proc: user + system clock ticks, 100 per second). */
export function processCpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
