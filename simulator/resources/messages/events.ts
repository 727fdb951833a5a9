// The events the messages family emits: the message webhooks (guides 2a), whose payload is the
// webhook's form fields (MessageId, AccountId, From, To, Direction, Type, Status, Timestamp;
// received texts add Subject, Body, NumMedia and MediaUrl0...). Other families listen to them
// through their scope (call batches follow the texts they sent).
import { Type } from '@sinclair/typebox';
import { event, type EventPayloads } from '../../core/events.ts';

export const MessageWebhookFields = Type.Record(Type.String(), Type.String(), { description: 'The message webhook\'s form fields, by wire name.' });

export const messageEvents = {
  'message.sent': event(MessageWebhookFields, { subscribable: true }),
  'message.failed': event(MessageWebhookFields, { subscribable: true }),
  'message.received': event(MessageWebhookFields, { subscribable: true }),
};

declare module '../../core/events.ts' {
  interface EventCatalogue extends EventPayloads<typeof messageEvents> {}
}
