// Checks every outbound send shares, texts and verification codes alike: the two parties in
// domestic notation with the sender owned by the account, an active subscription, and the
// recipient not opted out on the channel (spec error table; guides "Sender must be owned").
import { normalizePhone } from '../../core/phone.ts';
import type { Runtime } from '../../runtime.ts';
import { messageErrors as E } from './errors.ts';

/** Normalises a number and requires the account to own it (400 from_not_registered). */
export function ownedSender(rt: Runtime, accountId: string, raw: string, field: string): string {
  const from = normalizePhone(raw, field);
  if (rt.numbers.ownerOf(from) !== accountId) {
    const message = `${field} ${from} is not a number of this account; send from one of its numbers`;
    throw E.FROM_NOT_REGISTERED(message, { errors: [{ path: field, message }] });
  }
  return from;
}

export function requireSubscription(rt: Runtime, accountId: string): void {
  if (!rt.accounts.subscriptionActive(accountId)) throw E.NO_SUBSCRIPTION(`account ${accountId} has no active subscription`);
}

export function refuseOptedOut(rt: Runtime, accountId: string, to: string, channel: 'message' | 'call'): void {
  if (rt.blockLists.isRecipientBlocked(accountId, to, channel)) {
    throw E.RECIPIENT_BLOCKED(`${to} is on this account's opt-out list for the ${channel} channel; release the entry before sending`);
  }
}

/** The assignment link the account's number was issued through, for usage (spec usage rule 7). */
export function linkIdOf(rt: Runtime, accountId: string, number: string): string | null {
  const open = rt.numbers.assignments.find((a) => a.number === number && a.accountId === accountId && a.to === null);
  return open?.linkId ?? null;
}
