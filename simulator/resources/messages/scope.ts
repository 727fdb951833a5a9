// The scope the messages' route handlers see (core/scope.ts): their model as `messages`, and the
// ports and events the family declared (ports.ts, events.ts); and the definer of their operations.
import type { HandlerScope } from '../../core/scope.ts';
import { scopedOperations } from '../../core/operation.ts';
import type { MessagesModel } from './model.ts';
import type { needs } from './ports.ts';
import type { messageEvents } from './events.ts';

export type MessagesScope = HandlerScope<'messages', MessagesModel, typeof needs, typeof messageEvents>;

export const operation = scopedOperations<MessagesScope>();
