// Shared by the durable-state tests: a fresh state dir under the run's scratch folder,
// simulators on it that are closed after each test, and an in-process "crash" (the dir stops
// being written at once, no last snapshot) followed by a new simulator on the same dir.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createSimulator, type Simulator, type SimulatorOptions } from '../index.ts';
import { crashStateDir } from '../internal.ts';
import { call, type CallOptions } from './helpers.ts';

export function stateDir(): string {
  return mkdtempSync(path.join(tmpdir(), 'state-dir-'));
}

const open: Simulator[] = [];

/** A simulator on `dir`, ready; warnings are collected in `warnings`. */
export async function onDir(dir: string, options: SimulatorOptions = {}) {
  const warnings: string[] = [];
  const sim = createSimulator({ stateDir: dir, onWarning: (m) => warnings.push(m), ...options });
  open.push(sim);
  await sim.ready;
  return {
    sim,
    warnings,
    call: (method: string, url: string, body?: unknown, opts?: CallOptions) => call(sim, method, url, body, opts),
  };
}

/** What a kill -9 leaves: the dir as written so far, no last snapshot, the lock let go. */
export async function crash(sim: Simulator): Promise<void> {
  crashStateDir(sim);
  await sim.close();
}

/** A crash, then a new simulator on the same dir, replayed. */
export async function crashAndReopen(sim: Simulator, dir: string, options: SimulatorOptions = {}) {
  await crash(sim);
  return onDir(dir, options);
}

export async function closeDurableTests(): Promise<void> {
  await Promise.all(open.splice(0).map((s) => s.close()));
}

/** The journal lines of the newest generation, parsed. */
export function journalLines(dir: string): Record<string, unknown>[] {
  const newest = readdirSync(dir).filter((n) => n.startsWith('journal-')).sort().pop();
  if (!newest) return [];
  return readFileSync(path.join(dir, newest), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
}

export function files(dir: string): string[] {
  return readdirSync(dir).sort();
}

/** Waits (up to 5 s) until a background compaction to `generation` is done: its snapshot alone, no temporary file. */
export async function compacted(dir: string, generation: number): Promise<string[]> {
  const wanted = `snapshot-${String(generation).padStart(6, '0')}.json`;
  for (let i = 0; i < 500; i++) {
    const names = files(dir);
    if (names.filter((n) => n.startsWith('snapshot-')).join() === wanted && !names.some((n) => n.endsWith('.tmp'))) return names;
    await new Promise((r) => setTimeout(r, 10));
  }
  return files(dir);
}
