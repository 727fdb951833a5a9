// The messages family: outbound and inbound texts (sms, lms, mms) and template messages (ata).
import type { Family } from '../family.ts';
import { OutboundRules } from '../../rules/outbound.ts';
import { MessagesModel } from './model.ts';
import { operations } from './routes.ts';
import { MESSAGE_IDS } from './schema.ts';
import { operations as control } from '../../control/messaging.ts';
import { examples } from './examples.ts';

export const messages: Family<'messages', MessagesModel> = {
  key: 'messages',
  create: (rt) => new MessagesModel(rt, new OutboundRules(rt)), // rt's numbers, accounts and blockLists are its ports
  operations,
  examples,
  control,
  tags: {
    Messages: 'Text messages (sms, lms, mms) and messenger notification template messages (ata), sent through the carrier and received on the account\'s numbers.',
  },
  idFormats: MESSAGE_IDS,
  events: ['message.sent', 'message.failed', 'message.received'],
  capabilities: ['kakao-templates', 'plans'],
  carrierOwners: ['message'],
};
