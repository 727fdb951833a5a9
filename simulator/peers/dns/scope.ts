// The scope the fake DNS's control routes see (core/scope.ts): the zone as `dns`; and the
// definer of its operations.
import { scopedOperations } from '../../core/operation.ts';
import type { HandlerScope } from '../../core/scope.ts';
import type { FakeDns } from './model.ts';
import type { needs } from './ports.ts';

export type DnsScope = HandlerScope<'dns', FakeDns, typeof needs>;

export const operation = scopedOperations<DnsScope>();
