// The scope the block lists' route handlers see (core/scope.ts): their model as `blockLists`,
// and the ports the family declared (ports.ts); and the definer of their operations.
import type { HandlerScope } from '../../core/scope.ts';
import { scopedOperations } from '../../core/operation.ts';
import type { BlockListsModel } from './model.ts';
import type { needs } from './ports.ts';

export type BlockListsScope = HandlerScope<'blockLists', BlockListsModel, typeof needs>;

/** Defines one of the family's operations; its handler gets `ctx.scope`. */
export const operation = scopedOperations<BlockListsScope>();
