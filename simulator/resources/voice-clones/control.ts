// Control plane of voice clones (docs/control-plane.md "Agents"): how the fake voice provider
// answers (available, ready or failed, after how many virtual seconds), and finishing one clone
// now.
import { Type } from '@sinclair/typebox';
import { reply } from '../../core/operation.ts';
import { operation } from './scope.ts';
import { StringEnum } from '../../core/schema.ts';
import { voiceCloneErrors } from './errors.ts';
import { ProviderScriptSchema, VoiceCloneResponse } from './schema.ts';
import { cloneWire } from './routes.ts';

const TAG = 'Control plane';

const ProviderBody = Type.Partial(ProviderScriptSchema, { $id: 'SimVoiceProviderRequest', additionalProperties: false, minProperties: 1 });

export const operations = [
  operation({
    operationId: 'simSetVoiceProvider',
    method: 'PUT',
    path: '/_sim/voice-clones/provider',
    tag: TAG,
    summary: 'Script the fake voice provider',
    description: 'Fields left out keep their value. `outcome` and `seconds` apply to clones uploaded from now on; `available: false` makes uploads and deletions answer 502. Part of the state.',
    origin: 'simulator',
    auth: 'control',
    body: ProviderBody,
    bodyRequired: true,
    responses: { 200: { description: 'The provider script.', schema: ProviderScriptSchema } },
    handler: (ctx) => {
      const m = ctx.scope.voiceClones;
      m.provider = { ...m.provider, ...ctx.body };
      return reply.ok(m.provider);
    },
  }),
  operation({
    operationId: 'simFinishVoiceClone',
    method: 'POST',
    path: '/_sim/voice-clones/{voiceCloneId}/finish',
    tag: TAG,
    summary: 'Finish a clone that is cloning, now',
    description: 'A clone no longer cloning is left as it is (the answer shows it).',
    origin: 'simulator',
    auth: 'control',
    params: { voiceCloneId: Type.String() },
    body: Type.Object({ status: StringEnum(['ready', 'failed'] as const) }, { $id: 'SimFinishVoiceCloneRequest', additionalProperties: false }),
    bodyRequired: true,
    responses: { 200: { description: 'The clone.', schema: VoiceCloneResponse } },
    errors: [voiceCloneErrors.NOT_FOUND],
    handler: (ctx) => {
      const row = ctx.scope.voiceClones.finish(ctx.params.voiceCloneId, ctx.body.status);
      if (!row) throw voiceCloneErrors.NOT_FOUND(`no voice clone ${ctx.params.voiceCloneId}`);
      return reply.ok(cloneWire(row));
    },
  }),
];
