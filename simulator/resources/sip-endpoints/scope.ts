// The scope the SIP endpoints' route handlers see (core/scope.ts): their model as `sipEndpoints`,
// and the ports the family declared (ports.ts); and the definer of their operations.
import type { HandlerScope } from '../../core/scope.ts';
import { scopedOperations } from '../../core/operation.ts';
import type { SipEndpointsModel } from './model.ts';
import type { needs } from './ports.ts';

export type SipEndpointsScope = HandlerScope<'sipEndpoints', SipEndpointsModel, typeof needs>;

export const operation = scopedOperations<SipEndpointsScope>();
