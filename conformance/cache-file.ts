// The kit's caches under node_modules/.cache/platform-conformance (parsed YAML, compiled
// validators): where they live, the hash that keys their entries, and writing a file of them
// beside its place, then renamed onto it, so a reader in another process (test workers,
// parallel kit runs) finds it whole or not at all.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * `name` in the kit's cache folder under the working directory's node_modules (where a project
 * keeps such caches); undefined without a node_modules there, or with CONFORMANCE_CACHE=off.
 */
export function kitCachePath(name: string): string | undefined {
  if (process.env.CONFORMANCE_CACHE === 'off') return undefined;
  const modules = path.join(process.cwd(), 'node_modules');
  return existsSync(modules) ? path.join(modules, '.cache', 'platform-conformance', name) : undefined;
}

/** The hash of a text, for cache keys. */
export const textHash = (text: string) => createHash('sha256').update(text).digest('base64url');

/** Writes `data` to `file` whole (its folder made when missing); throws on a read-only or full disk. */
export function writeCacheFile(file: string, data: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, data);
  renameSync(tmp, file);
}
