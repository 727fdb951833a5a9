// Fast start for `npm start`: runs bin/sim.ts from a single-file bundle in dist/ (bin/fast-start.mjs:
// rebuilt with esbuild whenever a source file is newer than the bundle, run through a V8 code
// cache), which keeps `npm start` to first answer under a second (bench/README.md).
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROOT, startBundled } from './fast-start.mjs';

await startBundled({ name: 'sim', entry: join(ROOT, 'bin', 'sim.ts'), bundle: join(ROOT, 'dist', 'sim.cjs'), alsoFrom: [fileURLToPath(import.meta.url)] });
