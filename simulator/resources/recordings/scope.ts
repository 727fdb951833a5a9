// The scope the recordings' route handlers see (core/scope.ts): their model as `recordings`,
// and the ports, events and jobs the family declared (ports.ts, events.ts); and the definer of
// their operations.
import type { HandlerScope } from '../../core/scope.ts';
import { scopedOperations } from '../../core/operation.ts';
import type { RecordingsModel } from './model.ts';
import type { jobs, needs } from './ports.ts';
import type { recordingEvents } from './events.ts';

export type RecordingsScope = HandlerScope<'recordings', RecordingsModel, typeof needs, typeof recordingEvents, typeof jobs>;

export const operation = scopedOperations<RecordingsScope>();
