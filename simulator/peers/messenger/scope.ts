// The scope the fake messenger's control routes see (core/scope.ts): the messenger as
// `messenger`; and the definer of its operations.
import { scopedOperations } from '../../core/operation.ts';
import type { HandlerScope } from '../../core/scope.ts';
import type { FakeMessenger } from './model.ts';
import type { needs } from './ports.ts';

export type MessengerScope = HandlerScope<'messenger', FakeMessenger, typeof needs>;

export const operation = scopedOperations<MessengerScope>();
