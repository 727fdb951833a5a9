// `npm run test:quick` runs the whole conformance suite (every scenario and property) against the
// in-process simulator, with lanes as the CLI runs it: any spec or sim failure fails the test, with the failures listed
// (whole-suite-verdict.ts). `npm test` leaves this file out: the wrong-server baseline is the same
// run (its requests recorded) and asserts the same verdict.
import { describe, it } from 'vitest';
import { DEFAULT_LANES } from '../run.ts';
import { simTarget } from '../target.ts';
import { runSuite, SEED } from './helpers.ts';
import { expectWholeSuitePassed } from './whole-suite-verdict.ts';

describe('the conformance suite against the in-process simulator', () => {
  it('passes every scenario and property at spec and sim level', async () => {
    // As the CLI runs it: units that wait on real time in a lane beside the others (the serial run
    // is the wrong-server baseline's; unit-lanes.test.ts shows both give the same results).
    expectWholeSuitePassed(await runSuite(simTarget({ seed: SEED }), { simLevel: 'fail', lanes: DEFAULT_LANES }));
  }, 180_000); // the whole suite: about 20 s alone, several times that beside other test files on two cores
});
