// Property tests run with a fixed seed (FC_SEED overrides it to replay or explore); fast-check
// prints the seed and the shrunk counterexample of any failure.
import fc from 'fast-check';
import { fileURLToPath } from 'node:url';

const seed = Number(process.env.FC_SEED ?? 20261121);
fc.configureGlobal({ seed, numRuns: Number(process.env.FC_RUNS ?? 100) });

// The speech peer keeps the lines it synthesised between runs (utterance-store.ts): every worker
// said the same sixty-odd lines again, about 2.5 s of CPU a run. Its key covers the speech sources
// and the engine's version, so a change there synthesises again; speech.test.ts asks the engine itself.
process.env.PLATFORM_SIM_SPEECH_CACHE ??= fileURLToPath(new URL('../../node_modules/.cache/platform-sim-speech', import.meta.url));

// Test files share a worker (isolate: false). A file that swaps a global and fails to put it back
// would break every later file in odd ways (a CI run once spent 15 minutes in timeouts); the first
// file records the originals and every later one checks them, naming the global that changed.
const current = {
  Date: globalThis.Date,
  'Date.now': Date.now,
  'Math.random': Math.random,
  'performance.now': performance.now,
  setTimeout: globalThis.setTimeout,
  setInterval: globalThis.setInterval,
};
const key = Symbol.for('simulator.test.originalGlobals');
const store = globalThis as unknown as Record<symbol, typeof current | undefined>;
const original = (store[key] ??= current);
for (const name of Object.keys(current) as (keyof typeof current)[]) {
  if (current[name] !== original[name]) throw new Error(`a previous test file left the global ${name} replaced`);
}
