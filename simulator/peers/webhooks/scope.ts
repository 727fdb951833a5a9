// The scope the webhook engine's control routes see (core/scope.ts): the engine as
// `webhookEngine`, and the ports and job it declared (ports.ts); and the definer of its
// operations.
import { scopedOperations } from '../../core/operation.ts';
import type { HandlerScope } from '../../core/scope.ts';
import type { WebhookEngine } from './engine.ts';
import type { jobs, needs } from './ports.ts';

export type EngineScope = HandlerScope<'webhookEngine', WebhookEngine, typeof needs, {}, typeof jobs>;

export const operation = scopedOperations<EngineScope>();
