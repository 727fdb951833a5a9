// Brand-message assets as today's official SDK reaches them (docs/compatibility.md): the brand
// templates of a channel and the account's uploaded brand images. The public API document has
// none of these operations; paths and field names follow the SDK.
import { Type } from '@sinclair/typebox';
import { header, reply } from '../../core/operation.ts';
import { DateTime, Nullable, RequiredParam, StringEnum, StringEnumRefusedBy } from '../../core/schema.ts';
import { ListMetaSchema, pageOf, parsePaging, standardPagingParams, type PagingQuery } from '../../core/paging.ts';
import { messageErrors } from '../messages/errors.ts';
import { BRAND_IMAGE_MAX_BYTES, BRAND_IMAGE_SLOTS } from '../messages/brand-assets.ts';
import type { BrandImageRow, BrandTemplateRow } from '../messages/schema.ts';
import { BrandTemplate, brandTemplateWire } from '../messages/brand-wire.ts';
import { requiredChannelId } from './channel-query.ts';
import { operation } from './scope.ts';

const TAG = 'Kakao channels';
const BASIS = 'the official Node SDK calls it (docs/compatibility.md); the public API document has no such operation';
const account = { accountId: Type.String({ description: 'Account id.' }) };

const BrandImage = Type.Object(
  {
    id: Type.String({ description: 'Send it as Brand.Free.imageId.' }),
    bubbleType: Type.String(),
    slot: StringEnum(BRAND_IMAGE_SLOTS, { description: 'main, or sub for the small item images of a wide list.' }),
    name: Nullable(Type.String({ description: 'The file name the upload gave the image part; null when it gave none.' })),
    contentType: Type.String(),
    size: Type.Integer({ description: 'Bytes.' }),
    createdAt: DateTime(),
  },
  { $id: 'KakaoBrandImage', additionalProperties: false },
);

const INVALID = messageErrors.BRAND_IMAGE_INVALID.info.code;

/** The multipart form createKakaoBrandImage reads (documented; the handler parses and checks it). */
const BrandImageUpload = Type.Object(
  {
    image: Type.String({ contentMediaType: 'application/octet-stream', description: `The file part: a JPEG or PNG judged by its bytes, 1 to ${BRAND_IMAGE_MAX_BYTES} bytes (413 above). Its file name becomes the image's name.` }),
    bubbleType: Type.String({ minLength: 1, maxLength: 40, pattern: '\\S', not: { pattern: '^\\s*TEXT\\s*$' }, 'x-error-code': INVALID, description: 'The bubble the image is for: IMAGE, WIDE, WIDE_ITEM_LIST, CAROUSEL_FEED, ... (an open set); TEXT has no image.' }),
    slot: Type.Optional(StringEnumRefusedBy(INVALID, BRAND_IMAGE_SLOTS, { default: 'main', description: 'main (default) or sub, the small item image of a wide list.' })),
  },
  { required: ['image', 'bubbleType'] },
);

function brandImageWire(r: BrandImageRow) {
  return { id: r.id, bubbleType: r.bubbleType, slot: r.slot, name: r.name ?? null, contentType: r.contentType, size: r.size, createdAt: r.createdAt };
}

/** The parts of a multipart/form-data body (undici's WHATWG parser; no hand-written MIME code). */
async function formParts(body: string | Uint8Array | undefined, contentType: string | undefined): Promise<FormData> {
  const invalid = (why: string) => messageErrors.BRAND_IMAGE_INVALID(`send multipart/form-data with an image part: ${why}`, { errors: [{ path: 'image', message: why }] });
  if (!contentType || !/^multipart\/form-data\s*;/i.test(contentType)) throw invalid(`the content type is ${contentType ?? '(none)'}`);
  try {
    return await new Response(body ?? '', { headers: { 'content-type': contentType } }).formData();
  } catch {
    throw invalid('the multipart body does not parse');
  }
}

export const operations = [
  operation({
    operationId: 'listKakaoBrandTemplates',
    method: 'GET',
    path: '/v1/accounts/{accountId}/kakao/brand-templates',
    tag: TAG,
    summary: 'Brand-message templates of one of the account\'s channels',
    description: 'No review: a listed template can be sent. Newest first. `channelId` is required (400 without): the connection\'s own id or the messenger\'s channel id. The simulator plants them through POST /_sim/accounts/{accountId}/kakao-brand-templates.',
    origin: 'simulator',
    basis: BASIS,
    auth: 'account',
    params: account,
    query: { channelId: RequiredParam(Type.String({ minLength: 1, description: 'Required.' })), ...standardPagingParams },
    responses: { 200: { description: 'A page of brand templates.', schema: Type.Object({ data: Type.Array(BrandTemplate), meta: ListMetaSchema }, { $id: 'KakaoBrandTemplateList', additionalProperties: false }) } },
    handler: (ctx) => {
      const named = requiredChannelId(ctx.query.channelId);
      const connection = ctx.scope.kakaoChannels.find(ctx.accountId, named);
      const channelId = connection?.channelId ?? named;
      const page = pageOf(ctx.scope.messages.brandTemplates.list(ctx.accountId, channelId), parsePaging(ctx.query as PagingQuery));
      const shown = connection?.id ?? channelId;
      return reply.ok({ data: page.data.map((t: BrandTemplateRow) => ({ ...brandTemplateWire(t), channelId: shown })), meta: page.meta });
    },
  }),
  operation({
    operationId: 'createKakaoBrandImage',
    method: 'POST',
    path: '/v1/accounts/{accountId}/kakao/brand-images',
    tag: TAG,
    summary: 'Upload an image for brand-message bubbles',
    description: `multipart/form-data: the file part \`image\` (JPEG or PNG, judged by its bytes, at most ${BRAND_IMAGE_MAX_BYTES} bytes), the field \`bubbleType\` and an optional \`slot\` (\`main\` or \`sub\`). Answers 201 with the image's id, which a free-form bubble sends as \`imageId\`. Other form fields are ignored. A refused upload stores nothing.`,
    origin: 'simulator',
    basis: BASIS,
    auth: 'account',
    params: account,
    bodyDoc: { required: true, content: { 'multipart/form-data': { schema: BrandImageUpload, encoding: { image: { contentType: 'image/png, image/jpeg' } } } } },
    responses: { 201: { description: 'The stored image.', schema: BrandImage } },
    errors: [messageErrors.BRAND_IMAGE_INVALID, messageErrors.BRAND_IMAGE_TOO_LARGE],
    handler: async (ctx) => {
      const form = await formParts(ctx.request.body, header(ctx.request, 'content-type'));
      const file = form.get('image');
      if (file === null || typeof file === 'string') {
        throw messageErrors.BRAND_IMAGE_INVALID('the form needs a file part named image', { errors: [{ path: 'image', message: 'is required (a file part)' }] });
      }
      const bubbleType = form.get('bubbleType');
      if (typeof bubbleType !== 'string' || bubbleType.trim() === '' || bubbleType.length > 40) {
        throw messageErrors.BRAND_IMAGE_INVALID('the form needs a bubbleType field (IMAGE, WIDE, ...), 1 to 40 characters', { errors: [{ path: 'bubbleType', message: 'is required' }] });
      }
      // Today's SDK: a TEXT bubble has no image, so the service refuses its upload.
      if (bubbleType.trim() === 'TEXT') throw messageErrors.BRAND_IMAGE_INVALID('a TEXT bubble has no image; upload for IMAGE, WIDE, ...', { errors: [{ path: 'bubbleType', message: 'TEXT has no image' }] });
      const slot = form.get('slot') ?? 'main';
      if (typeof slot !== 'string' || !(BRAND_IMAGE_SLOTS as readonly string[]).includes(slot)) {
        throw messageErrors.BRAND_IMAGE_INVALID(`slot must be ${BRAND_IMAGE_SLOTS.join(' or ')}`, { errors: [{ path: 'slot', message: `must be one of ${BRAND_IMAGE_SLOTS.join(', ')}` }] });
      }
      const row = ctx.scope.messages.brandImages.upload(ctx.accountId, {
        bytes: new Uint8Array(await file.arrayBuffer()),
        bubbleType: bubbleType.trim(),
        slot,
        name: file.name === '' ? null : file.name,
      });
      return reply.created(brandImageWire(row));
    },
  }),
  operation({
    operationId: 'listKakaoBrandImages',
    method: 'GET',
    path: '/v1/accounts/{accountId}/kakao/brand-images',
    tag: TAG,
    summary: 'The account\'s uploaded brand images, newest first',
    origin: 'simulator',
    basis: BASIS,
    auth: 'account',
    params: account,
    query: { ...standardPagingParams },
    responses: { 200: { description: 'A page of images.', schema: Type.Object({ data: Type.Array(BrandImage), meta: ListMetaSchema }, { $id: 'KakaoBrandImageList', additionalProperties: false }) } },
    handler: (ctx) => {
      const page = pageOf(ctx.scope.messages.brandImages.list(ctx.accountId), parsePaging(ctx.query as PagingQuery));
      return reply.ok({ data: page.data.map(brandImageWire), meta: page.meta });
    },
  }),
];
