// The SIP endpoint family: the account's SIP endpoints and their origination routes. Behind its
// door: it needs the add-on check and the numbers that route to an endpoint (ports.ts), answers
// the `sipEndpoint` reference numbers make, and hands the runtime its two tables as its
// snapshot part.
import { defineFamily } from '../family.ts';
import { tablesPart } from '../../core/table-state.ts';
import { SipEndpointsModel } from './model.ts';
import { operations } from './routes.ts';
import { needs, type SipEndpointsModelScope } from './ports.ts';
import { SIP_ENDPOINT_IDS, SipEndpointsStateSchema } from './schema.ts';
import { examples } from './examples.ts';

/** Built on first use (decisions.md "Models built on first use"): a model not built holds no endpoint, so a reference finds none. */
function wire(scope: SipEndpointsModelScope, _model: () => SipEndpointsModel, ifBuilt: () => SipEndpointsModel | undefined): void {
  scope.refs.register('sipEndpoint', (accountId, id) => ifBuilt()?.referenceState(accountId, id) ?? false);
}

export const sipEndpoints = defineFamily({
  key: 'sipEndpoints',
  needs,
  create: (scope) => new SipEndpointsModel(scope),
  wire,
  state: tablesPart(SipEndpointsStateSchema, (m: SipEndpointsModel) => ({ endpoints: m.endpoints, routes: m.routes })),
  operations,
  examples,
  tags: {
    'SIP endpoints': 'The account\'s SIP endpoints and their origination routes (`sip:` URIs tried by priority, shared by weight); a number can route its inbound calls to an endpoint.',
  },
  idFormats: SIP_ENDPOINT_IDS,
  refKinds: ['sipEndpoint'],
});
