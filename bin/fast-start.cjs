// Fast start of a TypeScript CLI: runs its entry from a single-file CommonJS bundle in dist/,
// rebuilt with esbuild whenever a file it was built from is newer than the bundle, through a V8
// code cache (bin/run-bundle.cjs). Loading one bundled file takes a fraction of the time that
// loading ~300 separate TypeScript and package modules through the TypeScript loader does.
// `npm start` (bin/start.cjs) and `npm run conformance` (bin/conformance-start.mjs) start so.
// CommonJS, as bin/start.cjs and bin/run-bundle.cjs: an ES module as the main module starts
// Node's ES module loader, about 10 ms of CPU that `npm start` need not pay (decisions.md).
'use strict';
const { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } = require('node:fs');
const { dirname, join, relative } = require('node:path');
const { runBundle } = require('./run-bundle.cjs');

const ROOT = dirname(__dirname);

/**
 * Packages left in node_modules. undici (the webhook client, loaded on first delivery) is most of
 * a bundle's size otherwise and most runs never need it. The MCP SDK likewise: loaded with the
 * first MCP connection test or fake MCP server; and the PDF text library, loaded with an agent's
 * first PDF knowledge document. The speech engine reads its data file beside its own module, and
 * ws has optional native add-ons it looks for at run time: both stay in node_modules.
 */
const LAZY_PACKAGES = ['undici', '@modelcontextprotocol/sdk', '@modelcontextprotocol/sdk/*', 'unpdf', '@echogarden/espeak-ng-emscripten', 'ws', 'jssip', 'jssip/*'];

/**
 * Whether the bundle is missing or older than one of the project's files it was built from
 * (esbuild's metafile, written beside it: only these can make it stale, since a new file matters
 * only once one of them imports it; packages change with package-lock.json), or than `alsoFrom`.
 * Stat-ing them is cheaper than walking the source folders.
 */
function stale(bundle, alsoFrom) {
  let built, inputs;
  try {
    built = statSync(bundle).mtimeMs;
    inputs = JSON.parse(readFileSync(`${bundle}.inputs.json`, 'utf8'));
  } catch {
    return true;
  }
  // Joined by hand: path.join's normalising was more than half of this check's CPU (500 inputs);
  // the inputs are relative paths under the project, as esbuild names them.
  const sources = [...inputs.map((p) => `${ROOT}/${p}`), join(ROOT, 'package-lock.json'), __filename, join(ROOT, 'bin', 'run-bundle.cjs'), ...alsoFrom];
  return sources.some((p) => {
    try {
      return statSync(p).mtimeMs > built;
    } catch {
      return true; // an input removed
    }
  });
}

/**
 * A plugin that gives each project module its own `import.meta.url` in the bundle (its source's
 * place, relative to the bundle, resolved when it runs): the kit reads its YAML, JSON and
 * scenarios beside its modules (`new URL('../contract.json', import.meta.url)`), which one URL
 * for the whole bundle would send to dist/.
 */
function ownModuleUrls(bundle) {
  return {
    name: 'own-module-urls',
    setup(build) {
      build.onLoad({ filter: /\.ts$/ }, (args) => {
        if (args.path.includes('node_modules')) return undefined;
        const text = readFileSync(args.path, 'utf8');
        if (!text.includes('import.meta.url')) return undefined;
        const place = relative(dirname(bundle), args.path).split('\\').join('/');
        return { contents: text.replaceAll('import.meta.url', `new URL(${JSON.stringify(place)}, __bundleUrl).href`), loader: 'ts' };
      });
    },
  };
}

/**
 * Builds `bundle` from `entry` when stale, then runs it. `name` prefixes a build error;
 * `ownUrls`: each project module gets its own import.meta.url (else the bundle's);
 * `alsoFrom`: more files whose change makes the bundle stale (the starter itself);
 * `servesAfterStart`: a server that says when it serves (bin/run-bundle.cjs).
 */
async function startBundled({ name, entry, bundle, ownUrls = false, alsoFrom = [], servesAfterStart = false }) {
  if (stale(bundle, alsoFrom)) {
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
        external: LAZY_PACKAGES,
        logLevel: 'silent',
        // The bundle's modules find files beside themselves and require packages through import.meta.url: bin/run-bundle.cjs passes it in.
        define: { 'import.meta.url': '__bundleUrl' },
        plugins: ownUrls ? [ownModuleUrls(bundle)] : [],
      });
      // Write then rename, so a concurrent start never imports a half-written bundle.
      mkdirSync(dirname(bundle), { recursive: true });
      const tmp = `${bundle}.${process.pid}.tmp`;
      writeFileSync(tmp, withBundleImport(result.outputFiles[0].text));
      // esbuild names inputs relative to the working directory; kept relative to the project.
      const inputs = Object.keys(result.metafile.inputs).filter((p) => !p.includes('node_modules/')).map((p) => relative(ROOT, join(process.cwd(), p)));
      const inputsFile = `${bundle}.inputs.json`;
      writeFileSync(`${inputsFile}.${process.pid}.tmp`, JSON.stringify(inputs));
      renameSync(`${inputsFile}.${process.pid}.tmp`, inputsFile);
      renameSync(tmp, bundle);
    } catch (e) {
      const first = e.errors?.[0];
      process.stderr.write(`${name}: cannot build ${relative(ROOT, entry)}: ${first ? `${first.location?.file}:${first.location?.line}: ${first.text}` : e.message}\n`);
      process.exit(1);
    }
  }
  runBundle(bundle, { servesAfterStart });
}

/**
 * The bundle's import() calls (of the packages left out above, and node: modules) go through
 * __bundleImport, which bin/run-bundle.cjs passes in: a vm script's own import() fails in Node 20
 * once its functions come from the code cache, so the first webhook after a restart failed to
 * load undici. esbuild prints code strings in double quotes, so JSDoc's import('...') stays.
 */
function withBundleImport(text) {
  return text.replace(/(?<![\w$.])import\((?=["\w])/g, '__bundleImport(');
}

module.exports = { ROOT, LAZY_PACKAGES, startBundled };
