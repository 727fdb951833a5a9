// The events the calls family emits. `call.status` carries a status callback's form fields (the
// webhook engine routes it to the call's StatusCallback, never to account webhooks);
// `callflow.ended` is the account webhook when a call that ran a flow ends (spec
// "callflow.ended"); `call.ended` is internal: the ended call's row, for the families that
// follow calls (recordings make the whole-call recording, call batches take their task's
// outcome); `call.recorded` is internal too: a record block's recording is over (recordings keep
// it). Both are heard in the order families subscribed, which is the order they are built in.
import { Type } from '@sinclair/typebox';
import { event, WebhookFields, type EventPayloads } from '../../core/events.ts';
import { CallRowSchema } from './schema.ts';

/** A record block's recording: the call it belongs to, the link it announced and its length. */
export const CallRecordedSchema = Type.Object(
  {
    call: Type.Object(
      { id: Type.String(), accountId: Type.String(), direction: Type.Union([Type.Literal('outbound'), Type.Literal('inbound')]), from: Type.String(), to: Type.String(), dateCreated: Type.String() },
      { additionalProperties: false },
    ),
    url: Type.String(),
    seconds: Type.Number(),
  },
  { additionalProperties: false },
);

export const callEvents = {
  'call.status': event(WebhookFields),
  'callflow.ended': event(WebhookFields, { subscribable: true }),
  'call.ended': event(CallRowSchema, { internal: true }),
  'call.recorded': event(CallRecordedSchema, { internal: true }),
};

declare module '../../core/events.ts' {
  interface EventCatalogue extends EventPayloads<typeof callEvents> {}
}
