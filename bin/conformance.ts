// The conformance kit's CLI (conformance/cli.ts): `npm run conformance -- <command>` here,
// `npx platform-conformance <command>` from the installed package (bin/platform-conformance.mjs
// runs the compiled copy of this file; `npm run conformance` runs it from a bundle through
// bin/conformance-start.mjs). Usage lines and hints name the command the user typed.
import { main } from '../conformance/cli.ts';
import { typedCommand } from './command-name.ts';

const bundled = /conformance-start\.mjs$/.test(process.argv[1] ?? '');
const inRepository = process.env.npm_lifecycle_event === 'conformance' ? 'npm run conformance --' : bundled ? 'node bin/conformance-start.mjs' : 'node --import tsx bin/conformance.ts';

// startedAt 0: the process's start, so the reported duration is the wall time the user waited.
main(process.argv.slice(2), { out: process.stdout, err: process.stderr, env: process.env, program: typedCommand('platform-conformance', inRepository), startedAt: 0 }).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`conformance: internal error: ${(e as Error)?.stack ?? String(e)}\n`);
    process.exitCode = 3;
  },
);
