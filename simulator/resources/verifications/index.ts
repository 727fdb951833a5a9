// The verifications family: one-time codes sent by text or call and checked against their hash.
// Behind its door: it needs the carrier, the account's numbers, subscriptions and opt-outs
// (ports.ts), declares its expiry job, and hands the runtime its table as its snapshot part.
import { defineFamily } from '../family.ts';
import { tablesPart } from '../../core/table-state.ts';
import { VerificationsModel } from './model.ts';
import { operations } from './routes.ts';
import { jobs, needs, type VerificationsModelScope } from './ports.ts';
import { VERIFICATION_IDS, VerificationsStateSchema } from './schema.ts';
import { examples } from './examples.ts';

/** Built on first use (decisions.md "Models built on first use"): the carrier's outcomes of codes reach it through `model()`. */
function wire(scope: VerificationsModelScope, model: () => VerificationsModel): void {
  scope.carrier.onOutcome('verification', (d) => model().carrierOutcome(d));
}

export const verifications = defineFamily({
  key: 'verifications',
  needs,
  jobs,
  create: (scope) => new VerificationsModel(scope),
  wire,
  state: tablesPart(VerificationsStateSchema, (m: VerificationsModel) => ({ verifications: m.rows })),
  operations,
  examples,
  tags: {
    Verifications: 'One-time codes sent by text or call and checked against their hash; the account comes from the API key.',
  },
  idFormats: VERIFICATION_IDS,
  carrierOwners: ['verification'],
});
