// The fake carrier behind its door: texts, calls and verification calls handed over, their
// outcomes on the virtual clock, and the phones behind them (peers/carrier/). It needs nobody;
// its snapshot part is validated against the carrier owners the list declares (a restored
// delivery names one of them). Listed before the families that register for its outcomes.
import { ownPart } from '../../core/table-state.ts';
import { defineFamily } from '../../resources/family.ts';
import { Carrier } from './model.ts';
import { operations as control } from './control.ts';
import { jobs, needs } from './ports.ts';
import { carrierStateSchema, type CarrierState } from './schema.ts';

export const carrier = defineFamily({
  key: 'carrier',
  needs,
  jobs,
  create: (scope) => new Carrier(scope),
  state: ownPart<CarrierState, Carrier>((names) => carrierStateSchema(names.carrierOwners)),
  control,
  capabilities: ['carrier'],
});
