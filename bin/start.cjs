// Fast start for `npm start`: runs bin/sim.ts from a single-file bundle in dist/ (bin/fast-start.cjs:
// rebuilt with esbuild whenever a source file is newer than the bundle, run through a V8 code
// cache), which keeps `npm start` to first answer under a second (bench/README.md). CommonJS,
// as fast-start.cjs and run-bundle.cjs: an ES module as the main module starts Node's ES module
// loader, about 10 ms of CPU (decisions.md, start-up).
'use strict';
const { join } = require('node:path');
const { ROOT, startBundled } = require('./fast-start.cjs');

void startBundled({ name: 'sim', entry: join(ROOT, 'bin', 'sim.ts'), bundle: join(ROOT, 'dist', 'sim.cjs'), alsoFrom: [__filename], servesAfterStart: true });
