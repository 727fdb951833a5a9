// Domain events: models announce what happened (a message was sent, a call ended...) without
// knowing who listens. The webhook engine and the inspector subscribe; emitting with no
// subscriber is a no-op, so a model can emit before its consumers exist.

export interface DomainEvent {
  type: string; // the wire event name, e.g. "message.sent"
  accountId: string;
  resourceId: string; // the id receivers key on (CallId, MessageId, LinkId...)
  at: number; // virtual instant (ms)
  payload: Record<string, unknown>;
}

export type EventListener = (event: DomainEvent) => void;

export class DomainEvents {
  private readonly listeners: EventListener[] = [];

  subscribe(listener: EventListener): () => void {
    this.listeners.push(listener);
    return () => {
      const i = this.listeners.indexOf(listener);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }

  emit(event: DomainEvent): void {
    for (const l of this.listeners) l(event);
  }
}
