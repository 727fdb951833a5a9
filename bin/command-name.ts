// The command the user typed to start one of the CLIs, so that usage lines and hints name it:
// `npx platform-conformance` (or `platform-conformance` from a package script or PATH) when
// started through the installed package's bin, the repository's form (`npm run conformance --`,
// `npm start --`) inside this repository.
import path from 'node:path';

/**
 * `bin` is the package's bin name; `inRepository` the form used inside this repository. The
 * package's bins are `bin/<bin>.mjs`, reached through `node_modules/.bin/<bin>`; npx (npm exec)
 * marks its children with npm_command=exec.
 */
export function typedCommand(bin: string, inRepository: string, argv1 = process.argv[1] ?? '', env: NodeJS.ProcessEnv = process.env): string {
  if (path.basename(argv1).replace(/\.mjs$/, '') !== bin) return inRepository;
  return env.npm_command === 'exec' ? `npx ${bin}` : bin;
}
