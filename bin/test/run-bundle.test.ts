// bin/run-bundle.cjs runs `npm start`'s CommonJS bundle through a V8 code cache: the bundle runs
// with its require, file names and import.meta.url, the cache is written beside it after start,
// and a cache made for another build of the bundle is never used but replaced; its import()
// (__bundleImport) still works once its functions come from the cache.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, utimesSync, writeFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain CommonJS script of bin/, without declarations
import { runBundle, SERVING_EVENT, WRITE_CACHE_AFTER_MS } from '../run-bundle.cjs';

const seen = globalThis as { runBundleSaw?: unknown[] };

function bundleIn(dir: string, marker: string): string {
  const file = path.join(dir, 'sim.cjs');
  writeFileSync(file, `globalThis.runBundleSaw.push([${JSON.stringify(marker)}, __bundleUrl, __filename, __dirname, typeof require('node:path').join, typeof module.exports]);`);
  return file;
}

const settle = () => new Promise((r) => setTimeout(r, WRITE_CACHE_AFTER_MS + 200));

describe('runBundle', () => {
  it('runs the bundle as a CommonJS module with import.meta.url as __bundleUrl, and writes a keyed code cache beside it', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'run-bundle-'));
    const file = bundleIn(dir, 'first');
    seen.runBundleSaw = [];
    runBundle(file);
    expect(seen.runBundleSaw).toEqual([['first', pathToFileURL(file).href, file, dir, 'function', 'object']]);
    await settle();
    const cache = readFileSync(`${file}.v8cache`);
    expect(cache.toString('latin1').split('\n')[0]).toMatch(/^\d+:[\d.]+:loaded$/);
    runBundle(file); // with the cache
    expect(seen.runBundleSaw).toHaveLength(2);
  });

  it('never uses a cache made for another build: it runs the new text and writes the cache anew', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'run-bundle-'));
    const file = bundleIn(dir, 'old');
    seen.runBundleSaw = [];
    runBundle(file);
    await settle();
    const before = readFileSync(`${file}.v8cache`);
    bundleIn(dir, 'new'); // the same length, as V8's own check would accept
    utimesSync(file, new Date(2030, 0, 1), new Date(2030, 0, 1));
    runBundle(file);
    expect(seen.runBundleSaw!.map((x) => (x as unknown[])[0])).toEqual(['old', 'new']);
    await settle();
    expect(readFileSync(`${file}.v8cache`).equals(before)).toBe(false);
    expect(existsSync(`${file}.v8cache`)).toBe(true);
  });
});

describe('runBundle and a serving run', () => {
  it('replaces a cache written by a run that only loaded the bundle once a run serves, and then keeps it', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'run-bundle-'));
    const file = path.join(dir, 'sim.cjs');
    writeFileSync(file, `if (globalThis.runBundleServes) process.emit(${JSON.stringify(SERVING_EVENT)});`);
    const stage = () => readFileSync(`${file}.v8cache`).toString('latin1').split('\n')[0]!.split(':')[2];
    const g = globalThis as { runBundleServes?: boolean };
    g.runBundleServes = false;
    runBundle(file, { servesAfterStart: true }); // --help, say
    await settle();
    expect(stage()).toBe('loaded');
    const loaded = readFileSync(`${file}.v8cache`);
    runBundle(file); // a bundle that never serves keeps its first cache
    await settle();
    expect(readFileSync(`${file}.v8cache`).equals(loaded)).toBe(true);
    g.runBundleServes = true;
    runBundle(file, { servesAfterStart: true });
    await settle();
    expect(stage()).toBe('serving');
    const kept = readFileSync(`${file}.v8cache`);
    runBundle(file, { servesAfterStart: true });
    await settle();
    expect(readFileSync(`${file}.v8cache`).equals(kept)).toBe(true);
    delete g.runBundleServes;
  });
});

describe('runBundle in a process that ends at once', () => {
  it('writes the cache at exit', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'run-bundle-'));
    const file = path.join(dir, 'sim.cjs');
    writeFileSync(file, 'process.exit(0);');
    const runner = pathToFileURL(path.join(import.meta.dirname, '..', 'run-bundle.cjs')).href;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', `import { runBundle } from ${JSON.stringify(runner)}; runBundle(${JSON.stringify(file)});`]);
    expect(r.status).toBe(0);
    expect(existsSync(`${file}.v8cache`)).toBe(true);
  });

  it('imports through __bundleImport with the cache too (a vm script\'s own import() fails in Node 20 once it comes from a code cache)', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'run-bundle-'));
    const file = path.join(dir, 'sim.cjs');
    writeFileSync(file, 'const load = () => __bundleImport("node:os"); load().then((m) => console.log(typeof m.cpus), (e) => console.log(e.code));');
    const runner = pathToFileURL(path.join(import.meta.dirname, '..', 'run-bundle.cjs')).href;
    const run = () => spawnSync(process.execPath, ['--input-type=module', '-e', `import { runBundle } from ${JSON.stringify(runner)}; runBundle(${JSON.stringify(file)});`], { encoding: 'utf8' });
    expect(run().stdout.trim()).toBe('function');
    expect(existsSync(`${file}.v8cache`)).toBe(true);
    expect(run().stdout.trim()).toBe('function'); // from the cache
  });
});
