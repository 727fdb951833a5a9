// The events the calls family emits. `call.status` carries a status callback's form fields (the
// webhook engine routes it to the call's StatusCallback, never to account webhooks);
// `callflow.ended` is the account webhook when a call that ran a flow ends (spec
// "callflow.ended"); `call.ended` is internal: the ended call's row, for the families that
// follow calls (call batches take their task's outcome from it).
import { event, WebhookFields, type EventPayloads } from '../../core/events.ts';
import { CallRowSchema } from './schema.ts';

export const callEvents = {
  'call.status': event(WebhookFields),
  'callflow.ended': event(WebhookFields, { subscribable: true }),
  'call.ended': event(CallRowSchema, { internal: true }),
};

declare module '../../core/events.ts' {
  interface EventCatalogue extends EventPayloads<typeof callEvents> {}
}
