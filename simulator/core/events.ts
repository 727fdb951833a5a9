// Domain events: models announce what happened (a message was sent, a call ended...) without
// knowing who listens. Each event is declared by the family that emits it, with the schema of its
// payload (its events.ts): the declaration joins `EventCatalogue` by declaration merging, so
// `emit` and `on` are checked by the compiler and removing a family removes its events.
// Whole-feed subscribers (the webhook engine, the inspector) hear every event but internal ones;
// listeners of one type (`on`) hear that type, internal or not, in the same order as everyone
// else. Emitting with no listener is a no-op, so a model can emit before its consumers exist.
import { Type, type Static, type TSchema } from '@sinclair/typebox';

export interface DomainEvent<P = Record<string, unknown>> {
  type: string; // the wire event name, e.g. "message.sent"
  accountId: string;
  resourceId: string; // the id receivers key on (CallId, MessageId, LinkId...)
  at: number; // virtual instant (ms)
  payload: P;
}

/**
 * Each declared event's payload type, by name. Empty here; a family that emits events adds them:
 * `declare module '.../core/events.ts' { interface EventCatalogue extends EventPayloads<typeof events> {} }`.
 */
export interface EventCatalogue {}

export type EventName = keyof EventCatalogue & string;

/** What the emitting family declares about one event. */
export interface EventDecl<S extends TSchema = TSchema> {
  /** The payload's schema: the webhook's form fields for a wire event, the row for an internal one. */
  payload: S;
  /** Accounts may subscribe webhooks to it: it joins the webhook event enum (in list order). */
  subscribable?: boolean;
  /** A fact between families, heard only by listeners of its type, never by the whole feed (no webhook, no inspector line). */
  internal?: boolean;
}

export type EventDecls = Readonly<Record<string, EventDecl>>;

/** The payload types of a family's declarations, for merging into `EventCatalogue`. */
export type EventPayloads<E extends EventDecls> = { [K in keyof E]: Static<E[K]['payload']> };

/** The payload of a webhook event whose fields are not declared one by one yet: its form fields by wire name. */
export const WebhookFields = Type.Record(Type.String(), Type.Unknown(), { description: 'The webhook\'s form fields, by wire name.' });

/** Declares an event: `event(MessageEventFields, { subscribable: true })`. */
export function event<S extends TSchema>(payload: S, options: Omit<EventDecl<S>, 'payload'> = {}): EventDecl<S> {
  return { payload, ...options };
}

/** Subscribable webhook events whose fields are not declared one by one yet, in the order given. */
export function webhookEvents<const N extends readonly string[]>(...names: N): { readonly [K in N[number]]: EventDecl<typeof WebhookFields> } {
  return Object.fromEntries(names.map((n) => [n, event(WebhookFields, { subscribable: true })])) as { [K in N[number]]: EventDecl<typeof WebhookFields> };
}

export type EventListener = (event: DomainEvent) => void;

interface Listener {
  /** undefined: the whole feed (every event that is not internal). */
  type: string | undefined;
  hear: EventListener;
}

export class DomainEvents {
  private readonly listeners: Listener[] = [];

  /** Hears every event that is not internal (webhook engine, inspector); returns the unsubscribe. */
  subscribe(listener: EventListener): () => void {
    return this.add({ type: undefined, hear: listener });
  }

  /** Hears the events of one type, internal ones included; returns the unsubscribe. */
  on(type: string, listener: EventListener): () => void {
    return this.add({ type, hear: listener });
  }

  /** Tells the listeners in the order they came; `internal` events skip the whole feed. */
  emit(event: DomainEvent, internal = false): void {
    for (const l of this.listeners) {
      if (l.type === undefined ? !internal : l.type === event.type) l.hear(event);
    }
  }

  private add(listener: Listener): () => void {
    this.listeners.push(listener);
    return () => {
      const i = this.listeners.indexOf(listener);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }
}
