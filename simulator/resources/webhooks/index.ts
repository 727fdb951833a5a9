// The webhooks family: account webhooks (which events go to which URL) and their delivery logs.
// Delivering them is the webhook engine's (peers/webhooks), listed as its own entry.
import type { Family } from '../family.ts';
import { registry } from '../index.ts';
import { WebhooksModel } from './model.ts';
import { operations } from './routes.ts';
import { WEBHOOK_IDS } from './schema.ts';
import { examples } from './examples.ts';

export const webhooks: Family<'webhooks', WebhooksModel> = {
  key: 'webhooks',
  create: (rt) => new WebhooksModel(rt, registry().events),
  operations,
  examples,
  tags: {
    Webhooks: 'Account webhooks: which events go to which URL, their delivery logs and a test send. Deliveries are form-encoded, signed with X-Signature, and retried until a 2xx answer.',
  },
  idFormats: WEBHOOK_IDS,
  // Named by the public API document; the families that emit them (calls, transcripts,
  // recordings, agents, assignments) move them into their own descriptors when they arrive.
  events: [
    'transcript.completed', 'transcript.failed', 'summary.completed', 'summary.failed', 'recording.completed', 'recording.failed',
    'agent.disconnected', 'agent.connected', 'callflow.ended',
  ],
};
