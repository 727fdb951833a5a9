// The scope the SIP authentication's route handlers see (core/scope.ts): their model as
// `sipAuth`, and the ports the family declared (ports.ts); and the definer of their operations.
import type { HandlerScope } from '../../core/scope.ts';
import { scopedOperations } from '../../core/operation.ts';
import type { SipAuthModel } from './model.ts';
import type { needs } from './ports.ts';

export type SipAuthScope = HandlerScope<'sipAuth', SipAuthModel, typeof needs>;

export const operation = scopedOperations<SipAuthScope>();
