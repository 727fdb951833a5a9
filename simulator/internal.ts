// NOT PUBLIC. White-box access to a simulator's runtime for this project's own tests, bench and
// CLI banner: poking a model, emitting a raw domain event, calling the pipeline without the
// entry's wrappers. Not in the package's `exports`, not covered by any compatibility promise,
// and never imported by the kit (conformance/ uses only simulator/index.ts). Everything a
// customer needs is on the entry (`snapshot()`, `restore()`, `control`, `webhooks`, `clock`)
// or the control plane (/_sim).
import type { Runtime } from './runtime.ts';
import type { Simulator } from './index.ts';

const runtimes = new WeakMap<Simulator, Runtime>();

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
