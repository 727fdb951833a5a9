// The event the assignment-links family emits: assignment.completed, when a session's finalize
// issued the number (an account webhook; its payload is the webhook's form fields).
import { Type } from '@sinclair/typebox';
import { event, type EventPayloads } from '../../core/events.ts';

export const AssignmentCompletedFields = Type.Object(
  {
    Event: Type.Literal('assignment.completed'),
    AccountId: Type.String(),
    LinkId: Type.String(),
    Note: Type.String({ description: 'The link\'s note; "" when it has none.' }),
    PhoneNumber: Type.String({ description: 'The number issued.' }),
    Timestamp: Type.String({ description: 'When the link was consumed.' }),
  },
  { additionalProperties: false, description: 'The assignment.completed webhook\'s form fields, by wire name.' },
);

export const assignmentEvents = {
  'assignment.completed': event(AssignmentCompletedFields, { subscribable: true }),
};

declare module '../../core/events.ts' {
  interface EventCatalogue extends EventPayloads<typeof assignmentEvents> {}
}
