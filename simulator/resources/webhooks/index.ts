// The webhooks family: account webhooks (which events go to which URL) and their delivery logs.
// Delivering them is the webhook engine's (peers/webhooks), listed as its own entry.
import type { Family } from '../family.ts';
import { webhookEvents } from '../../core/events.ts';
import { WebhooksModel } from './model.ts';
import { operations } from './routes.ts';
import { WEBHOOK_IDS } from './schema.ts';

export const webhooks: Family<'webhooks', WebhooksModel> = {
  key: 'webhooks',
  create: (rt) => new WebhooksModel(rt, rt.listed.events),
  operations,
  tags: {
    Webhooks: 'Account webhooks: which events go to which URL, their delivery logs and a test send. Deliveries are form-encoded, signed with X-Signature, and retried until a 2xx answer.',
  },
  idFormats: WEBHOOK_IDS,
  // Named by the public API document; the families that emit them (transcripts, recordings,
  // agents) move them into their own descriptors (with their payloads' schemas) when they move;
  // agent.connected and agent.disconnected are the Agent SDK family's.
  events: webhookEvents(
    'transcript.completed', 'transcript.failed', 'summary.completed', 'summary.failed', 'recording.completed', 'recording.failed',
  ),
};
