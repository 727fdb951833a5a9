// A recording: what an app's session sent to an implementation (the real service, or a simulator)
// and what it answered, exchange by exchange, secrets redacted (redact.ts). Written by
// `platform-sim record` (proxy.ts), read by `platform-conformance replay` (conformance/replay/).
//
//   DIR/recording.json     { format, version, upstream, startedAt }
//   DIR/exchanges.ndjson   one Exchange per line, appended as each completes (`seq`: arrival order)
//
// Bodies are text when they are UTF-8 (JSON, HTML, form), base64 otherwise; a body over
// MAX_RECORDED_BODY bytes is cut (the client still got all of it). Secrets are placeholders
// `[secret:N]`, the same N for the same value throughout a recording, so that replay can tell
// which key a request used and follow a key or token an answer handed out.
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const RECORDING_FORMAT = 'platform-recording';
export const RECORDING_VERSION = 1;
export const MAX_RECORDED_BODY = 1024 * 1024;

export interface RecordingMeta {
  format: typeof RECORDING_FORMAT;
  version: number;
  /** The implementation the session went to (its origin). */
  upstream: string;
  /** Wall time the recording began. */
  startedAt: string;
}

export interface RecordedMessage {
  /** Lowercase names; secrets redacted; hop-by-hop headers left out. */
  headers: Record<string, string>;
  body?: string;
  bodyBase64?: string;
  /** The body was longer than MAX_RECORDED_BODY and is cut. */
  truncated?: true;
}

export interface RecordedRequest extends RecordedMessage {
  method: string;
  /** Path and query, secret query values redacted. */
  path: string;
}

export interface RecordedResponse extends RecordedMessage {
  status: number;
}

export interface Exchange {
  /** Arrival order, from 1. */
  seq: number;
  /** Wall time the request arrived. */
  at: string;
  /** Wall milliseconds the upstream took. */
  ms: number;
  request: RecordedRequest;
  /** The upstream's answer; absent when it could not be reached (`error` says why; the client got 502). */
  response?: RecordedResponse;
  error?: string;
  /** A WebSocket upgrade: passed through, its messages not recorded. */
  upgrade?: true;
}

export class RecordingError extends Error {}

const metaFile = (dir: string) => path.join(dir, 'recording.json');
const exchangesFile = (dir: string) => path.join(dir, 'exchanges.ndjson');

/** Starts a recording in `dir` (created); refuses a dir that already holds one. */
export function beginRecording(dir: string, upstream: string): RecordingMeta {
  if (existsSync(metaFile(dir))) throw new RecordingError(`${dir} already holds a recording; give another --out`);
  mkdirSync(dir, { recursive: true });
  const meta: RecordingMeta = { format: RECORDING_FORMAT, version: RECORDING_VERSION, upstream, startedAt: new Date().toISOString() };
  writeFileSync(metaFile(dir), `${JSON.stringify(meta, null, 2)}\n`);
  writeFileSync(exchangesFile(dir), '');
  return meta;
}

export function appendExchange(dir: string, e: Exchange): void {
  appendFileSync(exchangesFile(dir), `${JSON.stringify(e)}\n`);
}

/** Reads a recording: its meta and exchanges in arrival order. */
export function readRecording(dir: string): { meta: RecordingMeta; exchanges: Exchange[] } {
  if (!existsSync(metaFile(dir))) throw new RecordingError(`${dir} holds no recording (no recording.json): record one with platform-sim record`);
  const meta = JSON.parse(readFileSync(metaFile(dir), 'utf8')) as RecordingMeta;
  if (meta.format !== RECORDING_FORMAT) throw new RecordingError(`${metaFile(dir)} is not a recording (format "${meta.format}")`);
  if (meta.version !== RECORDING_VERSION) throw new RecordingError(`${metaFile(dir)} has version ${meta.version}; this kit reads version ${RECORDING_VERSION}`);
  const lines = existsSync(exchangesFile(dir)) ? readFileSync(exchangesFile(dir), 'utf8').split('\n') : [];
  const exchanges: Exchange[] = [];
  lines.forEach((line, i) => {
    if (line.trim() === '') return;
    try {
      exchanges.push(JSON.parse(line) as Exchange);
    } catch {
      // The recorder was stopped in the middle of its last write: that exchange is incomplete.
      if (i < lines.length - 2) throw new RecordingError(`${exchangesFile(dir)} line ${i + 1} is not JSON`);
    }
  });
  return { meta, exchanges: exchanges.sort((a, b) => a.seq - b.seq) };
}

/** A recorded body as text (JSON, HTML...), or undefined when it is binary or absent. */
export function bodyText(m: RecordedMessage): string | undefined {
  return m.body;
}

/** The parsed JSON of a recorded body, or undefined. */
export function bodyJson(m: RecordedMessage): unknown {
  if (m.body === undefined || m.truncated || !/json/i.test(m.headers['content-type'] ?? '')) return undefined;
  try {
    return JSON.parse(m.body);
  } catch {
    return undefined;
  }
}
