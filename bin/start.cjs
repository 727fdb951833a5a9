// Fast start for `npm start`: runs bin/sim.ts from a single-file bundle in dist/, rebuilt
// with esbuild whenever a source file is newer than the bundle. Loading one bundled file takes
// a fraction of the time that loading ~300 separate TypeScript and package modules does,
// which keeps `npm start` to first answer under a second (bench/README.md). The bundle is
// CommonJS so that bin/run-bundle.cjs can run it through a V8 code cache. This file and that one
// are CommonJS too: an ES module as the main module starts Node's ES module loader, about 10 ms
// of CPU (decisions.md, start-up).
'use strict';
const { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } = require('node:fs');
const { dirname, join, relative } = require('node:path');
const { runBundle } = require('./run-bundle.cjs');

const root = dirname(__dirname);
const entry = join(root, 'bin', 'sim.ts');
const bundle = join(root, 'dist', 'sim.cjs');

const inputsFile = `${bundle}.inputs.json`;

// The project's files the bundle was built from (esbuild's metafile, written beside it): only
// these can make it stale, since a new file matters only once one of them imports it; packages
// change with package-lock.json. Stat-ing them is cheaper than walking simulator/.
function stale() {
  let built, inputs;
  try {
    built = statSync(bundle).mtimeMs;
    inputs = JSON.parse(readFileSync(inputsFile, 'utf8'));
  } catch {
    return true;
  }
  // Joined by hand: path.join's normalising was more than half of this check's CPU (505 inputs);
  // the inputs are relative paths under the project, as esbuild names them.
  const sources = [...inputs.map((p) => `${root}/${p}`), join(root, 'package-lock.json'), __filename, join(root, 'bin', 'run-bundle.cjs')];
  return sources.some((p) => {
    try {
      return statSync(p).mtimeMs > built;
    } catch {
      return true; // an input removed
    }
  });
}

async function start() {
  if (stale()) await rebuild();
  runBundle(bundle);
}

async function rebuild() {
  try {
    const { build } = await import('esbuild'); // only when rebuilding: importing it costs start-up time
    const result = await build({
      entryPoints: [entry],
      outfile: bundle,
      write: false,
      metafile: true,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      // undici (the webhook client, loaded on first delivery) stays in node_modules: it is most
      // of the bundle's size otherwise and most runs never need it.
      // The MCP SDK likewise: loaded with the first MCP connection test or fake MCP server;
      // and the PDF text library, loaded with an agent's first PDF knowledge document. The speech
      // engine reads its data file beside its own module, and ws has optional native add-ons it
      // looks for at run time: both stay in node_modules.
      external: ['undici', '@modelcontextprotocol/sdk', '@modelcontextprotocol/sdk/*', 'unpdf', '@echogarden/espeak-ng-emscripten', 'ws', 'jssip', 'jssip/*'],
      logLevel: 'silent',
      // The bundle's modules find files beside themselves and require packages through import.meta.url: bin/run-bundle.cjs passes it in.
      define: { 'import.meta.url': '__bundleUrl' },
    });
    // Write then rename, so a concurrent start never imports a half-written bundle.
    mkdirSync(dirname(bundle), { recursive: true });
    const tmp = `${bundle}.${process.pid}.tmp`;
    writeFileSync(tmp, withBundleImport(result.outputFiles[0].text));
    // esbuild names inputs relative to the working directory; kept relative to the project.
    const inputs = Object.keys(result.metafile.inputs).filter((p) => !p.includes('node_modules/')).map((p) => relative(root, join(process.cwd(), p)));
    writeFileSync(`${inputsFile}.${process.pid}.tmp`, JSON.stringify(inputs));
    renameSync(`${inputsFile}.${process.pid}.tmp`, inputsFile);
    renameSync(tmp, bundle);
  } catch (e) {
    const first = e.errors?.[0];
    process.stderr.write(`sim: cannot build the simulator: ${first ? `${first.location?.file}:${first.location?.line}: ${first.text}` : e.message}\n`);
    process.exit(1);
  }
}

void start();

/**
 * The bundle's import() calls (of the packages left out above, and node: modules) go through
 * __bundleImport, which bin/run-bundle.cjs passes in: a vm script's own import() fails in Node 20
 * once its functions come from the code cache, so the first webhook after a restart failed to
 * load undici. esbuild prints code strings in double quotes, so JSDoc's import('...') stays.
 */
function withBundleImport(text) {
  return text.replace(/(?<![\w$.])import\((?=["\w])/g, '__bundleImport(');
}
