// NOT PUBLIC. White-box access to a simulator's runtime for this project's own tests, bench and
// CLI banner: poking a model, emitting a raw domain event, calling the pipeline without the
// entry's wrappers. Not in the package's `exports`, not covered by any compatibility promise,
// and never imported by the kit (conformance/ uses only simulator/index.ts). Everything a
// customer needs is on the entry (`snapshot()`, `restore()`, `control`, `webhooks`, `clock`)
// or the control plane (/_sim).
import type { Runtime } from './runtime.ts';
import type { Simulator } from './index.ts';

const runtimes = new WeakMap<Simulator, Runtime>();
const crashes = new WeakMap<Simulator, () => void>();

/** createSimulator records the runtime behind each simulator it makes. */
export function registerRuntime(sim: Simulator, rt: Runtime): void {
  runtimes.set(sim, rt);
}

/** The runtime behind a simulator made by createSimulator. */
export function runtimeOf(sim: Simulator): Runtime {
  const rt = runtimes.get(sim);
  if (!rt) throw new Error('not a simulator made by createSimulator()');
  return rt;
}

/** createSimulator records how a simulator with a state dir stops writing it as a crash would. */
export function registerCrash(sim: Simulator, crash: () => void): void {
  crashes.set(sim, crash);
}

/**
 * What a kill -9 leaves, in process (tests): the state dir stops being written at once, without a
 * last snapshot, and its lock is let go; close() the simulator afterwards to free its sockets.
 */
export function crashStateDir(sim: Simulator): void {
  const crash = crashes.get(sim);
  if (!crash) throw new Error('not a simulator with a state dir');
  crash();
}
