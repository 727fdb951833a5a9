// The scope the SIP server's control routes see (core/scope.ts): its model as `sipServer`, and
// the ports it declared (ports.ts); and the definer of its operations.
import type { HandlerScope } from '../../core/scope.ts';
import { scopedOperations } from '../../core/operation.ts';
import type { SipServerModel } from './model.ts';
import type { jobs, needs } from './ports.ts';

export type SipServerScope = HandlerScope<'sipServer', SipServerModel, typeof needs, {}, typeof jobs>;

export const operation = scopedOperations<SipServerScope>();
