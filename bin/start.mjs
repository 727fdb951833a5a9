// Fast start for `npm start`: runs bin/sim.ts from a single-file bundle in dist/, rebuilt
// with esbuild whenever a source file is newer than the bundle. Loading one bundled file takes
// a fraction of the time that loading ~300 separate TypeScript and package modules does,
// which keeps `npm start` to first answer under a second (bench/README.md).
import { existsSync, mkdirSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const entry = join(root, 'bin', 'sim.ts');
const bundle = join(root, 'dist', 'sim.mjs');

function newestMtime(path) {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const name of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, name)));
  return newest;
}

function stale() {
  if (!existsSync(bundle)) return true;
  const built = statSync(bundle).mtimeMs;
  const sources = [join(root, 'simulator'), entry, join(root, 'package-lock.json'), fileURLToPath(import.meta.url)];
  return sources.some((p) => existsSync(p) && newestMtime(p) > built);
}

if (stale()) {
  try {
    const { build } = await import('esbuild'); // only when rebuilding: importing it costs start-up time
    const result = await build({
      entryPoints: [entry],
      outfile: bundle,
      write: false,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      // undici (the webhook client, loaded on first delivery) stays in node_modules: it is most
      // of the bundle's size otherwise and most runs never need it.
      // The MCP SDK likewise: loaded with the first MCP connection test or fake MCP server;
      // and the PDF text library, loaded with an agent's first PDF knowledge document. The speech
      // engine reads its data file beside its own module, and ws has optional native add-ons it
      // looks for at run time: both stay in node_modules.
      external: ['undici', '@modelcontextprotocol/sdk', '@modelcontextprotocol/sdk/*', 'unpdf', '@echogarden/espeak-ng-emscripten', 'ws'],
      logLevel: 'silent',
      banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    });
    // Write then rename, so a concurrent start never imports a half-written bundle.
    mkdirSync(dirname(bundle), { recursive: true });
    const tmp = `${bundle}.${process.pid}.tmp`;
    writeFileSync(tmp, result.outputFiles[0].contents);
    renameSync(tmp, bundle);
  } catch (e) {
    const first = e.errors?.[0];
    process.stderr.write(`sim: cannot build the simulator: ${first ? `${first.location?.file}:${first.location?.line}: ${first.text}` : e.message}\n`);
    process.exit(1);
  }
}
await import(pathToFileURL(bundle).href);
