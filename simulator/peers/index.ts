// The fake peers, described like the resource families: each has state the runtime builds and
// snapshots, control routes that script it, and what it adds to /_sim/health. They are entries
// of the one list in resources/index.ts, in their place in the snapshot order. A peer behind its
// door has its own folder and descriptor (peers/dns/index.ts); the rest are described here.
import type { Family } from '../resources/family.ts';
import { Carrier } from './carrier.ts';
import { operations as carrierControl } from '../control/carrier.ts';

/** Listed before the families that register for its outcomes (messages, verifications). */
export const carrier: Family<'carrier', Carrier> = {
  key: 'carrier',
  create: (rt) => new Carrier(rt, rt.listed.carrierOwners),
  control: carrierControl,
  capabilities: ['carrier'],
};
