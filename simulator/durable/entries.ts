// The journal's entries: one JSON object per line, each something that changed the state where
// it entered the deterministic core (docs/decisions.md "Durable state"). Keys are short: a busy
// simulator writes one line per request.
//
//   {"t":"q", "m":method, "u":url, "h":headers, "b":text body | "b64":binary body, "ip":address}
//       a request, public or control plane, as the pipeline received it
//   {"t":"o", "i":number, "k":kind, "v":value | "e":error message}
//       the outcome of wall-clock I/O (core/outcome-gate.ts), by the number of the I/O
//   {"t":"e", "k":kind, "a":argument}
//       a state change I/O work made itself (core/io.ts effect(): the fake DNS counting a lookup)
//   {"t":"u", "s":socket, ...request}   a WebSocket opened (its upgrade request, as "q")
//   {"t":"m", "s":socket, "d":text, "b":1 when binary}   a message on it
//   {"t":"x", "s":socket, "c":close code, "r":reason}   it closed
//   {"t":"c", "to":epoch ms}   the realtime clock driver moved virtual time
//   {"t":"s", "v":settings}    live settings changed outside a request (settings.ts)
import type { SimRequest } from '../core/operation.ts';
import type { Settled } from '../core/outcome-gate.ts';
import type { LiveSettings } from './settings.ts';

export interface RequestEntry {
  t: 'q';
  m: string;
  u: string;
  h?: Record<string, string | string[]>;
  b?: string;
  b64?: string;
  ip?: string;
}
export interface OutcomeEntry {
  t: 'o';
  i: number;
  k: string;
  v?: unknown;
  e?: string;
}
export interface EffectEntry {
  t: 'e';
  k: string;
  a: string;
}
export type SocketEntry =
  | ({ t: 'u'; s: number } & Omit<RequestEntry, 't'>)
  | { t: 'm'; s: number; d: string; b?: 1 }
  | { t: 'x'; s: number; c: number; r: string };
export interface ClockEntry {
  t: 'c';
  to: number;
}
export interface SettingsEntry {
  t: 's';
  v: LiveSettings;
}
export type Entry = RequestEntry | OutcomeEntry | EffectEntry | SocketEntry | ClockEntry | SettingsEntry;

/** Headers the body itself or the connection decides: replay hands the body over whole. */
const DROPPED_HEADERS = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive']);

/** Made with the first journaled body: only a simulator with --state-dir needs it, not every start. */
let strictUtf8: InstanceType<typeof TextDecoder> | undefined;

export function requestEntry(req: SimRequest): RequestEntry {
  const e: RequestEntry = { t: 'q', m: req.method, u: req.url };
  if (req.headers) {
    const h: Record<string, string | string[]> = {};
    let any = false;
    for (const k in req.headers) {
      const v = req.headers[k];
      if (v === undefined || DROPPED_HEADERS.has(k.toLowerCase())) continue;
      h[k] = v;
      any = true;
    }
    if (any) e.h = h;
  }
  if (typeof req.body === 'string') e.b = req.body;
  else if (req.body !== undefined && req.body.byteLength > 0) {
    try {
      e.b = (strictUtf8 ??= new TextDecoder('utf-8', { fatal: true })).decode(req.body);
    } catch {
      e.b64 = Buffer.from(req.body.buffer, req.body.byteOffset, req.body.byteLength).toString('base64');
    }
  }
  if (req.remoteAddress !== undefined) e.ip = req.remoteAddress;
  return e;
}

/** The request an entry holds, as the pipeline receives it. */
export function entryRequest(e: RequestEntry): SimRequest {
  const req: SimRequest = { method: e.m, url: e.u, headers: e.h ?? {} };
  if (e.b !== undefined) req.body = e.b;
  else if (e.b64 !== undefined) req.body = Buffer.from(e.b64, 'base64');
  if (e.ip !== undefined) req.remoteAddress = e.ip;
  return req;
}

export function outcomeEntry(id: number, kind: string, settled: Settled): OutcomeEntry {
  const e: OutcomeEntry = { t: 'o', i: id, k: kind };
  if (settled.error !== undefined) e.e = settled.error;
  else if (settled.value !== undefined) e.v = settled.value;
  return e;
}

export function entrySettled(e: OutcomeEntry): Settled {
  return e.e !== undefined ? { error: e.e } : e.v === undefined ? {} : { value: e.v };
}

/** Why a parsed line is not an entry, or undefined when it is one. */
export function entryProblem(v: unknown): string | undefined {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return 'not a JSON object';
  const e = v as Record<string, unknown>;
  switch (e.t) {
    case 'q':
      return typeof e.m === 'string' && typeof e.u === 'string' ? undefined : 'a request without method or url';
    case 'o':
      return Number.isInteger(e.i) && typeof e.k === 'string' ? undefined : 'an outcome without its number or kind';
    case 'e':
      return typeof e.k === 'string' && typeof e.a === 'string' ? undefined : 'an effect without its kind or argument';
    case 'u':
      return Number.isInteger(e.s) && typeof e.m === 'string' && typeof e.u === 'string' ? undefined : 'a socket opened without its number or request';
    case 'm':
      return Number.isInteger(e.s) && typeof e.d === 'string' ? undefined : 'a socket message without its socket or text';
    case 'x':
      return Number.isInteger(e.s) && Number.isInteger(e.c) && typeof e.r === 'string' ? undefined : 'a socket close without its socket, code or reason';
    case 'c':
      return typeof e.to === 'number' && Number.isFinite(e.to) ? undefined : 'a clock move without its instant';
    case 's':
      return e.v && typeof e.v === 'object' ? undefined : 'settings without values';
    default:
      return `an entry of unknown type ${JSON.stringify(e.t)}`;
  }
}
