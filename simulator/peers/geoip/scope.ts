// The scope the fake geo-IP database's control routes see (core/scope.ts): the database as
// `geoip`; and the definer of its operations.
import { scopedOperations } from '../../core/operation.ts';
import type { HandlerScope } from '../../core/scope.ts';
import type { GeoIp } from './model.ts';
import type { needs } from './ports.ts';

export type GeoIpScope = HandlerScope<'geoip', GeoIp, typeof needs>;

export const operation = scopedOperations<GeoIpScope>();
