// Voice clones on the wire and in the snapshot, after the public API document's voice-clones
// operations: a multipart upload (name, description, consent, clip), `cloning` until the fake
// provider answers on the virtual clock (`ready` or `failed`), and the voice id agents and call
// flows use once ready. The clip itself is never kept (the reference deletes it at once).
import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Nullable, StringEnum } from '../../core/schema.ts';
import type { IdFormat } from '../../core/ids.ts';

export const VOICE_CLONE_IDS = {
  voiceClone: { prefix: 'VC', hex: 16 },
} as const satisfies Record<string, IdFormat>;

export const CLONE_STATUSES = ['cloning', 'ready', 'failed'] as const;
export type CloneStatus = (typeof CLONE_STATUSES)[number];
export const CLONE_NAME_MAX = 60;
export const CLONE_DESCRIPTION_MAX = 200;
export const CLIP_MAX_BYTES = 10 * 1024 * 1024;
export const CLONES_PER_HOUR = 10; // reference: "about 10 per hour per account"
export const DEFAULT_CLONING_SECONDS = 30;

export const VoiceCloneResponse = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    description: Nullable(Type.String()),
    status: StringEnum(CLONE_STATUSES),
    voice: Type.String({ format: 'uuid', description: 'The voice id for configuration.tts.voice (and call flows\' tts_paid_1 voiceId), usable once ready.' }),
    consentAt: Nullable(DateTime()),
    dateCreated: DateTime(),
  },
  { $id: 'VoiceCloneResponse', additionalProperties: false },
);
export const VoiceCloneList = Type.Object({ data: Type.Array(VoiceCloneResponse) }, { $id: 'VoiceCloneListResponse', additionalProperties: false });

/** The multipart form as documented (the handler reads and checks it: model.ts create). */
export const CreateVoiceCloneForm = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: CLONE_NAME_MAX, pattern: '\\S', description: `1 to ${CLONE_NAME_MAX} characters, not blank (trimmed).` }),
    description: Type.Optional(Type.String({ maxLength: CLONE_DESCRIPTION_MAX, description: `At most ${CLONE_DESCRIPTION_MAX} characters (trimmed); blank is none.` })),
    consent: Type.String({ pattern: '^\\s*(?:[Tt][Rr][Uu][Ee]|[Oo][Nn])\\s*$', description: 'true or on: the uploader has the right to use this voice.' }),
    clip: Type.String({ contentMediaType: 'application/octet-stream', description: `The file part: wav, mp3, flac, ogg, webm or m4a audio (judged by its bytes), 1 byte to ${CLIP_MAX_BYTES} bytes (413 above).` }),
  },
  { $id: 'CreateVoiceCloneRequest', additionalProperties: false },
);

const VoiceCloneRowSchema = Type.Object(
  {
    id: Type.String(), // maps the clone id to the clone
    accountId: Type.String(),
    name: Type.String(),
    description: Nullable(Type.String()),
    status: StringEnum(CLONE_STATUSES),
    voice: Type.String(), // the voice id (a UUID from the seeded random)
    clipFormat: Type.String(), // what the clip's bytes were (wav, mp3...): the clip itself is not kept
    clipBytes: Type.Integer(),
    consentAt: DateTime(),
    dateCreated: DateTime(),
    finishedAt: Nullable(DateTime()),
  },
  { additionalProperties: false },
);
export type VoiceCloneRow = Static<typeof VoiceCloneRowSchema>;

/** How the fake voice provider answers (control plane). */
export const ProviderScriptSchema = Type.Object(
  {
    available: Type.Boolean({ description: 'false: create and delete answer 502 (provider failure) and change nothing.' }),
    outcome: StringEnum(['ready', 'failed'] as const, { description: 'How clones started from now on finish.' }),
    seconds: Type.Number({ minimum: 0, maximum: 86_400, description: `Virtual seconds from upload to that outcome; default ${DEFAULT_CLONING_SECONDS}.` }),
  },
  { $id: 'SimVoiceProvider', additionalProperties: false },
);
export type ProviderScript = Static<typeof ProviderScriptSchema>;

export const VoiceClonesStateSchema = Type.Object(
  {
    clones: Type.Array(VoiceCloneRowSchema),
    uploads: Type.Array(Type.Object({ accountId: Type.String(), at: DateTime() }, { additionalProperties: false })), // recent uploads, for the hourly limit
    provider: ProviderScriptSchema,
  },
  { additionalProperties: false },
);
export type VoiceClonesState = Static<typeof VoiceClonesStateSchema>;
