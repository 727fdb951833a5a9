// What a brand message (type bms, docs/compatibility.md) puts on the wire: a brand template with
// its variables, or one free-form chat bubble, and nothing beside it (no Body, Subject, MediaUrl,
// Kakao or Fallback). Pure rules: the model passes the lookups in. The night rule is separate
// because it is judged after the content, subscription and opt-out checks.
import { ApiError } from '../../core/errors.ts';
import { messageErrors as E } from './errors.ts';
import { charCount, refuse, renderTemplate, type PlannedContent } from './content.ts';
import type { BrandImageRow, BrandTemplateRow, SendMessageInput } from './schema.ts';

/** The longest bubble text (ours: the messenger's own limit for a text bubble). */
export const BRAND_MAX_CHARS = 1300;
/** Bubble types whose image is required. */
const IMAGE_BUBBLES = ['IMAGE', 'WIDE'];

export interface BrandLookups {
  /** The messenger's channel id for a ChannelId as sent (our connection id or the messenger's). */
  channelId(sent: string): string;
  template(channelId: string, templateId: string): BrandTemplateRow | undefined;
  image(imageId: string): BrandImageRow | undefined;
}

/** Checks a send request that carries Brand (every 400 of it) and says what would be sent. */
export function planBrand(input: SendMessageInput, find: BrandLookups): PlannedContent {
  const brand = input.Brand!;
  if (input.Type && input.Type !== 'bms') refuse(E.KAKAO_TYPE_MISMATCH, 'Type', `Brand sends a bms message; omit Type or set it to bms (got ${input.Type})`);
  if (input.Fallback) refuse(E.KAKAO_FALLBACK_NOT_ALLOWED, 'Fallback', 'brand messages have no fallback text; drop Fallback');
  for (const field of ['Body', 'Subject', 'MediaUrl', 'Kakao'] as const) {
    if (input[field] !== undefined && input[field] !== null) refuse(E.KAKAO_FIELD_NOT_ALLOWED, field, `${field} cannot be sent beside Brand`);
  }
  const hasTemplate = brand.TemplateId !== undefined && brand.TemplateId !== null;
  const free = brand.Free ?? null;
  if (hasTemplate === (free !== null)) {
    throw ApiError.validation('Brand takes exactly one of TemplateId and Free', [{ path: 'Brand', message: hasTemplate ? 'both TemplateId and Free' : 'neither TemplateId nor Free' }]);
  }
  const channelId = find.channelId(brand.ChannelId);

  if (hasTemplate) {
    const template = find.template(channelId, brand.TemplateId!);
    if (!template) refuse(E.KAKAO_BRAND_TEMPLATE_NOT_FOUND, 'Brand.TemplateId', `the account has no brand template ${brand.TemplateId} on channel ${brand.ChannelId}`);
    const body = template.content === null ? null : renderTemplate({ body: template.content, variables: template.variables }, brand.Variables, 'Brand.Variables');
    if (body !== null && charCount(body) > BRAND_MAX_CHARS) refuse(E.BODY_TOO_LONG, 'Brand.Variables', `the rendered bubble is ${charCount(body)} characters; at most ${BRAND_MAX_CHARS}`);
    return brandContent(body, { channelId, templateId: template.id, chatBubbleType: template.chatBubbleType, imageId: null });
  }

  if (brand.Variables && Object.keys(brand.Variables).length > 0) {
    throw ApiError.validation('Brand.Variables fill a brand template; a Free bubble has none', [{ path: 'Brand.Variables', message: 'only with TemplateId' }]);
  }
  const bubble = free!.chatBubbleType;
  const content = free!.content ?? null;
  if (bubble === 'TEXT' && (content === null || content.trim() === '')) refuse(E.KAKAO_BRAND_BODY_EMPTY, 'Brand.Free.content', 'a TEXT bubble needs non-empty content');
  const imageId = free!.imageId ?? null;
  if (imageId === null && IMAGE_BUBBLES.includes(bubble)) refuse(E.KAKAO_BRAND_IMAGE_NOT_FOUND, 'Brand.Free.imageId', `a ${bubble} bubble needs imageId (upload the image with createKakaoBrandImage)`);
  if (imageId !== null && !find.image(imageId)) refuse(E.KAKAO_BRAND_IMAGE_NOT_FOUND, 'Brand.Free.imageId', `the account has no brand image ${imageId}`);
  return brandContent(content === '' ? null : content, { channelId, templateId: null, chatBubbleType: bubble, imageId });
}

function brandContent(body: string | null, brand: NonNullable<PlannedContent['brand']>): PlannedContent {
  return { type: 'bms', body, subject: null, mediaUrl: [], template: null, fallback: null, brand };
}

const KST_OFFSET_MINUTES = 9 * 60;
const NIGHT_FROM = 20 * 60 + 50; // 20:50 KST
const NIGHT_UNTIL = 8 * 60; // 08:00 KST

/** Whether `instantMs` falls in the brand-message night (20:50 to 08:00 Korea time, no DST). */
export function isBrandNight(instantMs: number): boolean {
  const minuteOfDay = (Math.floor(instantMs / 60_000) + KST_OFFSET_MINUTES) % 1440;
  return minuteOfDay >= NIGHT_FROM || minuteOfDay < NIGHT_UNTIL;
}
