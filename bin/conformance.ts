// `npm run conformance -- <command>`: the conformance kit's CLI (conformance/cli.ts).
import { main } from '../conformance/cli.ts';

// startedAt 0: the process's start, so the reported duration is the wall time the user waited.
main(process.argv.slice(2), { out: process.stdout, err: process.stderr, env: process.env, startedAt: 0 }).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`conformance: internal error: ${(e as Error)?.stack ?? String(e)}\n`);
    process.exitCode = 3;
  },
);
