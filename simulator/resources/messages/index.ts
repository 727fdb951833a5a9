// The messages family: outbound and inbound texts (sms, lms, mms), template messages (ata) and
// brand messages (bms). Behind its door: it needs the accounts, numbers, block lists, usage, the
// carrier and the image host (ports.ts), emits the message webhooks (events.ts), lets the
// messenger-channel family plug in its directory, and hands the runtime its four tables as its
// snapshot part (the quota and idempotency keys are rebuilt from the rows).
import { defineFamily } from '../family.ts';
import { tablesPart } from '../../core/table-state.ts';
import { OutboundRules } from '../../rules/outbound.ts';
import { MessagesModel } from './model.ts';
import { operations } from './routes.ts';
import { operations as control } from './control.ts';
import { MESSAGE_IDS, MessagesStateSchema } from './schema.ts';
import { messageEvents } from './events.ts';
import { messagesFixture } from './fixture.ts';
import { needs } from './ports.ts';
import { examples } from './examples.ts';

export const messages = defineFamily({
  key: 'messages',
  needs,
  events: messageEvents,
  create: (scope) => new MessagesModel(scope, new OutboundRules(scope)), // its numbers, accounts and blockLists are the rules' ports
  state: tablesPart(
    MessagesStateSchema,
    (m: MessagesModel) => ({ messages: m.messages, templates: m.templates.rows, brandTemplates: m.brandTemplates.rows, brandImages: m.brandImages.rows }),
    (m) => m.reindex(),
  ),
  fixture: messagesFixture,
  operations,
  examples,
  control,
  tags: {
    Messages: 'Text messages (sms, lms, mms) and messenger notification template messages (ata), sent through the carrier and received on the account\'s numbers.',
  },
  idFormats: MESSAGE_IDS,
  capabilities: ['kakao-templates', 'plans'], // plans: the monthly caps the sends enforce (the routes defining plans are the accounts')
  carrierOwners: ['message'],
});
