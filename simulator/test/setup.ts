// Property tests run with a fixed seed (FC_SEED overrides it to replay or explore); fast-check
// prints the seed and the shrunk counterexample of any failure.
import fc from 'fast-check';

const seed = Number(process.env.FC_SEED ?? 20261121);
fc.configureGlobal({ seed, numRuns: Number(process.env.FC_RUNS ?? 100) });
