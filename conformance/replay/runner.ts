// Replays a recording against a target: the same requests, in order, each carrying the target's
// ids where the recording had the recorded implementation's (learnt from the target's answers at
// the same places), and the target's credentials where it had a key: the first key the session
// used without getting it from an answer is the main account's, the second the alt account's, one
// an answer handed out (a created account's) is the one the target handed out there. A secret the
// session sent (an MCP secret, a SIP password) is unknown to the recording: a fresh one goes
// instead. Each exchange is compared (compare.ts); WebSocket upgrades and exchanges the recorder
// could not complete are passed over with the reason.
import { bodyJson, type Exchange, type RecordedRequest } from '../recording/format.ts';
import { placeholderNumber } from '../recording/redact.ts';
import type { Target, WireRequest, WireResponse } from '../target.ts';
import { compareExchange, type Difference } from './compare.ts';
import { isPlaceholder, ValueMap } from './values.ts';

export interface ExchangeResult {
  seq: number;
  method: string;
  /** The recorded path (redacted). */
  path: string;
  recordedStatus?: number;
  gotStatus?: number;
  differences: Difference[];
  /** Why it was not replayed. */
  skipped?: string;
}

/** Headers a replay sets itself or leaves to the transport. */
const OWN_HEADERS = new Set(['authorization', 'x-signature', 'cookie', 'content-length', 'host', 'connection', 'accept-encoding', 'user-agent']);

export class Replayer {
  readonly values = new ValueMap();
  private readonly accountsLeft: string[];
  private fresh = 0;

  constructor(private readonly target: Target) {
    this.accountsLeft = [...target.accounts.keys()].sort((a, b) => (a === 'main' ? -1 : b === 'main' ? 1 : a.localeCompare(b)));
  }

  async run(exchanges: readonly Exchange[], onResult?: (r: ExchangeResult) => void): Promise<ExchangeResult[]> {
    const results: ExchangeResult[] = [];
    for (const e of exchanges) {
      const r = await this.one(e);
      results.push(r);
      onResult?.(r);
    }
    return results;
  }

  private async one(e: Exchange): Promise<ExchangeResult> {
    const base = { seq: e.seq, method: e.request.method, path: e.request.path, recordedStatus: e.response?.status, differences: [] };
    if (e.upgrade) return { ...base, skipped: 'a WebSocket upgrade (its messages were not recorded)' };
    if (!e.response) return { ...base, skipped: `the recorder could not reach the upstream (${e.error ?? 'no answer'})` };
    if (e.request.truncated) return { ...base, skipped: 'its request body was too large to record whole' };
    let wire: WireRequest;
    try {
      wire = this.request(e.request);
    } catch (err) {
      return { ...base, skipped: (err as Error).message };
    }
    let got: WireResponse;
    try {
      got = await this.target.send(wire);
    } catch (err) {
      return { ...base, differences: [{ kind: 'status', at: 'status', recorded: e.response.status, got: `no answer (${(err as Error).message})` }] };
    }
    const differences = compareExchange(e.response, got, this.values);
    // Ids, and keys an answer handed out (a created account's), are the target's from now on.
    this.values.learn(bodyJson(e.response), got.json);
    return { ...base, gotStatus: got.status, differences };
  }

  /** The request to send: the target's ids, credentials and fresh secrets in place of the recorded ones. */
  request(r: RecordedRequest): WireRequest {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(r.headers)) if (!OWN_HEADERS.has(k)) headers[k] = this.values.text(v);
    const control = r.path.startsWith('/_sim');
    const auth = r.headers.authorization;
    if (control) {
      if (this.target.controlToken) headers.authorization = `Bearer ${this.target.controlToken}`;
    } else if (auth !== undefined) {
      const m = /^(\w+)\s+(\S+)$/.exec(auth);
      const key = m && isPlaceholder(m[2]) ? this.keyFor(m[2]!, r.path) : undefined;
      if (key === undefined) throw new Error(`its credential (${auth}) stands for no account of the target: give the target a second account (--alt-account/--alt-key)`);
      headers.authorization = `${m![1]} ${key}`;
    }
    let body: string | Uint8Array | undefined;
    if (r.bodyBase64 !== undefined) body = Buffer.from(r.bodyBase64, 'base64');
    else if (r.body !== undefined) {
      const json = bodyJson(r);
      body = json === undefined ? this.values.text(r.body) : JSON.stringify(this.secrets(this.values.substitute(json)));
    }
    return { method: r.method, path: this.secretsInPath(this.values.text(r.path)), headers, body: body as string | undefined };
  }

  /** The target's key for a recorded key: learnt, or the next of the target's accounts (with the path's account id). */
  private keyFor(placeholder: string, path: string): string | undefined {
    const known = this.values.get(placeholder);
    if (known !== undefined) return known;
    const name = this.accountsLeft.shift();
    if (name === undefined) return undefined;
    const creds = this.target.accounts.get(name)!;
    this.values.set(placeholder, creds.key);
    const account = /^\/v1\/accounts\/([^/?]+)/.exec(path)?.[1];
    if (account !== undefined) this.values.set(decodeURIComponent(account), creds.accountId);
    return creds.key;
  }

  /** Secrets the session sent that no answer gave: a fresh value each (the same for the same placeholder). */
  private secrets(v: unknown): unknown {
    if (isPlaceholder(v)) return this.freshFor(v);
    if (Array.isArray(v)) return v.map((x) => this.secrets(x));
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, this.secrets(x)]));
    return v;
  }

  private secretsInPath(p: string): string {
    return p.replace(/\[secret:\d+\]/g, (ph) => encodeURIComponent(this.freshFor(ph)));
  }

  private freshFor(placeholder: string): string {
    const known = this.values.get(placeholder);
    if (known !== undefined) return known;
    const value = `Replay-secret-${placeholderNumber(placeholder)}-${(++this.fresh).toString(36)}x7Q`;
    this.values.set(placeholder, value);
    return value;
  }
}
