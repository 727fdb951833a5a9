// Brand templates as the API shows them (today's SDK field names, docs/compatibility.md): rows of
// the messages family, listed by the messenger-channel family's route and planted through the
// messages' control plane.
import { Type } from '@sinclair/typebox';
import { DateTime, Nullable } from '../../core/schema.ts';
import type { BrandTemplateRow } from './schema.ts';

export const BrandTemplate = Type.Object(
  {
    id: Type.String({ description: 'Send it as Brand.TemplateId.' }),
    channelId: Type.String({ description: 'The connection\'s own id when the channel is connected, else the messenger\'s channel id.' }),
    name: Type.String(),
    chatBubbleType: Type.String({ description: 'An open set: TEXT, IMAGE, WIDE, WIDE_ITEM_LIST, CAROUSEL_FEED, COMMERCE, CAROUSEL_COMMERCE.' }),
    content: Nullable(Type.String({ description: 'Only TEXT, IMAGE and WIDE bubbles have a text slot.' })),
    header: Nullable(Type.String({ description: 'WIDE_ITEM_LIST only.' })),
    variables: Type.Array(Type.String()),
    createdAt: DateTime(),
    updatedAt: DateTime(),
  },
  { $id: 'KakaoBrandTemplate', additionalProperties: false },
);

export function brandTemplateWire(t: BrandTemplateRow) {
  return {
    id: t.id,
    channelId: t.channelId,
    name: t.name,
    chatBubbleType: t.chatBubbleType,
    content: t.content,
    header: t.header,
    variables: t.variables,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
  };
}
