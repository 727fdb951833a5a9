// Fast start for `npm run conformance`: runs bin/conformance.ts from a single-file bundle in dist/
// (bin/fast-start.cjs: rebuilt with esbuild whenever a source file is newer than the bundle, run
// through a V8 code cache). Through the TypeScript loader, loading the kit's and the simulator's
// ~400 modules took about 1.5 s of CPU of every run (docs/decisions.md "Conformance kit").
// Each module keeps its own import.meta.url: the kit reads its files beside its modules.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROOT, startBundled } from './fast-start.cjs';

await startBundled({ name: 'conformance', entry: join(ROOT, 'bin', 'conformance.ts'), bundle: join(ROOT, 'dist', 'conformance.cjs'), ownUrls: true, alsoFrom: [fileURLToPath(import.meta.url)] });
