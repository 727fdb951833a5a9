// The scope the mobile gateways' routes see (core/scope.ts): their model as `mobileGateways`; and
// the definer of their operations.
import type { HandlerScope } from '../../core/scope.ts';
import { scopedOperations } from '../../core/operation.ts';
import type { MobileGatewaysModel } from './model.ts';

export type MobileGatewaysScope = HandlerScope<'mobileGateways', MobileGatewaysModel>;

export const operation = scopedOperations<MobileGatewaysScope>();
