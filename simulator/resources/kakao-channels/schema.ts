// Wire shapes of messenger channel connections (the public API document's KakaoChannel, token
// request and category list) and their stored form.
import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Nullable, PhoneNumber, StringEnum } from '../../core/schema.ts';
import { ListMetaSchema } from '../../core/paging.ts';
import type { IdFormat } from '../../core/ids.ts';

/** Id formats of this family's rows (core/ids.ts; listed in resources/index.ts). */
export const KAKAO_CHANNEL_IDS = {
  kakaoChannel: { prefix: 'kch_', hex: 24 },
} as const satisfies Record<string, IdFormat>;

export const CHANNEL_STATUSES = ['connected', 'needs_attention'] as const;

export const KakaoChannel = Type.Object(
  {
    id: Type.String({ description: 'The connection\'s id.' }),
    channelId: Type.String({ description: 'The messenger\'s channel id; the path parameter of get and delete.' }),
    searchId: Type.String({ description: 'Without "@".' }),
    name: Type.String(),
    categoryCode: Type.String(),
    status: StringEnum(CHANNEL_STATUSES, { description: 'connected; needs_attention when the last check at the messenger failed or found the channel gone.' }),
    managerPhoneMasked: Nullable(Type.String({ description: 'The manager phone that confirmed the connection, middle digits hidden.' })),
    connectedAt: DateTime(),
    syncedAt: Nullable(DateTime({ description: 'Last time the status was checked at the messenger (getKakaoChannel checks).' })),
    createdAt: DateTime(),
    updatedAt: DateTime(),
  },
  { $id: 'KakaoChannel', additionalProperties: false },
);
export type KakaoChannelWire = Static<typeof KakaoChannel>;

export const KakaoChannelRowSchema = Type.Composite([Type.Object({ accountId: Type.String() }), KakaoChannel], { additionalProperties: false });
export type KakaoChannelRow = Static<typeof KakaoChannelRowSchema>;
export const KakaoChannelsStateSchema = Type.Object({ channels: Type.Array(KakaoChannelRowSchema) }, { additionalProperties: false });
export type KakaoChannelsState = Static<typeof KakaoChannelsStateSchema>;

export const KakaoChannelList = Type.Object({ data: Type.Array(KakaoChannel), meta: ListMetaSchema }, { $id: 'KakaoChannelListResponse', additionalProperties: false });

export const KakaoCategoryList = Type.Object(
  {
    data: Type.Array(Type.Object({ code: Type.String(), name: Type.String() }, { additionalProperties: false })),
    // Not the paging envelope: the public document's meta says when the list came from the messenger.
    meta: Type.Object(
      {
        fetchedAt: DateTime({ description: 'When the list was fetched from the messenger.' }),
        cached: Type.Boolean({ description: 'Whether a cache answered; the simulator always asks the fake messenger, so false.' }),
      },
      { additionalProperties: false },
    ),
  },
  { $id: 'KakaoChannelCategoryListResponse', additionalProperties: false },
);

const searchId = Type.String({ minLength: 1, maxLength: 65, pattern: '^\\s*@?[A-Za-z0-9][A-Za-z0-9_.-]{0,63}\\s*$', description: 'The channel\'s search id: a letter or digit, then letters, digits, _ . - (64 at most); a leading "@" is dropped, compared lowercase.' });
const phoneNumber = PhoneNumber({ description: 'The channel manager\'s mobile phone; hyphens and +82 accepted.' });

export const TokenRequestBody = Type.Object({ searchId, phoneNumber }, { $id: 'KakaoChannelTokenRequest', additionalProperties: false });
export const TokenRequested = Type.Object(
  { requested: Type.Boolean(), searchId: Type.String(), phoneNumberMasked: Type.String(), retryAfterSeconds: Type.Integer({ description: 'Seconds before another token can be asked for.' }) },
  { $id: 'KakaoChannelTokenRequested', additionalProperties: false },
);
export const ConnectBody = Type.Object(
  {
    searchId,
    phoneNumber,
    categoryCode: Type.String({ minLength: 1, maxLength: 32, description: 'A code from listKakaoChannelCategories.' }),
    token: Type.String({ minLength: 1, maxLength: 16, description: 'The token the manager received.' }),
  },
  { $id: 'KakaoChannelCreateRequest', additionalProperties: false },
);
export type ConnectInput = Static<typeof ConnectBody>;

// --- notification templates as today's SDK lists them (docs/compatibility.md) ---

export const KakaoTemplateWire = Type.Object(
  {
    id: Type.String({ description: 'The template id; a message create sends it as Kakao.TemplateId.' }),
    channelId: Type.String({ description: 'The connection\'s own id when the channel is connected to the account, else the messenger\'s channel id; either is accepted as Kakao.ChannelId.' }),
    name: Type.String(),
    content: Type.String({ description: 'The reviewed text with #{variable} placeholders.' }),
    status: Type.String({ description: 'The messenger\'s review status (an open set): APPROVED, PENDING, REJECTED, DORMANT.' }),
    dormant: Type.Boolean(),
    sendable: Type.Boolean({ description: 'status APPROVED and not dormant: the authoritative "can send now".' }),
    assignType: Type.String({ description: 'CHANNEL (owned by the channel) or GROUP (provided); the simulator\'s templates are CHANNEL.' }),
    messageType: Type.String({ description: 'The messenger\'s message type; BA (basic) for every simulated template.' }),
    emphasizeType: Type.String({ description: 'NONE for every simulated template.' }),
    variables: Type.Array(Type.String(), { description: 'Every variable name a send must fill.' }),
    createdAt: DateTime(),
    updatedAt: DateTime(),
  },
  { $id: 'KakaoTemplate', additionalProperties: false },
);
export const KakaoTemplateList = Type.Object({ data: Type.Array(KakaoTemplateWire), meta: ListMetaSchema }, { $id: 'KakaoTemplateListResponse', additionalProperties: false });
