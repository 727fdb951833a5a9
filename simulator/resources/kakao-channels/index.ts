// The messenger-channel family: the account's connections to business channels at the messenger.
// Behind its door: it needs the fake messenger and the messages family (ports.ts), plugs its
// directory into messages, and hands the runtime its one table as its snapshot part.
import { defineFamily } from '../family.ts';
import { tablesPart } from '../../core/table-state.ts';
import { KakaoChannelsModel } from './model.ts';
import { operations } from './routes.ts';
import { needs, type KakaoChannelsModelScope } from './ports.ts';
import { KAKAO_CHANNEL_IDS, KakaoChannelsStateSchema } from './schema.ts';
import { examples } from './examples.ts';

/**
 * Built on first use (decisions.md "Models built on first use"): a sent ChannelId may name one
 * of our connections, which a model not built yet has none of, so the directory asks only a
 * built one.
 */
function wire(scope: KakaoChannelsModelScope, _model: () => KakaoChannelsModel, ifBuilt: () => KakaoChannelsModel | undefined): void {
  scope.messages.useChannelDirectory({ find: (accountId, id) => ifBuilt()?.find(accountId, id) });
}

export const kakaoChannels = defineFamily({
  key: 'kakaoChannels',
  needs,
  create: (scope) => new KakaoChannelsModel(scope),
  wire,
  state: tablesPart(KakaoChannelsStateSchema, (m: KakaoChannelsModel) => ({ channels: m.channels })),
  operations,
  examples,
  tags: {
    'Kakao channels': 'Messenger business channels connected to the account (a token sent to a channel manager\'s phone proves control); template messages (ata) go out through them.',
  },
  idFormats: KAKAO_CHANNEL_IDS,
});
