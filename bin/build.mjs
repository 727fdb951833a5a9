// `npm run build` (and `prepack`, so `npm pack`, `npm publish` and a git-URL install run it; not
// `prepare`, which npm 11 counts as an install script of the installed package and warns about):
// compiles simulator/, conformance/ and the two CLIs to JavaScript with type declarations in
// dist/, for customers who use the package without a TypeScript loader (README, "From another project").
// The kit reads its YAML and JSON beside its modules (new URL(..., import.meta.url)), so those
// files and scenarios/ are copied to the same places under dist/. The fast-start bundle of
// `npm start` (dist/sim.cjs, bin/start.cjs) is separate and untouched.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const dist = join(root, 'dist');
const SOURCES = ['simulator', 'conformance', 'scenarios', 'bin/sim.ts', 'bin/conformance.ts', 'bin/command-name.ts', 'bin/build.mjs', 'tsconfig.json', 'tsconfig.build.json'];

function files(dir, keep) {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? files(p, keep) : keep(p) ? [p] : [];
  });
}

function newestMtime(path) {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  return readdirSync(path).reduce((newest, name) => Math.max(newest, newestMtime(join(path, name))), st.mtimeMs);
}

/** Whether the build is missing or older than a source it is built from. */
function stale() {
  const marker = join(dist, 'simulator', 'index.js');
  if (!existsSync(marker)) return true;
  const built = statSync(marker).mtimeMs;
  return SOURCES.some((p) => existsSync(join(root, p)) && newestMtime(join(root, p)) > built);
}

// `--if-stale` (prepack): skip when dist/ is current, and when typescript is absent (an install
// from a packed tarball, whose dist/ came built).
if (process.argv.includes('--if-stale') && (!stale() || !existsSync(join(root, 'tsconfig.build.json')))) process.exit(0);

for (const part of ['simulator', 'conformance', 'bin', 'scenarios']) rmSync(join(dist, part), { recursive: true, force: true });

// `--no-check` (prepack, the package test): emit only, without tsc's type check, which is about
// a third of the build's CPU and `npm run typecheck` makes over the same files (tsconfig.json
// includes everything tsconfig.build.json compiles). The output is the same: the JavaScript byte
// for byte, the declarations up to the order tsc prints a union's members in.
const check = process.argv.includes('--no-check') ? ['--noCheck'] : [];
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const compiled = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json'), ...check], { stdio: 'inherit' });
if (compiled.status !== 0) {
  // `prepack` passes --keep-going: a build defect must not stop the pack of a git-URL install
  // (npm start and the tests run from source); the package test reports it.
  const keepGoing = process.argv.includes('--keep-going');
  rmSync(join(dist, 'simulator', 'index.js'), { force: true }); // stale again: the next build retries
  process.stderr.write(`build: tsc failed${keepGoing ? '; dist/ is incomplete (npm run build to see why)' : ''}\n`);
  process.exit(keepGoing ? 0 : 1);
}

// tsc rewrites `./x.ts` to `./x.js` in JavaScript but not in declarations; consumers resolve `.js`.
for (const file of files(dist, (p) => p.endsWith('.d.ts'))) {
  const text = readFileSync(file, 'utf8');
  const fixed = text.replace(/(from\s+|import\s*\(\s*)(['"])(\.{1,2}\/[^'"]+)\.ts\2/g, '$1$2$3.js$2');
  if (fixed !== text) writeFileSync(file, fixed);
}

for (const file of files(join(root, 'conformance'), (p) => /\.(ya?ml|json)$/.test(p) && !p.includes(`${join('conformance', 'test')}`))) {
  cpSync(file, join(dist, file.slice(root.length + 1)));
}
cpSync(join(root, 'scenarios'), join(dist, 'scenarios'), { recursive: true });
process.stdout.write(`build: wrote ${dist}\n`);
