// A call's artifacts after it ends (docs/decisions.md "Recordings, transcripts and summaries"): the recording of each record block, the whole-call
// recording (those recordings joined, docs/decisions.md), kept 90 virtual days from the call's end
// and deletable; the transcript (pending, then completed or failed on the virtual clock; at most
// MAX_TRANSCRIPT_ATTEMPTS attempts) and the summary of a completed transcript; the webhooks
// `recording.completed`, `transcript.*` and `summary.*`; their usage meters. Outcomes are
// scripted per call and settings per account through the control plane. Audio and text are
// generated when read from the stored lengths and seeds (wav.ts, text.ts).
import { Table } from '../../core/store.ts';
import { iso, parseInstant } from '../../core/clock.ts';
import { RecordingLinks, linkPath } from '../../rules/recording-links.ts';
import type { CallRow } from '../calls/schema.ts';
import { seedOf, wavFile } from './wav.ts';
import { defaultSummary, segmentCount, speakerLabels, summaryFor, transcriptSegments } from './text.ts';
import { conversationSummary, segmentsOf as conversationSegments } from './conversation-text.ts';
import { audibleTurns, conversationWav } from './conversation-audio.ts';
import { withSpeech } from '../../peers/speech/synthesizer.ts';
import { recordingErrors } from './errors.ts';
import { defaultScript, put, recordingPath, schemaHash, totalSeconds, wholePieces } from './pieces.ts';
import type { recordingEvents } from './events.ts';
import type { RecordingsModelScope } from './ports.ts';
import { artifactUsage } from './usage.ts';
import {
  DEFAULT_SCHEMA_VERSION,
  MAX_TRANSCRIPT_ATTEMPTS,
  NUMBERED_SPEAKERS_FROM,
  RETENTION_MS,
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

export { recordingErrors };

/** The call fields a recording keeps. */
export interface RecordedCall {
  id: string;
  accountId: string;
  direction: 'outbound' | 'inbound';
  from: string;
  to: string;
  dateCreated: string;
}

type ArtifactEvent = keyof typeof recordingEvents;

export class RecordingsModel {
  readonly recordings = new Table<RecordingRow>(); // callId → the call's recordings
  readonly transcripts = new Table<TranscriptRow>(); // callId → its transcript (absent: not_requested)
  readonly summaries = new Table<SummaryRow>(); // callId → its summary (absent: not_requested)
  readonly scripts = new Table<ArtifactScript>(); // callId → scripted outcomes (control plane)
  readonly settings = new Table<ArtifactSettings>(); // accountId → organisation settings (control plane)

  /** Signed links before 2026-07-28, plain paths after (rules/recording-links.ts). */
  private readonly links: RecordingLinks;

  constructor(private readonly rt: RecordingsModelScope) {
    this.links = new RecordingLinks(() => rt.seed);
    rt.jobs.on('recordings.expire', (p) => this.expire(p.callId));
    rt.jobs.on('recordings.transcribed', (p) => this.transcribed(p.callId, p.attempt));
    rt.jobs.on('recordings.summarized', (p) => this.summarized(p.callId));
    // A record block's audio is over (calls' internal event).
    rt.events.on('call.recorded', (e) => this.recorded(e.payload.call, e.payload.url, e.payload.seconds));
    rt.events.on('call.ended', (e) => {
      const row = e.payload; // every call, flow or VoiceML
      // Most calls (a batch's 100,000s) record nothing and transcribe nothing: skip them cheaply.
      if (row.recordingUrl === null && !this.recordings.has(row.id) && !this.settings.get(row.accountId)?.autoTranscribe) return;
      this.callEnded(row);
    });
    rt.usage.register((accountId) => artifactUsage(this, accountId, (a, n) => rt.numbers.openLinkOf(a, n)));
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

  /** A record block finished recording `seconds` under the link it announced (`call.recorded`). */
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
      this.rt.jobs.schedule('recordings.expire', now + RETENTION_MS, { callId: call.id });
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
  wholeFile(accountId: string, callId: string): Promise<{ bytes: Buffer; filename: string }> {
    this.rt.calls.get(accountId, callId);
    return this.fileOf(callId, null);
  }

  /** getVerbRecording: one record block's WAV by name (its last take). */
  verbFile(accountId: string, callId: string, name: string): Promise<{ bytes: Buffer; filename: string }> {
    this.rt.calls.get(accountId, callId);
    return this.fileOf(callId, name);
  }

  /**
   * Control plane (inspector): the same files without an account key. Asynchronous because a
   * conversation's recording is spoken when downloaded (the speech engine loads on first use).
   */
  async fileOf(callId: string, name: string | null): Promise<{ bytes: Buffer; filename: string }> {
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
      // A managed agent's call: its conversation spoken on its timeline (docs/agents.md).
      const turns = this.rt.calls.get(row.accountId, callId).conversation;
      if (turns && audibleTurns(turns)) return { bytes: await withSpeech((synth) => conversationWav(turns, totalSeconds(row), synth)), filename: `${row.id}.wav` };
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

  /** Where a call's recording stands (the control plane's view). */
  stateOf(row: RecordingRow): 'recording' | 'available' | 'deleted' | 'expired' {
    return row.deletedAt !== null ? 'deleted' : this.expired(row) ? 'expired' : row.endedAt === null ? 'recording' : 'available';
  }

  // --- the clock ---

  private startTranscript(accountId: string, callId: string): void {
    const old = this.transcripts.get(callId);
    const now = this.rt.clock.now();
    const row: TranscriptRow = { id: callId, accountId, status: 'pending', attempts: (old?.attempts ?? 0) + 1, startedAt: iso(now), finishedAt: null, stage: null, error: null, audioSeconds: 0 };
    put(this.transcripts, row);
    this.rt.jobs.schedule('recordings.transcribed', now + this.scriptOf(callId).transcript.seconds * 1000, { callId, attempt: row.attempts });
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
    this.rt.jobs.schedule('recordings.summarized', now + this.scriptOf(t.id).summary.seconds * 1000, { callId: t.id });
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

  private emit(type: ArtifactEvent, rec: RecordingRow, fields: Record<string, string>): void {
    this.emitFor(rec.accountId, rec.id, type, fields);
  }

  private emitFor(accountId: string, callId: string, type: ArtifactEvent, fields: Record<string, string>): void {
    const now = this.rt.clock.now();
    this.rt.events.emit(type, { accountId, resourceId: callId, at: now, payload: { CallId: callId, AccountId: accountId, Event: type, Timestamp: iso(now), ...fields } });
  }

}
