// Mobile gateways (simulated): enroll tokens, boxes that call home with a WireGuard key, and the
// verification of their phone's number. No needs; its three tables are its snapshot part.
import { defineFamily } from '../family.ts';
import { tablesPart } from '../../core/table-state.ts';
import { MobileGatewaysModel } from './model.ts';
import { operations } from './routes.ts';
import { examples } from './examples.ts';
import { operations as control } from './control.ts';
import { MOBILE_GATEWAY_IDS, MobileGatewaysStateSchema } from './schema.ts';

export const mobileGateways = defineFamily({
  key: 'mobileGateways',
  needs: {},
  create: (scope) => new MobileGatewaysModel(scope),
  state: tablesPart(MobileGatewaysStateSchema, (m: MobileGatewaysModel) => ({ tokens: m.tokens, gateways: m.gateways, sessions: m.sessions })),
  operations,
  examples,
  control,
  tags: { 'Mobile gateways': 'Boxes with a Bluetooth-paired phone that enroll over a WireGuard tunnel and prove their number by a text (simulated: no tunnel or box exists).' },
  idFormats: MOBILE_GATEWAY_IDS,
  capabilities: ['mobile-gateways'],
});
