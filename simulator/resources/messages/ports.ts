// What the messages family needs from others, and what it lets others plug in (core/scope.ts).
// Texts go out through the carrier, which reports each outcome back to the owner "message"; MMS
// images come from the fake image host; the shared outbound checks (rules/outbound.ts) read
// number ownership, subscriptions and opt-outs; the account's plan, add-ons and operations bar
// set the monthly caps; every sent message leaves a usage entry, through the source it
// registers with usage. The messenger-channel family plugs its directory in the other way round
// (`useChannelDirectory`), so that messages never depend on it.
import { port, type ModelScope } from '../../core/scope.ts';
import type { DeliveryRow, SubmitInput } from '../../peers/carrier/schema.ts';
import type { Download } from '../../peers/image-host/model.ts';
import type { NumberOwnership, RecipientBlocks, Subscriptions } from '../../rules/outbound.ts';
import type { AccountRow, PlanRow } from '../accounts/schema.ts';
import type { UsageSource } from '../usage/schema.ts';
import type { messageEvents } from './events.ts';

/** The accounts family: existence, the subscription, the plan's caps, add-ons and the operations bar. */
export interface MessagingAccounts extends Subscriptions {
  require(accountId: string): unknown;
  get(accountId: string): Pick<AccountRow, 'messagingOps'> | undefined;
  plan(accountId: string): Pick<PlanRow, 'monthlyMessageQuota'>;
  hasAddon(accountId: string, addon: string): boolean;
}

/** The carrier: hands a text over, and tells the owner "message" how each delivery ended. */
export interface TextCarrier {
  submit(input: SubmitInput): unknown;
  onOutcome(owner: string, listener: (delivery: DeliveryRow) => void): void;
}

/** The fake image host: what a URL answers when the service downloads it. */
export interface ImageDownloads {
  download(url: string): Download;
}

/** Usage: where each family registers the entries it leaves. */
export interface UsageSources {
  register(source: UsageSource): void;
}

/**
 * The account's messenger channels, as the channel family knows them: a ChannelId as sent (the
 * connection's own id or the messenger's) to the messenger's channel id. Plugged in by that
 * family; without it a ChannelId is taken as the messenger's own.
 */
export interface ChannelDirectory {
  find(accountId: string, channelOrConnectionId: string): { channelId: string } | undefined;
}

export const needs = {
  accounts: port<MessagingAccounts>(),
  numbers: port<NumberOwnership>(),
  blockLists: port<RecipientBlocks>(),
  usage: port<UsageSources>(),
  carrier: port<TextCarrier>(),
  imageHost: port<ImageDownloads>(),
};

/** What the model is built from. */
export type MessagesModelScope = ModelScope<typeof needs, typeof messageEvents>;
