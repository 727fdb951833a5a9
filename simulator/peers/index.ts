// The fake peers, described like the resource families: each has state the runtime builds and
// snapshots, control routes that script it, and what it adds to /_sim/health. They are entries
// of the one list in resources/index.ts, in their place in the snapshot order. A peer behind its
// door has its own folder and descriptor (peers/dns/index.ts); the rest are described here.
import type { Family } from '../resources/family.ts';
import { messengerFixture } from './messenger-fixture.ts';
import { GeoIp } from './geoip.ts';
import { FakeImageHost } from './image-host.ts';
import { FakeMessenger } from './messenger.ts';
import { Carrier } from './carrier.ts';
import { WebhookEngine } from './webhooks/engine.ts';
import { FakeIdentityProvider, KYC_IDS } from './kyc.ts';
import { operations as geoipControl } from '../control/geoip.ts';
import { operations as imageHostControl } from '../control/image-host.ts';
import { operations as messengerControl } from '../control/messenger.ts';
import { operations as carrierControl } from '../control/carrier.ts';
import { operations as webhookControl } from '../control/webhooks.ts';
import { kycOperations as kycControl } from '../control/assignment.ts';

export const geoip: Family<'geoip', GeoIp> = {
  key: 'geoip',
  create: () => new GeoIp(),
  control: geoipControl,
  capabilities: ['geoip'],
};

export const imageHost: Family<'imageHost', FakeImageHost> = {
  key: 'imageHost',
  create: () => new FakeImageHost(),
  control: imageHostControl,
  capabilities: ['images'],
};

export const messenger: Family<'messenger', FakeMessenger> = {
  key: 'messenger',
  create: (rt) => new FakeMessenger(rt),
  control: messengerControl,
  capabilities: ['messenger'],
  fixture: messengerFixture,
};

/** Listed before the families that register for its outcomes (messages, verifications). */
export const carrier: Family<'carrier', Carrier> = {
  key: 'carrier',
  create: (rt) => new Carrier(rt, rt.listed.carrierOwners),
  control: carrierControl,
  capabilities: ['carrier'],
};

/** Listed after accounts: its snapshot lists every account's signing key. */
export const webhookEngine: Family<'webhookEngine', WebhookEngine> = {
  key: 'webhookEngine',
  snapshotKey: 'webhookDeliveries',
  create: (rt) => new WebhookEngine(rt),
  control: webhookControl,
  capabilities: ['webhooks'],
};

/** The end user's identity check behind assignment links; listed before the links that use it. */
export const kyc: Family<'kyc', FakeIdentityProvider> = {
  key: 'kyc',
  create: (rt) => new FakeIdentityProvider(rt),
  control: kycControl,
  idFormats: KYC_IDS,
  capabilities: ['kyc'],
};
