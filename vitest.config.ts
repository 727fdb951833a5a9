// Two groups of test files (docs/contributing.md, "Tests and their speed"): `quick` runs in
// process only; `whole` holds the files that spawn processes (servers, npm, a linter), drive a
// browser, pack the package, serve the simulator to the whole kit or run the kit once per
// wrong-server defect. `npm run test:quick` runs the first, `npm test` (what CI runs) both.
import { availableParallelism } from 'node:os';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { configDefaults, defineConfig } from 'vitest/config';

const ALL = ['simulator/test/**/*.test.ts', 'conformance/test/**/*.test.ts', 'bin/test/**/*.test.ts'];

/**
 * The `whole` group, longest first: they start first, so that no long file is left alone at the
 * end. The kit's two repeatable configurations are two files (alone at load 3 to 6: one file 86 s;
 * two, 65 and 27 s), so the shorter one goes to whichever worker is free first. Lengths in `npm
 * test` on the project machine, warm: wrong-server 100 s, repeatable-http about 70, durable-kill
 * 38 then the package about 55 (its pack and install, about 35, come before its first test; side
 * by side under load, starting it first instead of durable-kill gained nothing), repeatable 32,
 * the browsers 14 and less (docs/contributing.md).
 */
export const WHOLE_SUITE_ONLY = [
  'conformance/test/wrong-server.test.ts', // the kit once per wrong-server defect
  'conformance/test/repeatable-http.test.ts', // the whole kit twice against one simulator with made accounts, first over HTTP
  'simulator/test/durable-kill.test.ts', // a served simulator killed with SIGKILL and restarted 52 times
  'bin/test/package.test.ts', // npm pack, npm install, the bins as child processes
  'conformance/test/repeatable.test.ts', // the whole kit twice against one simulator with the demo accounts
  'simulator/test/assign-browser.test.ts', // Chromium
  'simulator/test/inspector-browser.test.ts', // Chromium
  'simulator/test/batch-view-browser.test.ts', // Chromium
  'simulator/test/http-edge.test.ts', // a spawned simulator
  'bin/test/cli.test.ts', // spawned `npm start`
  'bin/test/run-bundle.test.ts', // a spawned node ending at once (the code cache written at exit)
  'bin/test/conformance-start.test.ts', // the kit's bundle built and run as child processes
  'simulator/test/openapi.test.ts', // the spawned OpenAPI linter
  // Last: they mostly wait on SIPp's real-time pace (about 4 s of CPU in 12 s), which overlaps
  // the quick files' work on the other workers.
  'simulator/test/sip-sipp.test.ts', // SIPp as a child process
  'simulator/test/sip-sipp-dial.test.ts', // SIPp as a child process
];

/**
 * The longest files of the `quick` group, longest first (measured; docs/contributing.md). The
 * Agent SDK calls mostly wait on real sockets at the media's pace: started first, that wait
 * overlaps the other worker's work instead of ending the run.
 */
const QUICK_LONGEST = [
  'conformance/test/suite.test.ts', // the whole kit in process
  'simulator/test/openapi-fuzz.test.ts', // requests generated from /openapi.json for every operation
  'simulator/test/agent-sdk-calls.test.ts', // real-time media on real sockets
  'conformance/test/read-only.test.ts', // the whole kit without a control plane, then read-only
  'conformance/test/cli.test.ts', // several kit runs through the CLI
  'conformance/test/read-only-half.test.ts', // the whole kit read-only against a populated simulator
  'simulator/test/email-domains.property.test.ts',
  'simulator/test/usage.property.test.ts',
];

/**
 * Quick files whose whole proof a `whole` file makes again (the same run, the same assertions):
 * suite.test.ts's run of the kit is the wrong-server baseline's, which asserts its verdict too
 * (conformance/test/whole-suite-verdict.ts).
 */
export const PROVEN_IN_WHOLE = ['conformance/test/suite.test.ts'];

/**
 * `npm test` (what CI runs) runs both groups at once: there PROVEN_IN_WHOLE is left out. Every
 * other run keeps it: `npm run test:quick`, `npx vitest run`, a run given files or a project.
 */
const bothGroupsByNpmTest =
  process.env.npm_lifecycle_event === 'test' && !process.argv.slice(2).some((a) => a.startsWith('--project') || (!a.startsWith('-') && a !== 'run' && a !== 'list'));

/** Long files first (a fresh clone has no timings yet), then vitest's own order. */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const ranked = [...WHOLE_SUITE_ONLY, ...QUICK_LONGEST];
    const rank = (f: TestSpecification) => {
      const i = ranked.findIndex((p) => f.moduleId.endsWith(p));
      return i < 0 ? ranked.length : i;
    };
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    setupFiles: ['simulator/test/setup.ts'],
    // Every temporary folder of a run (the tests' and their child processes') goes under one, removed at the end.
    globalSetup: ['simulator/test/scratch-dir.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    isolate: false,
    // vitest's default leaves one core of two idle; a third worker on two cores fills the time
    // files spend waiting on real sockets and real-time media (measured quiet: quick 59 -> 51 s,
    // whole 203 -> 165 s).
    maxWorkers: Math.max(3, availableParallelism()),
    sequence: { sequencer: LongestFirst },
    // Transformed modules kept on disk between runs (node_modules/.experimental-vitest-cache;
    // `npx vitest --clearCache` empties it): each worker's loading of the sources costs about
    // 2 s less CPU once warm (measured 6.4 -> 4.3 s for a one-file run). A fresh clone starts cold.
    experimental: { fsModuleCache: true },
    // `npm test` runs both groups as one project: a worker is reused only for a file of its own
    // project, so with two, each worker that finished a whole file while quick files were next was
    // stopped and a new one loaded every source again, and each project's Vite server transformed
    // them once more (a fresh clone's cold cache). Every other run keeps the two projects.
    ...(bothGroupsByNpmTest
      ? { include: ALL, exclude: [...configDefaults.exclude, ...PROVEN_IN_WHOLE] }
      : {
          projects: [
            { extends: true, test: { name: 'quick', include: ALL, exclude: [...configDefaults.exclude, ...WHOLE_SUITE_ONLY] } },
            { extends: true, test: { name: 'whole', include: WHOLE_SUITE_ONLY } },
          ],
        }),
  },
});
