// The library entry point: createSimulator(options) gives an in-process simulator that answers
// requests without a socket (`handle`, `fetch`) or serves them over HTTP (`listen`).
import type http from 'node:http';
import { Runtime, type Snapshot } from './runtime.ts';
import { registerCrash, registerRuntime } from './internal.ts';
import { DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_SNAPSHOT_BYTES, bodyLimit, dispatch, upgrade, type PipelineOptions } from './app.ts';
import { closeSockets, createHttpServer, listenOn } from './server.ts';
import { listenSip, type SipSockets } from './sip-sockets.ts';
import { loadFixtureFile, parseFixture, DEFAULT_FIXTURE_PATH } from './fixtures.ts';
import type { Fixture } from './fixture/schema.ts';
import { realtimeDriver, type ClockMode } from './core/realtime.ts';
import type { SimRequest, SimResponse } from './core/operation.ts';
import type { AttemptRow, DeliveryRow } from './peers/webhooks/schema.ts';
import { DEFAULT_RECEIVER_TIMEOUT_MS } from './peers/webhooks/receiver-client.ts';
import { DurableState } from './durable/state-dir.ts';
import { ApiError } from './core/errors.ts';

export type { SimRequest, SimResponse } from './core/operation.ts';
export type { Fixture } from './fixture/schema.ts';
export type { ClockMode } from './core/realtime.ts';
export type { Snapshot } from './runtime.ts';
export { FixtureError, DEFAULT_FIXTURE_PATH } from './fixtures.ts';
export { ApiError } from './core/errors.ts';
export { StateDirError } from './durable/files.ts';
export { SIGNATURE_HEADER, computeSignature, verifySignature, verifyWebhookRequest, parseFormBody, signatureBase } from './core/signing.ts';
export type { FormFields, WebhookRequestToVerify } from './core/signing.ts';

export interface SimulatorOptions {
  /** A fixture file path, a parsed fixture, or YAML text ({ yaml }); default fixtures/default.yaml. */
  fixture?: string | Fixture | { yaml: string; source?: string };
  /** Seed for ids and random outcomes; default the fixture's `seed`, else 1. */
  seed?: number;
  /** "manual" (default), "realtime" or "realtime:<speed>". */
  clock?: string | ClockMode;
  /** When set, the control plane (/_sim) requires "Authorization: Bearer <token>". */
  controlToken?: string;
  /** Largest accepted request body (default 1 MiB). */
  maxBodyBytes?: number;
  /** Largest accepted state snapshot for PUT /_sim/state (default 256 MiB). */
  maxSnapshotBytes?: number;
  /** Where defects (bugs: non-API errors) are reported; default stderr. */
  onDefect?: (error: unknown) => void;
  /** Webhook delivery (docs/webhooks.md). */
  /** Refuse what the real service refuses when connecting out (webhooks, MCP servers, call flow http blocks): --strict-egress. */
  strictEgress?: boolean;
  /** MCP connection tests: wall-clock ceiling per test (default 10000 ms). */
  mcp?: { timeoutMs?: number };
  /**
   * Keep the state in this directory across restarts: a snapshot plus a journal of everything
   * that changed it, written before each answer; on start the state is restored and the journal
   * replayed (wait for `ready`). A dir that already holds state keeps its own fixture and seed.
   */
  stateDir?: string;
  /** Durable state: journal entries after which it is compacted into a new snapshot (default 50,000). */
  compactEvery?: number;
  /** Where notes about the state dir go (a torn journal line dropped, a stale lock taken over); default stderr. */
  onWarning?: (message: string) => void;
  webhooks?: {
    /** Refuse receivers on loopback, private and other internal addresses, as the real service does (default false). */
    strict?: boolean;
    /** Wall-clock milliseconds one attempt may take before it counts as failed (default 10000). */
    timeoutMs?: number;
  };
}

export interface ListeningServer {
  url: string;
  port: number;
  host: string;
  close(): Promise<void>;
}

export interface SipListenOptions {
  /** Digest challenges offered, in order (default SHA-256 then MD5; `['MD5']` for clients that read only the topmost and know no SHA-256). */
  digest?: readonly ('SHA-256' | 'MD5')[];
}

export interface SipListener {
  host: string;
  /** The UDP port. */
  udp: number;
  /** The TCP port (the same as UDP unless that one was taken for TCP). */
  tcp: number;
  /** The UDP port of calls' media (RTP, one for every call). */
  rtp: number;
  close(): Promise<void>;
}

export interface Simulator {
  /** Resolves when the simulator can answer: at once, or once a state dir's journal is replayed (requests wait for it). */
  ready: Promise<void>;
  /** Answers one request in-process. */
  handle(req: SimRequest): Promise<SimResponse>;
  /** A WHATWG fetch bound to the simulator (base URL ignored), for HTTP clients that accept one. */
  fetch(input: string | URL | Request, init?: RequestInit): Promise<Response>;
  /** Serves over HTTP; port 0 picks a free port. Loopback by default. */
  listen(port?: number, host?: string): Promise<ListeningServer>;
  /** Starts the SIP listener (UDP and TCP; port 0 picks a free one, loopback by default); one at a time. */
  listenSip(port?: number, host?: string, options?: SipListenOptions): Promise<SipListener>;
  /** The control plane as functions (same code paths as /_sim). */
  control: SimulatorControl;
  clock: { now(): string; mode: ClockMode; advance(by: { seconds: number } | { to: string }): Promise<{ now: string; fired: number }> };
  /** Webhook delivery, through the control plane. */
  webhooks: SimulatorWebhooks;
  fixture: Fixture;
  /** The whole state as plain JSON (what GET /_sim/state answers). */
  snapshot(): Snapshot;
  /** Replaces the whole state (what PUT /_sim/state does, and journaled like it); throws ApiError on a bad snapshot, state unchanged. */
  restore(snapshot: unknown): void;
  close(): Promise<void>;
}

export interface SimulatorWebhooks {
  /** Waits until no attempt is queued or in flight (retries scheduled on the clock are not waited for). */
  settle(): Promise<{ now: string; inFlight: number; waiting: number; nextRetryAt: string | null }>;
  /** Every attempt, with its request and outcome; filter by event, resourceId, webhookId, number... */
  journal(filter?: Record<string, string>): Promise<AttemptRow[]>;
  deliveries(filter?: Record<string, string>): Promise<DeliveryRow[]>;
  signingKey(accountId: string): Promise<string>;
}

export interface SimulatorControl {
  health(): Promise<{ status: 'ok'; now: string; seed: number; capabilities: string[]; sip: { host: string; udp: number; tcp: number } | null }>;
  createAccount(body?: Record<string, unknown>): Promise<{ accountId: string; apiKey: string; numbers: string[] }>;
  reset(seed?: number): Promise<void>;
  snapshot(): Promise<unknown>;
  restore(snapshot: unknown): Promise<void>;
  markForeign(ip: string): Promise<void>;
  /** Any control-plane request: method, path under /_sim, body. Throws on a non-2xx answer. */
  request<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
}

export class ControlError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`control plane answered ${status}: ${JSON.stringify(body)}`);
  }
}

export function parseClockMode(text: string | ClockMode | undefined): ClockMode {
  if (text === undefined) return { kind: 'manual' };
  if (typeof text !== 'string') return text;
  if (text === 'manual') return { kind: 'manual' };
  const m = /^realtime(?::(\d+(?:\.\d+)?))?$/.exec(text);
  if (m) {
    const speed = m[1] === undefined ? 1 : Number(m[1]);
    if (speed > 0) return { kind: 'realtime', speed };
  }
  throw new Error(`clock must be "manual", "realtime" or "realtime:<speed>" with a positive speed, got "${text}"`);
}

function query(filter: Record<string, string>): string {
  const q = new URLSearchParams(filter).toString();
  return q ? `?${q}` : '';
}

/** The live settings the options give (undefined: not given, a state dir keeps its own). */
function settingOverrides(o: SimulatorOptions) {
  const strictGiven = o.strictEgress !== undefined || o.webhooks?.strict !== undefined;
  return {
    strictEgress: strictGiven ? (o.strictEgress ?? false) || (o.webhooks?.strict ?? false) : undefined,
    mcpTimeoutMs: o.mcp?.timeoutMs,
    webhookTimeoutMs: o.webhooks?.timeoutMs,
  };
}

/** restore() with a state dir: a PUT /_sim/state, so the journal holds it. */
function restoreThroughJournal(run: (req: SimRequest) => SimResponse | Promise<SimResponse>, token: string | undefined, snapshot: unknown): void {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  const res = run({ method: 'PUT', url: '/_sim/state', headers, body: JSON.stringify(snapshot) });
  if (res instanceof Promise) throw new Error('the state dir is still being replayed: await sim.ready first');
  if (res.status >= 300) {
    const body = JSON.parse(res.body) as { code: string; error: string } & Record<string, unknown>;
    const { code, error, ...extra } = body;
    throw new ApiError(res.status, code, error, extra);
  }
}

function resolveFixture(f: SimulatorOptions['fixture']): Fixture {
  if (f === undefined) return loadFixtureFile(DEFAULT_FIXTURE_PATH);
  if (typeof f === 'string') return loadFixtureFile(f);
  if ('yaml' in f && typeof f.yaml === 'string') return parseFixture(f.yaml, f.source ?? 'fixture');
  // A parsed object goes through the same validation as a file.
  return parseFixture(JSON.stringify(f), 'fixture object');
}

export function createSimulator(options: SimulatorOptions = {}): Simulator {
  const onDefect = options.onDefect ?? ((e: unknown) => console.error('[simulator defect]', e));
  const onWarning = options.onWarning ?? ((m: string) => void process.stderr.write(`[simulator] ${m}\n`));
  const durable = options.stateDir === undefined ? undefined : new DurableState({ dir: options.stateDir, compactEvery: options.compactEvery, warn: onWarning, onDefect });
  const stored = durable?.stored?.header;
  if (stored && (options.seed !== undefined || options.fixture !== undefined)) onWarning(`state dir ${options.stateDir} keeps the fixture and seed it began with; the ones given apply to a new dir only`);
  let fixture: Fixture;
  try {
    fixture = stored ? parseFixture(JSON.stringify(stored.fixture), `${options.stateDir} (its fixture)`) : resolveFixture(options.fixture);
  } catch (e) {
    durable?.abandon();
    throw e;
  }
  const seed = stored?.initialSeed ?? options.seed ?? fixture.seed ?? 1;
  const rt = new Runtime(fixture, seed);
  rt.onDefect = onDefect;
  rt.egress.strict = (options.strictEgress ?? false) || (options.webhooks?.strict ?? false);
  if (options.mcp?.timeoutMs !== undefined) rt.mcpRunner.timeoutMs = options.mcp.timeoutMs;
  const timeoutMs = options.webhooks?.timeoutMs ?? DEFAULT_RECEIVER_TIMEOUT_MS;
  if (!(Number.isInteger(timeoutMs) && timeoutMs > 0)) throw new Error(`webhooks.timeoutMs must be a positive integer, got ${timeoutMs}`);
  rt.webhookEngine.configure({ timeoutMs });
  const mode = parseClockMode(options.clock);
  if (durable) {
    try {
      durable.start(rt, settingOverrides(options), onDefect);
    } catch (e) {
      durable.abandon();
      throw e;
    }
  }
  // The realtime driver starts once the journal is replayed (its moves are journaled, not made again).
  const startClock = () => {
    if (mode.kind === 'realtime') rt.clockDriver = realtimeDriver(rt.clock, mode.speed, onDefect, durable && ((to) => durable.clockMoving(to)));
    rt.clockDriver.rebase();
  };
  const ready = durable ? durable.ready.then(startClock) : Promise.resolve(startClock());
  ready.catch(() => undefined);

  const pipeline: PipelineOptions = {
    controlToken: options.controlToken,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    maxSnapshotBytes: options.maxSnapshotBytes ?? DEFAULT_MAX_SNAPSHOT_BYTES,
    beforeRequest: mode.kind === 'realtime' ? () => rt.clockDriver.sync() : undefined,
    onDefect: (e) => onDefect(e),
  };
  const pipelineRun = (req: SimRequest) => dispatch(rt, pipeline, req);
  const run = durable ? durable.wrap(pipelineRun) : pipelineRun;
  const servers = new Set<http.Server>();
  let sip: SipSockets | undefined;
  const stopSip = async () => {
    const s = sip;
    sip = undefined;
    const model = rt.builtModel('sipServer'); // built on first use: one never listened has nothing to stop
    if (model) {
      model.listening = null;
      model.mediaPort = 0;
      model.sendDatagram = null;
      model.sendMedia = null;
    }
    if (s) await s.close();
  };

  const handle = async (req: SimRequest) => run(req);

  const controlRequest = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (options.controlToken !== undefined) headers.authorization = `Bearer ${options.controlToken}`;
    const res = await run({ method, url: `/_sim${path}`, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const parsed = res.body ? JSON.parse(res.body) : undefined;
    if (res.status >= 300) throw new ControlError(res.status, parsed);
    return parsed as T;
  };

  const sim: Simulator = {
    ready,
    handle,
    async fetch(input, init) {
      const request = new Request(typeof input === 'string' || input instanceof URL ? new URL(String(input), 'http://simulator.local') : input, init);
      const url = new URL(request.url);
      const headers: Record<string, string> = {};
      request.headers.forEach((v, k) => (headers[k] = v));
      const body = request.body ? new Uint8Array(await request.arrayBuffer()) : undefined;
      const res = await run({ method: request.method, url: url.pathname + url.search, headers, body });
      const empty = res.status === 204 || res.status === 304 || request.method === 'HEAD';
      return new Response(empty ? null : (res.bytes ?? res.body), { status: res.status, headers: res.headers });
    },
    async listen(port = 0, host = '127.0.0.1') {
      await ready;
      const server = createHttpServer({ dispatch: run, bodyLimit: (method, url) => bodyLimit(pipeline, method, url), onDefect, upgrade: durable ? durable.wrapUpgrade((req) => upgrade(rt, pipeline, req)) : (req) => upgrade(rt, pipeline, req) });
      const addr = await listenOn(server, port, host);
      servers.add(server);
      const shown = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
      return {
        url: `http://${shown}:${addr.port}`,
        port: addr.port,
        host: addr.address,
        close: () =>
          new Promise<void>((resolve) => {
            servers.delete(server);
            server.close(() => resolve());
            server.closeAllConnections();
            closeSockets(server);
          }),
      };
    },
    async listenSip(port = 0, host = '127.0.0.1', options = {}) {
      const digest = options.digest ?? ['SHA-256', 'MD5'];
      if (digest.length === 0 || digest.some((a) => a !== 'SHA-256' && a !== 'MD5') || new Set(digest).size !== digest.length) {
        throw new Error(`digest must list SHA-256 and/or MD5 once each, got ${JSON.stringify(digest)}`);
      }
      if (sip) throw new Error(`the SIP listener already runs on ${sip.host} (udp ${sip.udp}, tcp ${sip.tcp})`);
      const model = rt.sipServer;
      const sockets = await listenSip(
        {
          receive: (text, flow, send) => {
            pipeline.beforeRequest?.();
            model.receive(text, flow, send, onDefect);
          },
          tooLarge: (head, flow, send) => model.tooLarge(head, flow, send),
          media: (packet, address, peerPort) => model.receiveMedia(packet, address, peerPort),
          tick: () => {
            if (model.playout.size > 0) pipeline.beforeRequest?.();
          },
        },
        port,
        host,
        mode.kind === 'realtime' ? mode.speed : undefined,
      );
      sip = sockets;
      model.listening = { host: sockets.host, udp: sockets.udp, tcp: sockets.tcp };
      model.mediaPort = sockets.rtp;
      model.sendDatagram = sockets.sendUdp;
      model.sendMedia = sockets.sendRtp;
      model.challengeAlgorithms = [...digest];
      return { host: sockets.host, udp: sockets.udp, tcp: sockets.tcp, rtp: sockets.rtp, close: async () => (sip === sockets ? stopSip() : undefined) };
    },
    control: {
      health: () => controlRequest('GET', '/health'),
      createAccount: (body = {}) => controlRequest('POST', '/accounts', body),
      reset: async (s?: number) => void (await controlRequest('POST', '/reset', s === undefined ? {} : { seed: s })),
      snapshot: () => controlRequest('GET', '/state'),
      restore: async (snapshot) => void (await controlRequest('PUT', '/state', snapshot)),
      markForeign: async (ip) => void (await controlRequest('POST', '/geoip/foreign', { ip })),
      request: controlRequest,
    },
    clock: {
      now: () => rt.nowIso(),
      mode,
      advance: (by) => controlRequest('POST', '/clock/advance', by),
    },
    webhooks: {
      settle: () => controlRequest('POST', '/webhooks/settle'),
      journal: async (filter = {}) => (await controlRequest<{ data: AttemptRow[] }>('GET', `/webhooks/journal${query(filter)}`)).data,
      deliveries: async (filter = {}) => (await controlRequest<{ data: DeliveryRow[] }>('GET', `/webhooks/deliveries${query(filter)}`)).data,
      signingKey: async (accountId) => (await controlRequest<{ signingKey: string }>('GET', `/accounts/${encodeURIComponent(accountId)}/signing-key`)).signingKey,
    },
    fixture,
    snapshot: () => rt.snapshot(),
    restore: (snapshot) => (durable ? restoreThroughJournal(run, options.controlToken, snapshot) : rt.restore(snapshot)),
    async close() {
      rt.clockDriver.stop();
      durable?.close();
      rt.builtModel('agentSdk')?.close(); // models never used were never built: nothing to close
      await rt.webhookEngine.close();
      await rt.builtModel('agents')?.closeTools();
      await rt.mcpServers.stopAll();
      await stopSip();
      await Promise.all(
        [...servers].map(
          (s) =>
            new Promise<void>((resolve) => {
              s.close(() => resolve());
              s.closeAllConnections();
              closeSockets(s);
            }),
        ),
      );
      servers.clear();
    },
  };
  registerRuntime(sim, rt);
  if (durable) registerCrash(sim, () => durable.abandon());
  return sim;
}

