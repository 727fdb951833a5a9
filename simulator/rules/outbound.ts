// Checks every outbound send shares (texts, verification codes, and calls to come): the sender
// in domestic notation and owned by the account, an active subscription, and the recipient not
// opted out on the channel (spec error table; guides "Sender must be owned"). A home of their
// own, so no family imports another's rules; each check takes only the ports it reads.
import { defineError } from '../core/errors.ts';
import { normalizePhone } from '../core/phone.ts';

export const outboundErrors = {
  FROM_NOT_REGISTERED: defineError({
    code: 'from_not_registered', status: 400, origin: 'reference',
    description: 'The sender (From / from) is not a number the account owns.',
  }),
  NO_SUBSCRIPTION: defineError({
    code: 'NO_SUBSCRIPTION', status: 422, origin: 'spec',
    description: 'The account has no active subscription.',
  }),
  RECIPIENT_BLOCKED: defineError({
    code: 'recipient_blocked', status: 422, origin: 'spec',
    description: 'The recipient is on the account\'s opt-out list for this channel; do not retry, release the entry first. Nothing is sent or stored.',
  }),
} as const;

/** Who holds a number, and through which assignment link (numbers family). */
export interface NumberOwnership {
  ownerOf(number: string): string | undefined;
  /** The assignment link the account's current holding of the number came through, if any. */
  openLinkOf(accountId: string, number: string): string | null;
}

/** Whether the account may send at all (accounts family). */
export interface Subscriptions {
  subscriptionActive(accountId: string): boolean;
}

/** The account's opt-out list (blocklists family). */
export interface RecipientBlocks {
  isRecipientBlocked(accountId: string, number: string, channel: 'message' | 'call'): boolean;
}

export interface OutboundPorts {
  numbers: NumberOwnership;
  accounts: Subscriptions;
  blockLists: RecipientBlocks;
}

/** The shared checks, bound to their ports once (the family descriptor wires them). */
export class OutboundRules {
  constructor(private readonly ports: OutboundPorts) {}

  /** Normalises a number and requires the account to own it (400 from_not_registered). */
  ownedSender(accountId: string, raw: string, field: string): string {
    const from = normalizePhone(raw, field);
    if (this.ports.numbers.ownerOf(from) !== accountId) {
      const message = `${field} ${from} is not a number of this account; send from one of its numbers`;
      throw outboundErrors.FROM_NOT_REGISTERED(message, { errors: [{ path: field, message }] });
    }
    return from;
  }

  requireSubscription(accountId: string): void {
    if (!this.ports.accounts.subscriptionActive(accountId)) throw outboundErrors.NO_SUBSCRIPTION(`account ${accountId} has no active subscription`);
  }

  refuseOptedOut(accountId: string, to: string, channel: 'message' | 'call'): void {
    if (this.ports.blockLists.isRecipientBlocked(accountId, to, channel)) {
      throw outboundErrors.RECIPIENT_BLOCKED(`${to} is on this account's opt-out list for the ${channel} channel; release the entry before sending`);
    }
  }

  /** The assignment link the account's number was issued through, for usage (spec usage rule 7). */
  linkIdOf(accountId: string, number: string): string | null {
    return this.ports.numbers.openLinkOf(accountId, number);
  }
}
