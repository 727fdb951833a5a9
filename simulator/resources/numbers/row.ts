// A number as it is when an account first holds it: routing by webhook (representative numbers:
// forward only, an announcement until a target is set) and every target empty.
import { isRepresentativeNumber } from '../../core/phone.ts';
import type { NumberRow } from './schema.ts';

/** The row of a number the account holds from `createdAt`, with the defaults of a fresh number. */
export function newNumberRow(accountId: string, number: string, createdAt: string): NumberRow {
  return {
    id: number,
    accountId,
    source: 'pool',
    numberType: isRepresentativeNumber(number) ? 'representative' : 'did',
    // Representative numbers forward only; with no target yet callers hear an announcement.
    routingType: isRepresentativeNumber(number) ? 'forward' : 'webhook',
    webhookUrl: null,
    webhookMethod: 'POST',
    webhookHeaders: null,
    callContextUrl: null,
    statusCallback: null,
    statusCallbackEvents: null,
    agentId: null,
    callFlowId: null,
    forwardTo: null,
    sipEndpointId: null,
    sipCredentialId: null,
    dictionaryId: null,
    createdAt,
  };
}
