// The state dir on disk (docs/decisions.md "Durable state"): generations of a snapshot file and
// the journal written after it, and a lock naming the process that uses the dir.
//
//   snapshot-000003.json   line 1: the format, and the length and SHA-256 of the rest; line 2: a
//                          header (generation, fixture, seed, settings); line 3: the state
//                          (what GET /_sim/state answers)
//   journal-000003.ndjson  the entries since that snapshot (entries.ts), one per line
//   LOCK                   the pid of the process using the dir
//
// A snapshot is written to a temporary file, synced, then renamed, so a snapshot file that exists
// is whole; a damaged one (bad header, wrong length or checksum, state the simulator refuses)
// stops the start with a StateDirError naming the file, never a silent empty state.
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from '../core/node-crypto.ts';
import path from 'node:path';
import type { Fixture } from '../fixture/schema.ts';
import { settingsProblem, type LiveSettings } from './settings.ts';

export const STATE_DIR_FORMAT = 'platform-simulator-state-dir';
export const STATE_DIR_VERSION = 1;

/** Refusal to start on a state dir: the message says which file and what to do. */
export class StateDirError extends Error {
  override name = 'StateDirError';
}

/** Line 1 of a snapshot file: what it is, and what the rest must be. */
interface Seal {
  format: typeof STATE_DIR_FORMAT;
  version: number;
  bytes: number;
  sha256: string;
}

export interface SnapshotHeader {
  generation: number;
  /** The fixture the state started from: POST /_sim/reset goes back to it. */
  fixture: Fixture;
  /** The seed the simulator started with: a reset without a seed returns to it. */
  initialSeed: number;
  settings: LiveSettings;
}

const pad = (g: number) => String(g).padStart(6, '0');
export const snapshotName = (g: number) => `snapshot-${pad(g)}.json`;
export const journalName = (g: number) => `journal-${pad(g)}.ndjson`;
const LOCK = 'LOCK';

/** Generations present in the dir: whole snapshots and journals, each ascending. */
export function generations(dir: string): { snapshots: number[]; journals: number[] } {
  const snapshots: number[] = [];
  const journals: number[] = [];
  for (const name of readdirSync(dir)) {
    const s = /^snapshot-(\d{6})\.json$/.exec(name);
    if (s) snapshots.push(Number(s[1]));
    const j = /^journal-(\d{6})\.ndjson$/.exec(name);
    if (j) journals.push(Number(j[1]));
  }
  return { snapshots: snapshots.sort((a, b) => a - b), journals: journals.sort((a, b) => a - b) };
}

/** Creates the dir (owner only: it holds API keys and secrets, as snapshots do) and takes its lock. */
export function lockDir(dir: string, warn: (message: string) => void): () => void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const lock = path.join(dir, LOCK);
  for (;;) {
    try {
      const fd = openSync(lock, 'wx', 0o600);
      writeFileSync(fd, `${process.pid}\n`);
      closeSync(fd);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const pid = Number(readFileSync(lock, 'utf8').trim());
    if (pid === process.pid) throw new StateDirError(`state dir ${dir} is already open in this process (close that simulator first)`);
    if (Number.isInteger(pid) && pid > 0 && alive(pid)) throw new StateDirError(`state dir ${dir} is in use by process ${pid} (stop it, or use another --state-dir)`);
    warn(`state dir ${dir}: process ${Number.isNaN(pid) ? '?' : pid} ended without closing it; taking over`);
    rmSync(lock, { force: true });
  }
  return () => rmSync(lock, { force: true });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
  // A process killed a moment ago may linger as a zombie until its parent reaps it (Linux shows it).
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

function fileText(header: SnapshotHeader, stateText: string): string {
  const rest = `${JSON.stringify(header)}\n${stateText}\n`;
  const seal: Seal = { format: STATE_DIR_FORMAT, version: STATE_DIR_VERSION, bytes: Buffer.byteLength(rest), sha256: sha256(rest) };
  return `${JSON.stringify(seal)}\n${rest}`;
}

function syncDir(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Writes a whole snapshot file now (the first generation, and on close). */
export function writeSnapshotSync(dir: string, header: SnapshotHeader, stateText: string): void {
  const final = path.join(dir, snapshotName(header.generation));
  const tmp = `${final}.tmp`;
  const fd = openSync(tmp, 'w', 0o600);
  try {
    writeFileSync(fd, fileText(header, stateText));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, final);
  syncDir(dir);
}

/** The same without blocking the event loop (a compaction while the simulator serves). */
export async function writeSnapshot(dir: string, header: SnapshotHeader, stateText: string): Promise<void> {
  const final = path.join(dir, snapshotName(header.generation));
  const tmp = `${final}.tmp`;
  const handle = await fsPromises().open(tmp, 'w', 0o600);
  try {
    await handle.writeFile(fileText(header, stateText));
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fsPromises().rename(tmp, final);
  syncDir(dir);
}

/** Reads and checks a snapshot file; the state is still to be restored (the runtime validates it). */
export function readSnapshot(dir: string, generation: number): { header: SnapshotHeader; state: unknown } {
  const name = snapshotName(generation);
  const damaged = (why: string) =>
    new StateDirError(`state dir ${dir}: ${name} is damaged (${why}); refusing to start rather than lose state. Restore the dir from a backup, or move it aside to start empty.`);
  const text = readFileSync(path.join(dir, name), 'utf8');
  const cut = text.indexOf('\n');
  if (cut === -1) throw damaged('no first line');
  let seal: Seal;
  try {
    seal = JSON.parse(text.slice(0, cut)) as Seal;
  } catch (e) {
    throw damaged(`the first line is not JSON: ${(e as Error).message}`);
  }
  if (seal?.format !== STATE_DIR_FORMAT) throw damaged(`its format is not "${STATE_DIR_FORMAT}"`);
  if (seal.version !== STATE_DIR_VERSION) throw new StateDirError(`state dir ${dir}: ${name} has version ${seal.version}, this simulator reads version ${STATE_DIR_VERSION}`);
  const rest = text.slice(cut + 1);
  if (Buffer.byteLength(rest) !== seal.bytes) throw damaged(`it has ${Buffer.byteLength(rest)} bytes after its first line, which says ${seal.bytes}`);
  if (sha256(rest) !== seal.sha256) throw damaged('its content does not match its checksum');
  const split = rest.indexOf('\n');
  let header: SnapshotHeader;
  let state: unknown;
  try {
    header = JSON.parse(rest.slice(0, split)) as SnapshotHeader;
    state = JSON.parse(rest.slice(split + 1));
  } catch (e) {
    throw damaged(`not JSON: ${(e as Error).message}`);
  }
  if (header.generation !== generation) throw damaged(`its header names generation ${header.generation}`);
  const problem = settingsProblem(header.settings);
  if (problem) throw damaged(problem);
  if (!Number.isInteger(header.initialSeed) || !header.fixture || typeof header.fixture !== 'object') throw damaged('the header has no fixture or seed');
  return { header, state };
}

/** Removes snapshots and journals older than `generation`, and temporary files left by a crash. */
export function removeBefore(dir: string, generation: number): void {
  const { snapshots, journals } = generations(dir);
  for (const g of snapshots) if (g < generation) rmSync(path.join(dir, snapshotName(g)), { force: true });
  for (const g of journals) if (g < generation) rmSync(path.join(dir, journalName(g)), { force: true });
  for (const name of readdirSync(dir)) if (name.endsWith('.tmp')) rmSync(path.join(dir, name), { force: true });
}

export function hasStateDir(dir: string): boolean {
  return existsSync(dir) && generations(dir).snapshots.length > 0;
}

/** node:fs/promises, loaded with the first asynchronous write (a state dir only), not at start. */
const fsPromises = () => process.getBuiltinModule('node:fs/promises');
