// The scope the carrier's control routes see (core/scope.ts): its model as `carrier`; and the
// definer of its operations.
import type { HandlerScope } from '../../core/scope.ts';
import { scopedOperations } from '../../core/operation.ts';
import type { Carrier } from './model.ts';
import type { jobs, needs } from './ports.ts';

export type CarrierScope = HandlerScope<'carrier', Carrier, typeof needs, {}, typeof jobs>;

export const operation = scopedOperations<CarrierScope>();
