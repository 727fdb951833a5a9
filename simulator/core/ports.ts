// The kernel as the models see it: virtual clock, seeded random, domain events, cross-family
// references and the I/O barrier. A model names the parts it uses in its own ports interface
// (`Pick<Kernel, 'clock' | 'random'>` plus narrow views of other families); the runtime is
// passed for it, so `random`, which a reset replaces, must be read through the port each time.
import type { VirtualClock } from './clock.ts';
import type { SeededRandom } from './random.ts';
import type { DomainEvents } from './events.ts';
import type { References } from './refs.ts';
import type { IoBarrier } from './io.ts';

export interface Kernel {
  readonly clock: VirtualClock;
  readonly random: SeededRandom;
  readonly events: DomainEvents;
  readonly refs: References<string>;
  readonly io: IoBarrier;
}
