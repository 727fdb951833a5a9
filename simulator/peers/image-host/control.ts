// The fake image host's /_sim routes: script what an MMS image URL answers, so a send can meet
// each download failure the service reports. Documented in docs/control-plane.md, "Image host".
import { Type } from '@sinclair/typebox';
import { reply } from '../../core/operation.ts';
import { HttpUrl, Nullable } from '../../core/schema.ts';
import { ImageScriptSchema, MAX_SCRIPTED_BYTES } from './model.ts';
import { operation } from './scope.ts';

const TAG = 'Control plane';

const ScriptBody = Type.Object(
  {
    url: HttpUrl({ description: 'The image URL, as a MediaUrl names it.' }),
    status: Type.Optional(Type.Integer({ minimum: 100, maximum: 599, description: 'HTTP status; default 200.' })),
    contentType: Type.Optional(Type.String({ maxLength: 200, description: 'Content-Type sent; default from the extension (jpg/jpeg, png, bmp).' })),
    sizeBytes: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_SCRIPTED_BYTES, description: 'Body size; default the 1x1 image, or the decoded base64 (given with base64, it must equal its decoded length).' })),
    base64: Type.Optional(Nullable(Type.String({ pattern: '^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$', description: 'The body, padded base64; default a 1x1 white image of the content type, padded to sizeBytes.' }))),
    seconds: Type.Optional(Type.Number({ minimum: 0, maximum: 3600, description: 'Download time; over 10 fails the download as TIMEOUT. Default 0.' })),
  },
  { $id: 'SimImageScriptRequest', additionalProperties: false },
);
const ScriptList = Type.Object({ data: Type.Array(ImageScriptSchema) }, { $id: 'SimImageScripts', additionalProperties: false });

export const operations = [
  operation({
    operationId: 'simListImages',
    method: 'GET',
    path: '/_sim/images',
    tag: TAG,
    summary: 'Scripted image URLs',
    description: 'Unlisted http(s) URLs answer 200 with a 1x1 white image of the type their extension names.',
    origin: 'simulator',
    auth: 'control',
    responses: { 200: { description: 'Every script, in the order set.', schema: ScriptList } },
    handler: ({ scope }) => reply.ok({ data: scope.imageHost.list() }),
  }),
  operation({
    operationId: 'simSetImage',
    method: 'PUT',
    path: '/_sim/images',
    tag: TAG,
    summary: 'Script what one image URL answers',
    description:
      'A send whose MediaUrl breaks a rule fails with 400 media_download_failed, naming the image and the cause: `TIMEOUT` (seconds over 10), `HTTP <status>` (not 2xx), `CONTENT_TYPE:<type>` (not image/jpeg, png or bmp), `SIZE_EXCEEDED` (over 307,200 bytes), checked in that order. A good image is stored with the message and served by getMessageMedia.',
    origin: 'simulator',
    auth: 'control',
    body: ScriptBody,
    bodyRequired: true,
    responses: { 200: { description: 'The complete script, defaults filled in.', schema: ImageScriptSchema } },
    handler: ({ scope, body }) => reply.ok(scope.imageHost.set(body)),
  }),
  operation({
    operationId: 'simRemoveImage',
    method: 'DELETE',
    path: '/_sim/images',
    tag: TAG,
    summary: 'Forget one image script, or all of them',
    description: 'With `url`, that URL answers the default image again; without it, every script goes.',
    origin: 'simulator',
    auth: 'control',
    query: { url: Type.String({ minLength: 1 }) },
    responses: { 204: { description: 'Removed (or there was none).' } },
    handler: ({ scope, query }) => {
      if (query.url === undefined) scope.imageHost.clear();
      else scope.imageHost.remove(query.url);
      return reply.noContent();
    },
  }),
];
