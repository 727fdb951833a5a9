// Voice clones (public API document, guides "Managed agents"): an upload with the uploader's
// consent becomes a clone `cloning` until the fake voice provider answers on the virtual clock
// (`ready`, or `failed` when the control plane says so). A ready clone's voice is usable by this
// account's agents and call flows only; another account using it gets 403
// `call_flow_voice_forbidden`. At most 10 uploads per account per virtual hour (429). The clip
// is checked and forgotten: only its format and size are kept.
import { Table } from '../../core/store.ts';
import { ApiError } from '../../core/errors.ts';
import { voiceCloneErrors } from './errors.ts';
import { freshId } from '../../core/ids.ts';
import { iso } from '../../core/clock.ts';
import type { VoiceClonesModelScope } from './ports.ts';
import { clipFormat } from './clip.ts';
import {
  CLIP_MAX_BYTES,
  CLONES_PER_HOUR,
  CLONE_DESCRIPTION_MAX,
  CLONE_NAME_MAX,
  DEFAULT_CLONING_SECONDS,
  VOICE_CLONE_IDS,
  type ProviderScript,
  type VoiceCloneRow,
  type VoiceClonesState,
} from './schema.ts';

export { voiceCloneErrors };

/** What deleting a clone needs to know: who speaks with a voice (agents, call flows). */
export interface VoiceUsersPort {
  usersOf(accountId: string, voice: string): string[];
}


export interface CloneUpload {
  name: string | null;
  description: string | null;
  consent: string | null;
  clip: Uint8Array | null;
}

const DEFAULT_PROVIDER: ProviderScript = { available: true, outcome: 'ready', seconds: DEFAULT_CLONING_SECONDS };
const HOUR_MS = 3_600_000;

function refuse(path: string, message: string): ApiError {
  return ApiError.validation(`${path} ${message}`, [{ path, message }]);
}

export class VoiceClonesModel {
  private clones = new Table<VoiceCloneRow>(); // maps a clone id to the clone
  private uploads: VoiceClonesState['uploads'] = []; // uploads of the last hour, oldest first (the hourly limit)
  provider: ProviderScript = { ...DEFAULT_PROVIDER }; // how the fake provider answers (control plane)
  private readonly userSources: VoiceUsersPort[] = []; // agents and call flows, registered by them

  constructor(private readonly ports: VoiceClonesModelScope) {
    ports.jobs.on('voiceClones.finish', (p) => this.finish(p.cloneId, p.outcome));
    // A clone's voice is a Cartesia voice of its account: call flows of other accounts may not use it.
    ports.callFlows.addVoiceOwners((provider, voiceId) => (provider === 'cartesia' ? this.byVoice(voiceId)?.accountId : undefined));
    this.registerUsers({ usersOf: (accountId, voice) => ports.callFlows.flowsSpeaking(accountId, 'cartesia', voice) });
  }

  /** Families whose resources speak with voices register here (a clone in use cannot be deleted). */
  registerUsers(source: VoiceUsersPort): void {
    this.userSources.push(source);
  }

  clear(): void {
    this.clones = new Table();
    this.uploads = [];
    this.provider = { ...DEFAULT_PROVIDER };
  }

  snapshot(): VoiceClonesState {
    return { clones: [...this.clones.all()], uploads: [...this.uploads], provider: { ...this.provider } };
  }

  /** The runtime validated the part (ownPart). */
  restore(s: VoiceClonesState): void {
    this.clones = new Table(s.clones);
    this.uploads = [...s.uploads];
    this.provider = { ...s.provider };
  }

  /** Newest first. */
  list(accountId: string): VoiceCloneRow[] {
    return this.clones.newestFirst((c) => c.accountId === accountId);
  }

  get(accountId: string, id: string): VoiceCloneRow {
    const c = this.clones.get(id);
    if (!c || c.accountId !== accountId) throw voiceCloneErrors.NOT_FOUND(`no voice clone ${id} in this account`);
    return c;
  }

  /** The clone that made this voice id, whichever account owns it. */
  byVoice(voice: string): VoiceCloneRow | undefined {
    const v = voice.toLowerCase();
    return this.clones.find((c) => c.voice === v);
  }

  /** The account's ready clones (listAgentVoices shows them as custom voices). */
  readyOf(accountId: string): VoiceCloneRow[] {
    return this.clones.all().filter((c) => c.accountId === accountId && c.status === 'ready');
  }

  create(accountId: string, u: CloneUpload): VoiceCloneRow {
    const name = (u.name ?? '').trim();
    if (name === '') throw refuse('name', 'is required');
    if ([...name].length > CLONE_NAME_MAX) throw refuse('name', `is longer than ${CLONE_NAME_MAX} characters`);
    const description = u.description === null || u.description.trim() === '' ? null : u.description.trim();
    if (description !== null && [...description].length > CLONE_DESCRIPTION_MAX) throw refuse('description', `is longer than ${CLONE_DESCRIPTION_MAX} characters`);
    const consent = (u.consent ?? '').trim().toLowerCase();
    if (consent !== 'true' && consent !== 'on') throw refuse('consent', 'must be true or on: confirm you have the right to use this voice');
    if (u.clip === null) throw refuse('clip', 'is required (a file part)');
    if (u.clip.length === 0) throw refuse('clip', 'is empty');
    if (u.clip.length > CLIP_MAX_BYTES) throw voiceCloneErrors.CLIP_TOO_LARGE(`clip is ${u.clip.length} bytes; at most ${CLIP_MAX_BYTES}`, { errors: [{ path: 'clip', message: 'too large' }] });
    const format = clipFormat(u.clip);
    if (format === undefined) throw refuse('clip', 'is not wav, mp3, flac, ogg, webm or m4a audio');
    const now = this.ports.clock.now();
    this.uploads = this.uploads.filter((x) => Date.parse(x.at) > now - HOUR_MS);
    const recent = this.uploads.filter((x) => x.accountId === accountId).length;
    if (recent >= CLONES_PER_HOUR) throw voiceCloneErrors.RATE_LIMITED(`${recent} clones were uploaded in the last hour; at most ${CLONES_PER_HOUR}`);
    if (!this.provider.available) throw voiceCloneErrors.PROVIDER_FAILED('the voice provider did not answer; nothing was stored');
    const id = freshId(this.ports.random, VOICE_CLONE_IDS.voiceClone, (x) => this.clones.has(x));
    const voice = this.uuid();
    const at = iso(now);
    this.uploads.push({ accountId, at });
    const row = this.clones.insert({ id, accountId, name, description, status: 'cloning', voice, clipFormat: format, clipBytes: u.clip.length, consentAt: at, dateCreated: at, finishedAt: null });
    this.ports.jobs.schedule('voiceClones.finish', now + Math.round(this.provider.seconds * 1000), { cloneId: id, outcome: this.provider.outcome });
    return row;
  }

  /** A clone that is still cloning ends as the provider (or the control plane) says. */
  finish(cloneId: string, outcome: 'ready' | 'failed'): VoiceCloneRow | undefined {
    const c = this.clones.get(cloneId);
    if (!c || c.status !== 'cloning') return c;
    return this.clones.replace({ ...c, status: outcome, finishedAt: this.ports.clock.nowIso() });
  }

  delete(accountId: string, id: string): void {
    const c = this.get(accountId, id);
    const users = this.userSources.flatMap((s) => s.usersOf(accountId, c.voice));
    if (users.length > 0) throw voiceCloneErrors.IN_USE(`voice clone ${id} is in use by ${users.join(', ')}; change their voice first`, { usedBy: users });
    if (!this.provider.available) throw voiceCloneErrors.PROVIDER_FAILED('the voice provider did not answer; nothing was deleted');
    this.clones.delete(id);
  }

  /** A version-4 UUID from the seeded random. */
  private uuid(): string {
    for (;;) {
      const h = this.ports.random.hex(32).split('');
      h[12] = '4';
      h[16] = '89ab'[parseInt(h[16]!, 16) % 4]!;
      const s = h.join('');
      const id = `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
      if (!this.byVoice(id)) return id;
    }
  }
}
