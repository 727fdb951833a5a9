// HTTP surface of voice clones after the public API document: list, create from a multipart
// upload (201 cloning), delete (204; 409 while an agent or call flow speaks with it).
import { Type } from '@sinclair/typebox';
import { reply } from '../../core/operation.ts';
import { operation } from './scope.ts';
import { ApiError, errorCodes } from '../../core/errors.ts';
import { header } from '../../core/operation.ts';
import { voiceCloneErrors } from './errors.ts';
import { CLIP_MAX_BYTES, CreateVoiceCloneForm, VoiceCloneList, VoiceCloneResponse, type VoiceCloneRow } from './schema.ts';
import { formFile, formText, onlyFields } from '../../core/uploads.ts';

const TAG = 'Voice clones';
const BASIS = 'public API document (voice-clones operations)';
const accountParam = { accountId: Type.String({ description: 'Account id.' }) };

export function cloneWire(c: VoiceCloneRow) {
  return { id: c.id, name: c.name, description: c.description, status: c.status, voice: c.voice, consentAt: c.consentAt, dateCreated: c.dateCreated };
}

export const operations = [
  operation({
    operationId: 'listVoiceClones',
    method: 'GET',
    path: '/v1/accounts/{accountId}/voice-clones',
    tag: TAG,
    summary: 'List the account\'s voice clones',
    description: 'Newest first, `{ data }`; `voice` is the id agents and call flows use once `status` is ready.',
    origin: 'reference',
    basis: BASIS,
    auth: 'account',
    params: accountParam,
    responses: { 200: { description: 'The clones.', schema: VoiceCloneList } },
    handler: (ctx) => reply.ok({ data: ctx.scope.voiceClones.list(ctx.accountId).map(cloneWire) }),
  }),
  operation({
    operationId: 'createVoiceClone',
    method: 'POST',
    path: '/v1/accounts/{accountId}/voice-clones',
    tag: TAG,
    summary: 'Clone a voice from a recording',
    description:
      `multipart/form-data: \`name\` (1-60), \`description\` (optional, up to 200), \`consent\` (\`true\` or \`on\`: the uploader may use this voice), \`clip\` (wav, mp3, flac, ogg, webm or m4a judged by its bytes, 1 to ${CLIP_MAX_BYTES} bytes; 413 above). Answers 201 with status cloning; the fake provider makes it ready (or failed, when scripted) on the virtual clock, 30 s by default. At most 10 uploads per account per hour (429). The clip is not kept.`,
    origin: 'reference',
    basis: BASIS,
    auth: 'account',
    params: accountParam,
    maxBodyBytes: CLIP_MAX_BYTES + 64 * 1024,
    bodyDoc: { required: true, content: { 'multipart/form-data': { schema: CreateVoiceCloneForm, encoding: { clip: { contentType: 'audio/wav, audio/mpeg, audio/flac, audio/ogg, audio/webm, audio/mp4' } } } } },
    responses: { 201: { description: 'The clone, cloning.', schema: VoiceCloneResponse } },
    errors: [errorCodes.VALIDATION, voiceCloneErrors.CLIP_TOO_LARGE, voiceCloneErrors.RATE_LIMITED, voiceCloneErrors.PROVIDER_FAILED],
    handler: async (ctx) => {
      const contentType = header(ctx.request, 'content-type') ?? '';
      if (!/^multipart\/form-data\s*;/i.test(contentType)) throw ApiError.validation(`send multipart/form-data, not ${contentType || 'no content type'}`, [{ path: '', message: 'multipart/form-data required' }]);
      let form: FormData;
      try {
        form = await new Response(ctx.request.body ?? '', { headers: { 'content-type': contentType } }).formData();
      } catch {
        throw ApiError.validation('the multipart body does not parse', [{ path: '', message: 'malformed multipart/form-data' }]);
      }
      onlyFields(form, ['name', 'description', 'consent', 'clip']);
      const clip = await formFile(form, 'clip');
      const row = ctx.scope.voiceClones.create(ctx.accountId, { name: formText(form, 'name'), description: formText(form, 'description'), consent: formText(form, 'consent'), clip: clip?.bytes ?? null });
      return reply.created(cloneWire(row));
    },
  }),
  operation({
    operationId: 'deleteVoiceClone',
    method: 'DELETE',
    path: '/v1/accounts/{accountId}/voice-clones/{voiceCloneId}',
    tag: TAG,
    summary: 'Delete a voice clone',
    description: 'Refused (409 `voice_clone_in_use`, naming `usedBy`) while an agent or a call flow of the account speaks with it.',
    origin: 'reference',
    basis: BASIS,
    auth: 'account',
    params: { ...accountParam, voiceCloneId: Type.String({ description: 'Voice clone id.' }) },
    responses: { 204: { description: 'Deleted.' } },
    errors: [voiceCloneErrors.NOT_FOUND, voiceCloneErrors.IN_USE, voiceCloneErrors.PROVIDER_FAILED],
    handler: (ctx) => {
      ctx.scope.voiceClones.delete(ctx.accountId, ctx.params.voiceCloneId);
      return reply.noContent();
    },
  }),
];
