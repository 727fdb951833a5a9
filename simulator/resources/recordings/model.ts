// A call's artifacts after it ends (issue 11): the recording of each record block, the whole-call
// recording (those recordings joined, docs/decisions.md), kept 90 virtual days from the call's end
// and deletable; the transcript (pending, then completed or failed on the virtual clock; at most
// MAX_TRANSCRIPT_ATTEMPTS attempts) and the summary of a completed transcript; the webhooks
// `recording.completed`, `transcript.*` and `summary.*`; their usage meters. Outcomes are
// scripted per call and settings per account through the control plane. Audio and text are
// generated when read from the stored lengths and seeds (wav.ts, text.ts).
import { createHash } from 'node:crypto';
import { Table } from '../../core/store.ts';
import { TableState } from '../../core/table-state.ts';
import { iso, parseInstant } from '../../core/clock.ts';
import { defineError } from '../../core/errors.ts';
import type { Kernel } from '../../core/ports.ts';
import type { CallsModel } from '../calls/model.ts';
import type { CallRow } from '../calls/schema.ts';
import type { AccountsModel } from '../accounts/model.ts';
import type { UsageModel } from '../usage/model.ts';
import type { UsageEntry } from '../usage/schema.ts';
import { OutboundRules, type OutboundPorts } from '../../rules/outbound.ts';
import { MAX_WHOLE_SECONDS, seedOf, wavFile } from './wav.ts';
import { defaultSummary, segmentCount, speakerLabels, summaryFor, transcriptSegments } from './text.ts';
import { conversationSummary, segmentsOf as conversationSegments } from './conversation-text.ts';
import { RecordingLinks, linkPath } from './links.ts';
import {
  DEFAULT_SCHEMA_VERSION,
  DEFAULT_SUMMARY_SECONDS,
  DEFAULT_TRANSCRIPT_SECONDS,
  MAX_TRANSCRIPT_ATTEMPTS,
  NUMBERED_SPEAKERS_FROM,
  RETENTION_MS,
  RecordingsStateSchema,
  SUMMARY_MODEL,
  SUMMARY_PROVIDER,
  type ArtifactScript,
  type ArtifactScriptInput,
  type ArtifactSettings,
  type ArtifactSettingsInput,
  type RecordingRow,
  type SummaryRow,
  type TranscriptError,
  type TranscriptRow,
  type TranscriptStage,
} from './schema.ts';

export const recordingErrors = {
  RECORDING_NOT_FOUND: defineError({
    code: 'recording_not_found', status: 404, origin: 'reference',
    description: 'The call has no such recording: none was made, the call has not ended, it was deleted, or its 90 days of retention are over (reference getRecording/getVerbRecording 404).',
  }),
  NO_RECORDING: defineError({
    code: 'no_recording', status: 400, origin: 'reference',
    description: 'requestTranscript on a call without a recording (none made, not ended yet, deleted or past retention): nothing to transcribe (reference requestTranscript 400).',
  }),
  TRANSCRIPT_ALREADY_REQUESTED: defineError({
    code: 'transcript_already_requested', status: 409, origin: 'reference',
    description: 'The transcript is pending or completed; the body carries `status` (and `startedAt` while pending). A completed transcript is not made or billed again.',
  }),
  TRANSCRIPT_RETRY_LIMIT: defineError({
    code: 'transcript_retry_limit', status: 409, origin: 'reference',
    description: `The transcript failed ${MAX_TRANSCRIPT_ATTEMPTS} times; the body carries \`status\` failed, \`stage\`, and the failure code as \`error\` (reference requestTranscript 409).`,
  }),
};

/** What the artifacts need of calls: the call as its account sees it, clearing its recordingUrl, and how many parties its transfers added (one speaker each). */
type CallsPort = Pick<CallsModel, 'get' | 'forgetRecording' | 'transferPartiesOf' | 'endedListeners'>;

export interface RecordingsPorts extends Pick<Kernel, 'clock' | 'events'>, OutboundPorts {
  readonly seed: number;
  calls: CallsPort;
  accounts: Pick<AccountsModel, 'require'> & OutboundPorts['accounts'];
  usage: Pick<UsageModel, 'register'>;
}

/** The call fields a recording keeps. */
export interface RecordedCall {
  id: string;
  accountId: string;
  direction: 'outbound' | 'inbound';
  from: string;
  to: string;
  dateCreated: string;
}

/** Stores the row: replaces the one with its id, else inserts it. */
function put<T extends { id: string }>(table: Table<T>, row: T): void {
  if (table.has(row.id)) table.replace(row);
  else table.insert(row);
}

const recordingPath = (accountId: string, callId: string) => `/v1/accounts/${accountId}/recordings/${callId}`;

export class RecordingsModel {
  readonly recordings = new Table<RecordingRow>(); // callId → the call's recordings
  readonly transcripts = new Table<TranscriptRow>(); // callId → its transcript (absent: not_requested)
  readonly summaries = new Table<SummaryRow>(); // callId → its summary (absent: not_requested)
  readonly scripts = new Table<ArtifactScript>(); // callId → scripted outcomes (control plane)
  readonly settings = new Table<ArtifactSettings>(); // accountId → organisation settings (control plane)

  private readonly state = new TableState(RecordingsStateSchema, 'recordings', {
    recordings: this.recordings,
    transcripts: this.transcripts,
    summaries: this.summaries,
    scripts: this.scripts,
    settings: this.settings,
  });
  private readonly outbound: OutboundRules;
  /** Signed links before 2026-07-28, plain paths after (links.ts). */
  private readonly links: RecordingLinks;

  constructor(private readonly rt: RecordingsPorts) {
    this.outbound = new OutboundRules(rt);
    this.links = new RecordingLinks(rt.seed);
    rt.clock.on('recordings.expire', (p: { callId: string }) => this.expire(p.callId));
    rt.clock.on('recordings.transcribed', (p: { callId: string; attempt: number }) => this.transcribed(p.callId, p.attempt));
    rt.clock.on('recordings.summarized', (p: { callId: string }) => this.summarized(p.callId));
    rt.calls.endedListeners.push((row) => {
      // Most calls (a batch's 100,000s) record nothing and transcribe nothing: skip them cheaply.
      if (row.recordingUrl === null && !this.recordings.has(row.id) && !this.settings.get(row.accountId)?.autoTranscribe) return;
      this.callEnded(row);
    }); // every call, flow or VoiceML
    rt.usage.register((accountId) => this.usageEntries(accountId));
  }

  clear(): void {
    this.state.clear();
  }
  snapshot() {
    return this.state.snapshot();
  }
  restore(state: unknown): void {
    this.state.restore(state);
  }

  // --- from calls ---

  /** The link handed out now for a recording's download path: signed before 2026-07-28 (links.ts). */
  link(path: string): string {
    return this.links.issue(path, this.rt.clock.now());
  }

  /** A download without the bearer header: whether its URL is a valid signed link (undefined: it carries none); throws when tampered or expired. */
  signedAccess(url: string): true | undefined {
    return this.links.check(url, this.rt.clock.now());
  }

  /** A record block finished recording `seconds` under the link it announced (calls model hook). */
  recorded(call: RecordedCall, url: string, seconds: number): void {
    const path = linkPath(url);
    const name = decodeURIComponent(path.slice(path.lastIndexOf('/') + 1));
    const piece = { name, seconds, at: this.rt.clock.nowIso() };
    const row = this.recordings.get(call.id) ?? this.blankRecording(call);
    if (row.deletedAt !== null) return; // deleted mid-call: what follows is not kept either
    const next = { ...row, pieces: [...row.pieces, piece] };
    put(this.recordings, next);
  }

  /** The call ended: its whole-call recording exists (if the call recorded), webhooks, auto-transcription. */
  private callEnded(call: CallRow): void {
    const now = this.rt.clock.now();
    let rec = this.recordings.get(call.id);
    if (!rec && call.recordingUrl !== null) {
      // Hung up mid-recording; or a call handled by an agent, recorded whole from the answer (docs/agents.md).
      const whole = call.conversation !== undefined && call.answeredAt !== null ? [{ name: 'call', seconds: call.duration ?? 0, at: call.answeredAt }] : [];
      rec = this.recordings.insert({ ...this.blankRecording(call), pieces: whole });
    }
    if (rec && rec.endedAt === null) {
      rec = this.recordings.replace({ ...rec, endedAt: iso(now), expiresAt: iso(now + RETENTION_MS) });
      this.rt.clock.schedule('recordings.expire', now + RETENTION_MS, { callId: call.id });
      if (rec.deletedAt === null) {
        this.emit('recording.completed', rec, { RecordingUrl: this.link(recordingPath(rec.accountId, rec.id)), RecordingDuration: String(totalSeconds(rec)) });
      } else this.rt.calls.forgetRecording(call.id);
    }
    const settings = this.settings.get(call.accountId);
    if (settings?.autoTranscribe && call.answeredAt !== null && !this.transcripts.has(call.id)) {
      if (this.available(call.id)) this.startTranscript(call.accountId, call.id);
      else this.failNow(call.accountId, call.id, 'download', 'no_recording');
    }
  }

  // --- recordings (public API) ---

  /** Families that hold a call's real audio (the Agent SDK: what the agent played and the phone said), asked first for a whole-call file. */
  private readonly audioSources: ((callId: string) => Buffer | undefined)[] = [];

  /** Registers a source of whole-call audio; it answers undefined for calls it does not hold. */
  provideAudio(source: (callId: string) => Buffer | undefined): void {
    this.audioSources.push(source);
  }

  /** getRecording: the whole-call WAV. */
  wholeFile(accountId: string, callId: string): { bytes: Buffer; filename: string } {
    this.rt.calls.get(accountId, callId);
    return this.fileOf(callId, null);
  }

  /** getVerbRecording: one record block's WAV by name (its last take). */
  verbFile(accountId: string, callId: string, name: string): { bytes: Buffer; filename: string } {
    this.rt.calls.get(accountId, callId);
    return this.fileOf(callId, name);
  }

  /** Control plane (inspector): the same files without an account key. */
  fileOf(callId: string, name: string | null): { bytes: Buffer; filename: string } {
    const row = this.recordings.get(callId);
    const gone = (why: string) => recordingErrors.RECORDING_NOT_FOUND(`call ${callId} ${why}`);
    if (!row) throw gone('has no recording');
    if (row.deletedAt !== null) throw gone('has no recording: it was deleted');
    if (this.expired(row)) throw gone(`has no recording: it was kept ${RETENTION_MS / 86_400_000} days and is gone`);
    if (name === null) {
      if (row.endedAt === null) throw gone('has not ended; its recording exists once it ends');
      for (const source of this.audioSources) {
        const bytes = source(callId);
        if (bytes) return { bytes, filename: `${row.id}.wav` };
      }
      return { bytes: wavFile(wholePieces(row).map((p, i) => ({ seconds: p.seconds, seed: seedOf(row.seed, row.id, i) }))), filename: `${row.id}.wav` };
    }
    const i = row.pieces.findLastIndex((p) => p.name === name);
    if (i < 0) throw gone(`has no recording named ${name}`);
    return { bytes: wavFile([{ seconds: row.pieces[i]!.seconds, seed: seedOf(row.seed, row.id, i) }]), filename: `${name}.wav` };
  }

  /** deleteRecording: idempotent; the call's recordingUrl becomes null; transcripts already made stay. */
  delete(accountId: string, callId: string): void {
    this.rt.calls.get(accountId, callId);
    const row = this.recordings.get(callId);
    if (row && row.deletedAt === null) this.recordings.replace({ ...row, deletedAt: this.rt.clock.nowIso() });
    this.rt.calls.forgetRecording(callId);
  }

  // --- transcripts and summaries (public API) ---

  transcriptWire(accountId: string, callId: string) {
    this.rt.calls.get(accountId, callId);
    const t = this.transcripts.get(callId);
    if (!t) return { status: 'not_requested' as const };
    if (t.status === 'pending') return { status: t.status, startedAt: t.startedAt };
    if (t.status === 'failed') return { status: t.status, stage: t.stage, error: t.error };
    const segments = this.segmentsOf(callId);
    return { status: t.status, callId, segmentCount: segments.length, segments };
  }

  /** requestTranscript: every check before the first write; 202 body. */
  requestTranscript(accountId: string, callId: string): { status: 'pending'; callId: string } {
    this.rt.calls.get(accountId, callId);
    const t = this.transcripts.get(callId);
    if (t && t.status !== 'failed') {
      throw recordingErrors.TRANSCRIPT_ALREADY_REQUESTED(`the transcript of call ${callId} was already requested (${t.status})`, {
        status: t.status,
        ...(t.status === 'pending' ? { startedAt: t.startedAt } : {}),
      });
    }
    if (t && t.attempts >= MAX_TRANSCRIPT_ATTEMPTS) {
      // The reference puts the failure code, not a sentence, in `error` here.
      throw recordingErrors.TRANSCRIPT_RETRY_LIMIT(t.error ?? 'transcription_failed', { status: 'failed', stage: t.stage });
    }
    if (!this.available(callId)) {
      throw recordingErrors.NO_RECORDING(`call ${callId} has no recording to transcribe (none was made, the call has not ended, or it was deleted or expired)`);
    }
    this.startTranscript(accountId, callId);
    return { status: 'pending', callId };
  }

  summaryWire(accountId: string, callId: string) {
    this.rt.calls.get(accountId, callId);
    const s = this.summaries.get(callId);
    if (!s) return { status: 'not_requested' as const };
    if (s.status === 'pending') return { status: s.status };
    if (s.status === 'failed') return { status: s.status, failedReason: s.failedReason };
    const rec = this.recordings.get(callId)!;
    const turns = this.rt.calls.get(accountId, callId).conversation;
    const resultJson = s.schema !== null ? summaryFor(s.schema, rec.seed, callId) : turns ? conversationSummary(turns) : defaultSummary(rec.seed, callId);
    return { status: s.status, callId, resultJson, provider: SUMMARY_PROVIDER, model: SUMMARY_MODEL, promptVersion: s.version, schemaVersion: s.version, updatedAt: s.updatedAt! };
  }

  // --- control plane ---

  /** Scripts a call's transcript and summary outcomes (the caller checked the call exists); fields left out keep their value. */
  script(callId: string, input: ArtifactScriptInput): ArtifactScript {
    const old = this.scripts.get(callId) ?? defaultScript(callId);
    const next: ArtifactScript = { id: callId, transcript: { ...old.transcript, ...input.transcript }, summary: { ...old.summary, ...input.summary } };
    put(this.scripts, next);
    return next;
  }

  scriptOf(callId: string): ArtifactScript {
    return this.scripts.get(callId) ?? defaultScript(callId);
  }

  /** The organisation settings: auto-transcription and the summary output schema. */
  configure(accountId: string, input: ArtifactSettingsInput): ArtifactSettings {
    this.rt.accounts.require(accountId);
    const old = this.settingsOf(accountId);
    const summarySchema = input.summarySchema === undefined ? old.summarySchema : input.summarySchema;
    const next: ArtifactSettings = {
      id: accountId,
      autoTranscribe: input.autoTranscribe ?? old.autoTranscribe,
      summarySchema,
      version: summarySchema === null ? DEFAULT_SCHEMA_VERSION : `org:${accountId}:${schemaHash(summarySchema)}`,
    };
    put(this.settings, next);
    return next;
  }

  settingsOf(accountId: string): ArtifactSettings {
    return this.settings.get(accountId) ?? { id: accountId, autoTranscribe: false, summarySchema: null, version: DEFAULT_SCHEMA_VERSION };
  }

  /** What the inspector shows of a call: its recordings with their download paths, transcript and summary states. */
  view(callId: string) {
    const row = this.recordings.get(callId);
    const t = this.transcripts.get(callId);
    const s = this.summaries.get(callId);
    const state = !row ? 'none' : row.deletedAt !== null ? 'deleted' : this.expired(row) ? 'expired' : row.endedAt === null ? 'recording' : 'available';
    return {
      recording: row
        ? {
            state,
            seconds: totalSeconds(row),
            url: recordingPath(row.accountId, row.id),
            endedAt: row.endedAt,
            expiresAt: row.expiresAt,
            deletedAt: row.deletedAt,
            pieces: row.pieces.map((p) => ({ name: p.name, seconds: p.seconds, at: p.at, url: `${recordingPath(row.accountId, row.id)}/verb/${encodeURIComponent(p.name)}` })),
          }
        : null,
      transcript: t ? { status: t.status, attempts: t.attempts, startedAt: t.startedAt, finishedAt: t.finishedAt, stage: t.stage, error: t.error, audioSeconds: t.audioSeconds } : { status: 'not_requested' },
      summary: s ? { status: s.status, startedAt: s.startedAt, updatedAt: s.updatedAt, failedReason: s.failedReason, schemaVersion: s.version } : { status: 'not_requested' },
      script: this.scriptOf(callId),
    };
  }

  // --- the clock ---

  private startTranscript(accountId: string, callId: string): void {
    const old = this.transcripts.get(callId);
    const now = this.rt.clock.now();
    const row: TranscriptRow = { id: callId, accountId, status: 'pending', attempts: (old?.attempts ?? 0) + 1, startedAt: iso(now), finishedAt: null, stage: null, error: null, audioSeconds: 0 };
    put(this.transcripts, row);
    this.rt.clock.schedule('recordings.transcribed', now + this.scriptOf(callId).transcript.seconds * 1000, { callId, attempt: row.attempts });
  }

  private transcribed(callId: string, attempt: number): void {
    const t = this.transcripts.get(callId);
    if (!t || t.status !== 'pending' || t.attempts !== attempt) return;
    // no_recording and no_audio come from the recording itself, so every retry gives them again.
    if (!this.available(callId)) return this.fail(t, 'download', 'no_recording');
    const rec = this.recordings.get(callId)!;
    const seconds = totalSeconds(rec);
    if (seconds === 0) return this.fail(t, 'audio', 'no_audio');
    const script = this.scriptOf(callId).transcript;
    if (script.failAt !== null && (script.failTimes === null || attempt <= script.failTimes)) return this.fail(t, script.failAt, 'transcription_failed');
    const done = this.transcripts.replace({ ...t, status: 'completed', finishedAt: this.rt.clock.nowIso(), audioSeconds: seconds });
    this.emit('transcript.completed', rec, { Status: 'completed', SegmentCount: String(this.segmentTotal(rec)) });
    this.startSummary(done);
  }

  private fail(t: TranscriptRow, stage: TranscriptStage, error: TranscriptError): void {
    const row = this.transcripts.replace({ ...t, status: 'failed', finishedAt: this.rt.clock.nowIso(), stage, error });
    this.emitFor(row.accountId, row.id, 'transcript.failed', { Status: 'failed', Stage: stage, Error: error });
  }

  /** Auto-transcription of a call without a recording: failed at once, as every retry would. */
  private failNow(accountId: string, callId: string, stage: TranscriptStage, error: TranscriptError): void {
    const now = this.rt.clock.nowIso();
    this.transcripts.insert({ id: callId, accountId, status: 'failed', attempts: 1, startedAt: now, finishedAt: now, stage, error, audioSeconds: 0 });
    this.emitFor(accountId, callId, 'transcript.failed', { Status: 'failed', Stage: stage, Error: error });
  }

  private startSummary(t: TranscriptRow): void {
    const settings = this.settingsOf(t.accountId);
    const now = this.rt.clock.now();
    const row: SummaryRow = { id: t.id, accountId: t.accountId, status: 'pending', startedAt: iso(now), updatedAt: null, failedReason: null, version: settings.version, schema: settings.summarySchema, audioSeconds: t.audioSeconds };
    put(this.summaries, row);
    this.rt.clock.schedule('recordings.summarized', now + this.scriptOf(t.id).summary.seconds * 1000, { callId: t.id });
  }

  private summarized(callId: string): void {
    const s = this.summaries.get(callId);
    if (!s || s.status !== 'pending') return;
    const reason = this.scriptOf(callId).summary.failedReason;
    const now = this.rt.clock.nowIso();
    if (reason !== null) {
      this.summaries.replace({ ...s, status: 'failed', updatedAt: now, failedReason: reason });
      this.emitFor(s.accountId, callId, 'summary.failed', { Status: 'failed', FailedReason: reason });
      return;
    }
    this.summaries.replace({ ...s, status: 'completed', updatedAt: now });
    this.emitFor(s.accountId, callId, 'summary.completed', { Status: 'completed', SchemaVersion: s.version });
  }

  private expire(callId: string): void {
    const row = this.recordings.get(callId);
    if (row && this.expired(row)) this.rt.calls.forgetRecording(callId);
  }

  // --- helpers ---

  /** The whole-call recording can be read: the call ended, not deleted, within retention. */
  private available(callId: string): boolean {
    const row = this.recordings.get(callId);
    return !!row && row.endedAt !== null && row.deletedAt === null && !this.expired(row);
  }

  private expired(row: RecordingRow): boolean {
    return row.expiresAt !== null && this.rt.clock.now() >= parseInstant(row.expiresAt)!;
  }

  /** The transcript's segments: a call's conversation when it has one, else text made from the recording's seed. */
  private segmentsOf(callId: string) {
    const rec = this.recordings.get(callId)!;
    const legacy = parseInstant(rec.callCreatedAt)! < parseInstant(NUMBERED_SPEAKERS_FROM)!;
    const turns = this.rt.calls.get(rec.accountId, callId).conversation;
    if (turns) return conversationSegments(turns, legacy);
    const speakers = speakerLabels(legacy, this.rt.calls.transferPartiesOf(rec.accountId, callId));
    return transcriptSegments(rec.seed, callId, wholePieces(rec), speakers);
  }

  private segmentTotal(rec: RecordingRow): number {
    const turns = this.rt.calls.get(rec.accountId, rec.id).conversation;
    return turns ? conversationSegments(turns, false).length : segmentCount(rec.seed, rec.id, wholePieces(rec));
  }

  private blankRecording(call: RecordedCall): RecordingRow {
    return {
      id: call.id,
      accountId: call.accountId,
      phoneNumber: call.direction === 'outbound' ? call.from : call.to,
      seed: seedOf(this.rt.seed, call.id),
      callCreatedAt: call.dateCreated,
      pieces: [],
      endedAt: null,
      expiresAt: null,
      deletedAt: null,
    };
  }

  private emit(type: string, rec: RecordingRow, fields: Record<string, string>): void {
    this.emitFor(rec.accountId, rec.id, type, fields);
  }

  private emitFor(accountId: string, callId: string, type: string, fields: Record<string, string>): void {
    const now = this.rt.clock.now();
    this.rt.events.emit({ type, accountId, resourceId: callId, at: now, payload: { CallId: callId, AccountId: accountId, Event: type, Timestamp: iso(now), ...fields } });
  }

  /** Transcription and summarisation seconds: the recording's length, once per completed transcript and summary. */
  private usageEntries(accountId: string): UsageEntry[] {
    const out: UsageEntry[] = [];
    const entry = (meter: UsageEntry['meter'], callId: string, quantity: number, at: string) => {
      const rec = this.recordings.get(callId);
      const phoneNumber = rec?.phoneNumber ?? null;
      out.push({ meter, quantity, at, phoneNumber, linkId: phoneNumber === null ? null : this.outbound.linkIdOf(accountId, phoneNumber) });
    };
    for (const t of this.transcripts.all()) {
      if (t.accountId === accountId && t.status === 'completed') entry('transcription_seconds', t.id, t.audioSeconds, t.finishedAt!);
    }
    for (const s of this.summaries.all()) {
      if (s.accountId === accountId && s.status === 'completed') entry('summary_seconds', s.id, s.audioSeconds, s.updatedAt!);
    }
    return out;
  }
}

/** The pieces the whole-call recording holds: all of them, cut at MAX_WHOLE_SECONDS. */
function wholePieces(row: RecordingRow): { seconds: number }[] {
  let left = MAX_WHOLE_SECONDS;
  const out: { seconds: number }[] = [];
  for (const p of row.pieces) {
    if (left <= 0) break;
    out.push({ seconds: Math.min(p.seconds, left) });
    left -= p.seconds;
  }
  return out;
}

/** The whole-call recording's length: what the file, the webhook, transcripts and usage say. */
function totalSeconds(row: RecordingRow): number {
  return wholePieces(row).reduce((n, p) => n + p.seconds, 0);
}

function defaultScript(callId: string): ArtifactScript {
  return { id: callId, transcript: { failAt: null, failTimes: null, seconds: DEFAULT_TRANSCRIPT_SECONDS }, summary: { failedReason: null, seconds: DEFAULT_SUMMARY_SECONDS } };
}

/** A stable hash of a schema: keys sorted at every level, so key order does not change the version. */
function schemaHash(schema: unknown): string {
  const canonical = (v: unknown): unknown =>
    v === null || typeof v !== 'object' ? v : Array.isArray(v) ? v.map(canonical) : Object.fromEntries(Object.keys(v).sort().map((k) => [k, canonical((v as Record<string, unknown>)[k])]));
  return createHash('sha256').update(JSON.stringify(canonical(schema))).digest('hex').slice(0, 12);
}
