// The fake geo-IP database, a peer behind its door: the addresses tests judge foreign through
// its /_sim routes (control.ts), read by the request pipeline for the overseas refusal (spec
// Authentication 3). It needs nobody; the runtime validates a snapshot's part before the model
// reads it back.
import { ownPart } from '../../core/table-state.ts';
import { defineFamily } from '../../resources/family.ts';
import { GeoIp, GeoIpStateSchema, type GeoIpState } from './model.ts';
import { operations as control } from './control.ts';
import { needs } from './ports.ts';

export const geoip = defineFamily({
  key: 'geoip',
  needs,
  create: () => new GeoIp(),
  state: ownPart<GeoIpState, GeoIp>(GeoIpStateSchema),
  control,
  capabilities: ['geoip'],
});
