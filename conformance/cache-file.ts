// Writing a file of the kit's caches under node_modules/.cache (parsed YAML, compiled
// validators): written beside its place, then renamed onto it, so a reader in another process
// (test workers, parallel kit runs) finds it whole or not at all.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Writes `data` to `file` whole (its folder made when missing); throws on a read-only or full disk. */
export function writeCacheFile(file: string, data: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, data);
  renameSync(tmp, file);
}
