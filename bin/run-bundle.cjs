// Runs the CommonJS bundle of `npm start` (bin/start.cjs builds it) through a V8 code cache kept
// beside it: parsing and compiling the 2 MB bundle was about a third of the simulator's start-up
// CPU (bench/README.md "Start-up"), and Node 20 has no compile cache of its own. The cache file
// starts with the bundle's size and modification time: V8 checks only a cache's length-based
// source hash and its own version, so a rebuilt bundle must never meet a cache made for another.
// A missing, foreign or rejected cache is written anew shortly after start (when the functions
// of the start are compiled) or at exit if sooner, by write-then-rename, so concurrent starts
// never read half a file. The key also says whether the run that wrote it was serving (bin/sim.ts
// emits SERVING_EVENT once it listens): a cache from a run that only loaded the bundle (--help, a
// bad option) lacks the start's functions, about 5 ms of CPU at each start, so a serving run
// replaces it, shortly after it began serving (its first answers compiled) or at exit.
'use strict';
const { closeSync, fstatSync, openSync, readFileSync, renameSync, writeFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const { dirname } = require('node:path');
const { pathToFileURL } = require('node:url');
const vm = require('node:vm');

/** How long after the bundle's first run the cache is written (the start's functions compiled by then); a run ending sooner writes it at exit. */
const WRITE_CACHE_AFTER_MS = 300;

/** What bin/sim.ts emits on `process` once it serves. */
const SERVING_EVENT = 'platform-sim:serving';

/**
 * Loads and runs `bundle`, as Node would a CommonJS main module, with `import.meta.url` given as
 * `__bundleUrl`. `servesAfterStart`: the bundle is a server that emits SERVING_EVENT, so a cache
 * written before it served is replaced by a run that serves (other bundles keep their first).
 */
function runBundle(bundle, { servesAfterStart = false } = {}) {
  const fd = openSync(bundle, 'r');
  let source, key;
  try {
    const st = fstatSync(fd); // the key of the very text read below, even if a rebuild renames a new bundle in meanwhile
    key = `${st.size}:${st.mtimeMs}`;
    // Bytes, then decoded: about 2 ms of CPU less than readFileSync(fd, 'utf8') for this 2.3 MB file on Node 20.
    source = readFileSync(fd).toString('utf8');
  } finally {
    closeSync(fd);
  }
  const cacheFile = `${bundle}.v8cache`;
  const cached = cacheFor(cacheFile, key);
  // No importModuleDynamically: Node 20 loses it for functions that come from a code cache (their
  // import() then fails with ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING), so the bundle's import()
  // calls are rewritten to __bundleImport (bin/start.cjs), an import() of this module.
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname, __bundleUrl, __bundleImport) {${source}\n})`, {
    filename: bundle,
    cachedData: cached?.data,
  });
  if (!cached || script.cachedDataRejected || (servesAfterStart && !cached.serving)) keepCache(cacheFile, key, script);
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(bundle), module, bundle, dirname(bundle), pathToFileURL(bundle).href, bundleImport);
}

/** The bundle's import(): packages and node: modules only (bin/start.cjs), so resolving from bin/ finds what dist/ would. */
const bundleImport = (specifier) => import(specifier);

/** The cache made for `key` (the bundle's size and time), with whether a serving run wrote it; undefined when none. */
function cacheFor(cacheFile, key) {
  let file;
  try {
    file = readFileSync(cacheFile);
  } catch {
    return undefined;
  }
  const end = file.indexOf(10);
  const [size, time, stage] = file.subarray(0, end < 0 ? 0 : end).toString('latin1').split(':');
  return `${size}:${time}` === key ? { data: file.subarray(end + 1), serving: stage === 'serving' } : undefined;
}

/**
 * Writes the cache after start, or at exit if that comes first (a start stopped at its first
 * answer still leaves one), and once more shortly after the run begins serving if it had
 * written it before.
 */
function keepCache(cacheFile, key, script) {
  let serving = false;
  let written; // the stage last written
  const write = () => {
    if (written === serving) return;
    writeCache(cacheFile, `${key}:${serving ? 'serving' : 'loaded'}\n`, script);
    written = serving;
  };
  setTimeout(write, WRITE_CACHE_AFTER_MS).unref();
  process.once(SERVING_EVENT, () => {
    serving = true;
    setTimeout(write, WRITE_CACHE_AFTER_MS).unref();
  });
  process.once('exit', write);
}

function writeCache(cacheFile, header, script) {
  try {
    const tmp = `${cacheFile}.${process.pid}.tmp`;
    writeFileSync(tmp, Buffer.concat([Buffer.from(header, 'latin1'), script.createCachedData()]));
    renameSync(tmp, cacheFile);
  } catch {
    /* a read-only or full disk: the next start compiles the bundle as usual */
  }
}

module.exports = { runBundle, WRITE_CACHE_AFTER_MS, SERVING_EVENT };
