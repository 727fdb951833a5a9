// Where the kit sends requests: an in-process simulator (no socket, `--target sim`) or any base
// URL over HTTP (undici). Both answer the same WireRequest; the runner never knows which.
import type { Readable } from 'node:stream';
import { Pool, request } from 'undici';
import { createSimulator, type Simulator, type SimRequest, type SimResponse } from '../simulator/index.ts';

export interface Credentials {
  accountId: string;
  key: string;
}

export interface WireRequest {
  method: string;
  /** Path and query, e.g. "/v1/accounts/AC1/blocked-callers?status=all". */
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface WireResponse {
  status: number;
  /** Lowercase names. */
  headers: Record<string, string>;
  text: string;
  /** The parsed body when it is JSON, else undefined. */
  json: unknown;
  /** The raw body of a binary answer (a WAV recording), for expectations that read bytes. */
  bytes?: Uint8Array;
  ms: number;
}

export interface Target {
  /** "sim", or the base URL. */
  readonly label: string;
  /** Named credentials: `main`, and `alt` when a second account is configured. */
  readonly accounts: Map<string, Credentials>;
  readonly controlToken?: string;
  send(req: WireRequest): Promise<WireResponse>;
  /** ws:// or wss:// origin of the target's HTTP port, for WebSocket steps (the Agent SDK); the in-process simulator listens on loopback on first use. */
  socketBase?(): Promise<string>;
  /** Called before each scenario. The in-process simulator goes back to its fixture with `seed`. */
  isolate(seed: number): Promise<void>;
  /** The target's whole state, to put back with `restoreState` (around a scenario that resets the target). */
  saveState?(): Promise<SavedState>;
  restoreState?(state: SavedState): Promise<void>;
  /** Where units run beside the others (conformance/unit-lanes.ts) go; without it every unit runs in order. */
  lanes?: Lanes;
  close(): Promise<void>;
}

/**
 * Targets for units run beside the main sequence. `shared: false`: each lane is a copy of its own
 * (the in-process simulator makes a new one from the same fixture and seed, nothing shared);
 * `shared: true`: the lanes are the target itself, so only units provably on their own go there.
 */
export interface Lanes {
  shared: boolean;
  /** A target for one lane; the run closes it at its end. */
  open(): Promise<Target>;
}

/** A target's whole state as its control plane gives it (`GET /_sim/state`), kept as text. */
export interface SavedState {
  text: string;
}

export function parseBody(text: string, contentType: string | undefined): unknown {
  if (!text) return undefined;
  if (contentType && !/json/i.test(contentType)) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Intercepts requests to the in-process simulator (the kit's own tests build wrong servers with it). */
export type Middleware = (req: SimRequest, next: (req: SimRequest) => Promise<SimResponse>) => Promise<SimResponse>;

export interface SimTargetOptions {
  seed?: number;
  fixture?: string;
  /** Wraps the simulator's handler (given the simulator, so it can look at its state). */
  middleware?: (sim: Simulator) => Middleware;
  /** Serve only the API: requests under /_sim get 404, as on a real implementation. */
  withoutControlPlane?: boolean;
}

/** How long the in-process simulator's requests may hold the thread before the event loop gets a turn. */
const TURN_EVERY_MS = 10;
let lastTurn = performance.now();

/**
 * The in-process simulator answers without touching the event loop, so a unit's thousands of
 * requests would hold back sockets and timers (the webhook receiver, a lane's Agent SDK media
 * paced in real time) for seconds: every TURN_EVERY_MS the event loop runs what is due.
 */
async function eventLoopTurn(): Promise<void> {
  const now = performance.now();
  if (now - lastTurn < TURN_EVERY_MS) return;
  await new Promise<void>((resolve) => setImmediate(resolve));
  lastTurn = performance.now();
}

/** An in-process simulator; `main` and `alt` are the fixture's first two accounts. */
export function simTarget(options: SimTargetOptions = {}): Target & { sim: Simulator } {
  const sim = createSimulator({ seed: options.seed, fixture: options.fixture, onDefect: () => {} });
  const accounts = new Map<string, Credentials>();
  const names = ['main', 'alt'];
  for (const a of sim.fixture.accounts) {
    const name = names[accounts.size];
    if (!name || !a.apiKeys?.[0]) continue;
    accounts.set(name, { accountId: a.accountId, key: a.apiKeys[0] });
  }
  const direct = async (req: SimRequest) => sim.handle(req);
  const middleware = options.middleware?.(sim);
  const handle = async (req: SimRequest): Promise<SimResponse> => {
    if (options.withoutControlPlane && req.url.startsWith('/_sim')) {
      return { status: 404, headers: { 'content-type': 'text/plain' }, body: 'Not Found' };
    }
    return middleware ? middleware(req, direct) : direct(req);
  };
  let listening: Promise<{ url: string; close(): Promise<void> }> | undefined;
  return {
    sim,
    label: 'sim',
    accounts,
    // Same options, so a lane's simulator has the same fixture, seed and middleware (a wrong server stays wrong).
    lanes: { shared: false, open: async () => simTarget(options) },
    socketBase: async () => {
      listening ??= sim.listen(0, '127.0.0.1');
      return (await listening).url.replace(/^http/, 'ws');
    },
    async send(req) {
      await eventLoopTurn();
      const started = performance.now();
      const res = await handle({ method: req.method, url: req.path, headers: req.headers, body: req.body });
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers)) headers[k.toLowerCase()] = v;
      const bytes = res.bytes ?? (isBinary(headers['content-type']) ? Buffer.from(res.body) : undefined);
      return { status: res.status, headers, text: res.body, json: parseBody(res.body, headers['content-type']), bytes, ms: performance.now() - started };
    },
    async isolate(seed) {
      if (options.withoutControlPlane) return;
      await sim.control.reset(seed);
    },
    async saveState() {
      return { text: JSON.stringify(sim.snapshot()) };
    },
    async restoreState(state) {
      sim.restore(JSON.parse(state.text));
    },
    close: async () => {
      if (listening) await (await listening).close();
      await sim.close();
    },
  };
}

export interface RemoteTargetOptions {
  baseUrl: string;
  accounts: Map<string, Credentials>;
  controlToken?: string;
  /** Headers added to every request (e.g. a gateway's own header). */
  headers?: Record<string, string>;
  timeoutMs?: number;
  /** Start each scenario from the state the run found: saved at the first scenario, put back before each and at the end (needs `state`). */
  resetBetweenScenarios?: boolean;
  /** The largest answer body the kit reads (default 1 MiB); a larger one is a failed request. */
  maxBodyBytes?: number;
  /** Let units that are provably on their own run beside the others on this target (never with resetBetweenScenarios). */
  lanes?: boolean;
}

const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
/** A saved state may be far larger than any answer of the API (the simulator accepts up to 256 MiB by default). */
const MAX_STATE_BYTES = 512 * 1024 * 1024;
/** How long a state read waits for live calls to end (a call of the unit before winds down within a second or two). */
const LIVE_WAIT_MS = 10_000;

/**
 * Reads a body up to `max` bytes; past that it stops reading and says so, rather than holding
 * 10 MB in memory and reports. Through the stream's events rather than `for await`: the async
 * iterator cost a few microseconds of every answer (tens of thousands in a run over HTTP).
 */
export function readCapped(body: Readable, max: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    body.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        body.destroy();
        reject(new Error(`the answer's body is over ${max} bytes, more than the kit reads (no answer of the interface is that large)`));
        return;
      }
      chunks.push(chunk);
    });
    body.once('end', () => resolve(Buffer.concat(chunks)));
    body.once('error', reject);
  });
}

/** Path and query characters the URL parser keeps as they are (nothing to encode, no `..` to resolve). */
const PLAIN_PATH = /^(?:\/[\w\-.~!$&()*+,;=:@%]*)+(?:\?[\w\-.~!$&()*+,;=:@%/?]+)?$/;
const DOT_SEGMENT = /\/(?:\.|%2e)/i;

/**
 * The path and query sent for `origin + path`, as the URL parser writes them (what undici sent
 * when given the URL). A plain path is already written so, and skips the parser and undici's
 * URL handling: about 35 µs of CPU of every request (a run over HTTP sends tens of thousands).
 */
export function wirePath(origin: string, path: string): string {
  if (PLAIN_PATH.test(path) && !DOT_SEGMENT.test(path)) return path;
  const url = new URL(origin + path);
  return url.pathname + url.search;
}

/** undici's answer headers with lower-case names, repeated ones joined as HTTP allows. */
export function lowerCaseHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw)) if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return headers;
}

/** Answers whose bytes matter as bytes (audio, images, octet streams), not as text. */
function isBinary(contentType: string | undefined): boolean {
  return contentType !== undefined && /^(audio|image|video)\/|^application\/octet-stream/i.test(contentType);
}

/** Any implementation at a base URL. */
export function remoteTarget(options: RemoteTargetOptions): Target {
  const base = new URL(options.baseUrl);
  if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new Error(`--target must be "sim" or an http(s) URL, got ${options.baseUrl}`);
  const prefix = base.pathname.replace(/\/+$/, '');
  const timeout = options.timeoutMs ?? 30_000;
  // One pool for the one origin, not an Agent: undici's Agent forgets a pool after connections
  // drop and the old pool's late disconnects then close each new one, so from there on every
  // request opened its own connection (seconds of a run against a served simulator).
  const pool = new Pool(base.origin, { headersTimeout: timeout, bodyTimeout: timeout, connect: { timeout } });
  const controlHeaders = (): Record<string, string> => ({ 'content-type': 'application/json', ...(options.controlToken ? { authorization: `Bearer ${options.controlToken}` } : {}) });
  /**
   * GET or PUT /_sim/state, with a body cap of its own; anything but a 2xx is an error naming the
   * status. A GET refused because a call is still live (an Agent SDK call of the unit before,
   * whose sockets are closing) is asked again until the call has ended, for up to LIVE_WAIT_MS.
   */
  const state = async (method: 'GET' | 'PUT', body?: string): Promise<string> => {
    const waitUntil = performance.now() + LIVE_WAIT_MS;
    for (;;) {
      const res = await request(new URL(`${base.origin}${prefix}/_sim/state`), { method, headers: { ...options.headers, ...controlHeaders() }, body, dispatcher: pool });
      const text = (await readCapped(res.body, MAX_STATE_BYTES)).toString('utf8');
      if (res.statusCode < 300) return text;
      if (method === 'GET' && res.statusCode === 409 && text.includes('STATE_HAS_LIVE_CALLS') && performance.now() < waitUntil) {
        await new Promise((r) => setTimeout(r, 50));
        continue;
      }
      throw new Error(`${method} /_sim/state answered ${res.statusCode}: ${text.slice(0, 200)}`);
    }
  };
  let baseline: SavedState | undefined;
  const target: Target = {
    label: base.origin + prefix,
    socketBase: async () => `${base.protocol === 'https:' ? 'wss:' : 'ws:'}//${base.host}`,
    accounts: options.accounts,
    controlToken: options.controlToken,
    async send(req) {
      const started = performance.now();
      const res = await pool.request({
        path: wirePath(base.origin, prefix + req.path),
        method: req.method as 'GET',
        headers: { ...options.headers, ...req.headers },
        body: req.body,
      });
      const raw = await readCapped(res.body, options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES);
      const headers = lowerCaseHeaders(res.headers);
      const binary = isBinary(headers['content-type']);
      const text = binary ? '' : raw.toString('utf8');
      return { status: res.statusCode, headers, text, json: parseBody(text, headers['content-type']), bytes: binary ? raw : undefined, ms: performance.now() - started };
    },
    async isolate() {
      if (!options.resetBetweenScenarios) return;
      // The state the run found is every scenario's start, so the accounts given to the kit stay valid.
      if (!baseline) baseline = await target.saveState!();
      else await target.restoreState!(baseline);
    },
    async saveState() {
      return { text: await state('GET') };
    },
    async restoreState(saved) {
      await state('PUT', saved.text);
    },
    // The lanes share this target and its connection pool; they never reset it (that would put
    // the state back under a unit still running), so lanes and resetBetweenScenarios exclude each other.
    ...(options.lanes && !options.resetBetweenScenarios ? { lanes: { shared: true, open: async () => ({ ...target, lanes: undefined, isolate: async () => {}, close: async () => {} }) } } : {}),
    async close() {
      try {
        if (baseline) await target.restoreState!(baseline);
      } finally {
        await pool.close();
      }
    },
  };
  return target;
}

/** What the target can do: its control plane's `capabilities` plus what the configuration gives. */
export async function probeCapabilities(target: Target, opts: { readOnly: boolean; extra?: string[] }): Promise<Set<string>> {
  const caps = new Set<string>(opts.extra ?? []);
  const headers: Record<string, string> = {};
  if (target.controlToken) headers.authorization = `Bearer ${target.controlToken}`;
  try {
    const res = await target.send({ method: 'GET', path: '/_sim/health', headers });
    const list = (res.json as { capabilities?: unknown } | undefined)?.capabilities;
    if (res.status === 200 && Array.isArray(list)) {
      caps.add('control');
      for (const c of list) if (typeof c === 'string') caps.add(c);
    }
  } catch {
    // No control plane (or not reachable): the API-only capabilities below still apply.
  }
  if (opts.readOnly) caps.delete('writes');
  else caps.add('writes');
  if (target.accounts.has('alt')) caps.add('alt-account');
  return caps;
}

/** What the kit can do about a missing capability, when the reason is the kit's configuration. */
const CAPABILITY_HINTS: Record<string, string> = {
  receiver: 'no webhook receiver the target can reach: give --webhook-public-url (or webhooks.publicUrl in the target file)',
  'alt-account': 'no second account: give --alt-account and --alt-key',
  reset: 'the scenario resets the whole target, which this target does not allow: set allowReset: true in the target file or give --allow-reset (the kit saves the target\'s state first and puts it back after; needs the state capability)',
};

/** The skip reason for missing capabilities: `target lacks capability "x"`, with a hint where the kit can help. */
export function lackReason(missing: readonly string[]): string {
  const hints = missing.map((m) => CAPABILITY_HINTS[m]).filter(Boolean);
  return `target lacks capability ${missing.map((m) => `"${m}"`).join(', ')}${hints.length ? ` (${hints.join('; ')})` : ''}`;
}
