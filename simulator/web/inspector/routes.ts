// The inspector (GET /_sim/ui) and what only it needs from the control plane: the live feed of
// domain events and clock moves (server-sent events) and the list of pending clock jobs. The
// page itself holds no data, so it is served without the control-plane token; everything it
// shows is read with the token the person enters (docs/control-plane.md, "Inspector").
import { Type } from '@sinclair/typebox';
import { reply, scopedOperations, type EventStream } from '../../core/operation.ts';
import { iso, type VirtualClock } from '../../core/clock.ts';
import type { DomainEvents } from '../../core/events.ts';
import { inspectorPage } from './page.ts';

const TAG = 'Control plane';

/** What the inspector reads: the whole event feed, the clock and the families' section scripts (the runtime offers them). */
export interface InspectorScope {
  readonly events: Pick<DomainEvents, 'subscribe'>;
  readonly clock: Pick<VirtualClock, 'watch' | 'pendingJobs'>;
  readonly inspectorSections: readonly string[];
}

const operation = scopedOperations<InspectorScope>();

/** One server-sent event: a name and one line of JSON. */
function sse(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** Domain events (what happened, not the payload) and clock moves, as they occur. */
export function liveFeed(scope: InspectorScope): EventStream {
  return {
    open(write) {
      const offEvents = scope.events.subscribe((e) => write(sse('domain', { type: e.type, accountId: e.accountId, resourceId: e.resourceId, at: iso(e.at) })));
      const offClock = scope.clock.watch((now) => write(sse('clock', { now: iso(now) })));
      return () => {
        offEvents();
        offClock();
      };
    },
  };
}

const Job = Type.Object(
  { id: Type.Integer(), due: Type.String({ format: 'date-time' }), kind: Type.String({ description: 'What the job does, e.g. carrier.deliver or webhooks.attempt.' }) },
  { additionalProperties: false },
);

export const operations = [
  operation({
    operationId: 'simInspector',
    method: 'GET',
    path: '/_sim/ui',
    tag: TAG,
    summary: 'The inspector: accounts, messages, phones, calls, webhooks, DNS and the clock in a browser',
    description: 'A page without data; it asks for the control-plane token when one is set and reads everything through the control plane and the API. Nothing it does changes state but its clock buttons.',
    origin: 'simulator',
    auth: 'none',
    responses: { 200: { description: 'The page.', contentType: 'text/html' } },
    handler: ({ scope }) => ({ status: 200, headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }, raw: inspectorPage(scope.inspectorSections) }),
  }),
  operation({
    operationId: 'simEvents',
    method: 'GET',
    path: '/_sim/events',
    tag: TAG,
    summary: 'Server-sent events: every domain event (type, accountId, resourceId, at) and every clock move (now)',
    description: 'The stream stays open; event names are `domain` and `clock`. Payloads are not included: read the resource through the API. In-process (`sim.handle`), the answer carries `stream` to subscribe to.',
    origin: 'simulator',
    auth: 'control',
    responses: { 200: { description: 'An event stream.', contentType: 'text/event-stream' } },
    handler: ({ scope }) => ({
      status: 200,
      headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-accel-buffering': 'no' },
      raw: ': connected\n\n',
      stream: liveFeed(scope),
    }),
  }),
  operation({
    operationId: 'simListClockJobs',
    method: 'GET',
    path: '/_sim/clock/jobs',
    tag: TAG,
    summary: 'Pending clock jobs in the order they will run (due time, then creation)',
    origin: 'simulator',
    auth: 'control',
    responses: { 200: { description: 'The jobs.', schema: Type.Object({ data: Type.Array(Job) }, { additionalProperties: false }) } },
    handler: ({ scope }) => reply.ok({ data: scope.clock.pendingJobs().map((j) => ({ id: j.id, due: iso(j.due), kind: j.kind })) }),
  }),
];
