// The scope the webhooks' route handlers see (core/scope.ts): their model as `webhooks`, and the
// ports the family declared (ports.ts); and the definer of their operations.
import type { HandlerScope } from '../../core/scope.ts';
import { scopedOperations } from '../../core/operation.ts';
import type { WebhooksModel } from './model.ts';
import type { needs } from './ports.ts';

export type WebhooksScope = HandlerScope<'webhooks', WebhooksModel, typeof needs>;

export const operation = scopedOperations<WebhooksScope>();
