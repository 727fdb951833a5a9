// The messenger-channel family: the account's connections to business channels at the messenger.
import type { Family } from '../family.ts';
import { KakaoChannelsModel } from './model.ts';
import { operations } from './routes.ts';
import { KAKAO_CHANNEL_IDS } from './schema.ts';
import { examples } from './examples.ts';

export const kakaoChannels: Family<'kakaoChannels', KakaoChannelsModel> = {
  key: 'kakaoChannels',
  create: (rt) => new KakaoChannelsModel(rt),
  operations,
  examples,
  tags: {
    'Kakao channels': 'Messenger business channels connected to the account (a token sent to a channel manager\'s phone proves control); template messages (ata) go out through them.',
  },
  idFormats: KAKAO_CHANNEL_IDS,
};
