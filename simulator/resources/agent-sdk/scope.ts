// The scope the Agent SDK's route handlers and upgrade routes see (core/scope.ts): their model as
// `agentSdk`, and the ports, events and jobs the family declared (ports.ts); and the definer of
// their operations.
import type { HandlerScope } from '../../core/scope.ts';
import { scopedOperations } from '../../core/operation.ts';
import type { AgentSdk } from './family-model.ts';
import type { events, jobs, needs } from './ports.ts';

export type AgentSdkScope = HandlerScope<'agentSdk', AgentSdk, typeof needs, typeof events, typeof jobs>;

export const operation = scopedOperations<AgentSdkScope>();
