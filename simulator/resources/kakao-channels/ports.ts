// What the messenger-channel family needs from others (core/scope.ts): the fake messenger (the
// channels on its side, the tokens it sends a manager, its scripted failures) and the messages
// family, whose templates, brand templates and brand images its routes list (and whose templates
// on a channel go when the channel is disconnected). It plugs its own directory into messages, so
// that a sent ChannelId may name one of its connections, without messages depending on it.
import { port, type ModelScope } from '../../core/scope.ts';
import type { MessengerChannel } from '../../peers/messenger/model.ts';
import type { BrandImageRow, BrandTemplateRow, TemplateRow } from '../messages/schema.ts';

/** The fake messenger: its failure mode, its channels and managers, its tokens. */
export interface ChannelMessenger {
  /** Throws the scripted provider failure, if any. */
  call(): void;
  channel(searchId: string): Pick<MessengerChannel, 'channelId'> | undefined;
  requireManager(searchId: string, phoneNumber: string): Pick<MessengerChannel, 'channelId' | 'name'>;
  sendToken(searchId: string, phoneNumber: string): { retryAfterSeconds: number };
  useToken(searchId: string, phoneNumber: string, token: string): boolean;
}

/** The messages family: the rows filed under a channel, and where to plug in this family's directory. */
export interface ChannelMessages {
  templates: {
    list(accountId: string): readonly TemplateRow[];
    removeChannel(accountId: string, channelId: string): unknown;
  };
  brandTemplates: { list(accountId: string, channelId: string): readonly BrandTemplateRow[] };
  brandImages: {
    list(accountId: string): readonly BrandImageRow[];
    upload(accountId: string, input: { bytes: Uint8Array; bubbleType: string; slot: string; name: string | null }): BrandImageRow;
  };
  useChannelDirectory(directory: { find(accountId: string, channelOrConnectionId: string): { channelId: string } | undefined }): void;
}

export const needs = { messenger: port<ChannelMessenger>(), messages: port<ChannelMessages>() };

/** What the model is built from. */
export type KakaoChannelsModelScope = ModelScope<typeof needs>;
