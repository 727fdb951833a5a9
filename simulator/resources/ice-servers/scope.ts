// The scope the ICE servers' route sees (core/scope.ts): its model as `iceServers`; and the
// definer of its operation.
import type { HandlerScope } from '../../core/scope.ts';
import { scopedOperations } from '../../core/operation.ts';
import type { IceServersModel } from './model.ts';

export type IceServersScope = HandlerScope<'iceServers', IceServersModel>;

export const operation = scopedOperations<IceServersScope>();
