// The webhook delivery engine, a peer behind its door: every event of the whole feed on its way
// to the receivers that want it (account webhooks, which register themselves; routes others
// register, such as a call's statusCallback; a number's webhook for message.received), retried
// on the virtual clock, with its /_sim routes (control.ts). Its ports and retry job are declared
// in ports.ts; the runtime validates its snapshot part, and the engine requeues what was in
// flight after a restore. Listed after accounts: its snapshot lists every account's signing key.
import { ownPart } from '../../core/table-state.ts';
import { defineFamily } from '../../resources/family.ts';
import { WebhookEngine } from './engine.ts';
import { operations as control } from './control.ts';
import { jobs, needs } from './ports.ts';
import { EngineStateSchema, type EngineState } from './schema.ts';

export const webhookEngine = defineFamily({
  key: 'webhookEngine',
  snapshotKey: 'webhookDeliveries',
  needs,
  jobs,
  create: (scope) => new WebhookEngine(scope),
  state: ownPart<EngineState, WebhookEngine>(EngineStateSchema),
  control,
  capabilities: ['webhooks'],
});
