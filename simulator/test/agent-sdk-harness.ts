// A test host for the Agent SDK family before it is wired into the simulator: the family's model
// on a real HTTP port (server.ts with its WebSocket upgrades), a virtual clock, one account with
// two numbers, the real speech peer, and a stand-in for the calls family's handler actions
// (calls that end when asked, a phone that says its lines, legs whose outcome the test decides).
// The official runtime's stand-in (agent-runtime/) connects to it like to the real service.
import http from 'node:http';
import { createHttpServer, closeSockets, listenOn } from '../server.ts';
import { VirtualClock } from '../core/clock.ts';
import { tryNormalizePhone } from '../core/phone.ts';
import { AgentSdkModel } from '../resources/agent-sdk/model.ts';
import type { ConversationTurn, LegProgress, SdkCallActions, SdkEndedBy } from '../resources/agent-sdk/call-ports.ts';
import type { TransferRequest } from '../resources/agent-sdk/control-messages.ts';
import type { SdkCallInfo } from '../resources/agent-sdk/sdk-call.ts';
import { speechSynthesizer } from '../peers/speech/synthesizer.ts';
import type { SimRequest, SimResponse } from '../core/operation.ts';
import { realtimeDriver } from '../core/realtime.ts';

export const ACCOUNT = 'AC1';
export const KEY = 'sk_test_1';
export const OTHER_ACCOUNT = 'AC2';
export const OTHER_KEY = 'sk_test_2';
export const NUMBERS = ['07012340001', '07012340002'];

export interface HostCall {
  info: SdkCallInfo;
  status: 'ringing' | 'in-progress' | string;
  answeredAt?: number;
  endedAt?: number;
  endedBy?: SdkEndedBy;
  detail?: string;
  lines: string[];
  turns: ConversationTurn[];
  legs: { request: TransferRequest; progress: (p: LegProgress) => void }[];
}

export interface HostOptions {
  transferRefusal?: { status: string; reason: string };
  pingIntervalMs?: number;
  /** realtime: the virtual clock follows wall time (core/realtime.ts); default manual. */
  clock?: 'manual' | 'realtime';
  /** Answers plain HTTP requests (the bench's trigger); default 404. */
  dispatch?: (req: SimRequest) => SimResponse | Promise<SimResponse>;
}

export async function startHost(opts: HostOptions = {}) {
  const clock = new VirtualClock(Date.parse('2026-09-01T01:00:00Z'));
  const driver = opts.clock === 'realtime' ? realtimeDriver(clock, 1, (e) => console.error(e)) : undefined;
  driver?.rebase();
  const calls = new Map<string, HostCall>();
  const webhooks: { event: string; accountId: string; number: string; at: string }[] = [];
  // The engine loaded first: this port says ready at once, so the family may ask a line's audio
  // before prepare() has spoken it (a line not kept on disk needs the engine then).
  const synth = await speechSynthesizer();
  let seq = 0;
  let model: AgentSdkModel;
  const end = (callId: string, by: SdkEndedBy, detail?: string) => {
    const c = calls.get(callId);
    if (!c || c.endedAt !== undefined) return;
    c.endedAt = clock.now();
    c.endedBy = by;
    c.detail = detail;
    const answered = c.answeredAt !== undefined;
    c.status = answered ? (by === 'app_error' || by === 'stuck' ? 'failed' : 'completed') : c.status;
    const duration = answered ? Math.round((c.endedAt - c.answeredAt!) / 1000) : 0;
    model.calls.ended(callId, c.status, duration);
  };
  const actions: SdkCallActions = {
    phoneTurn: (callId) => {
      const c = calls.get(callId)!;
      const say = c.lines.shift();
      return say === undefined ? { kind: 'hangup', answer: 'none' } : { kind: 'speak', say, keys: null, answer: 'line' };
    },
    speak: (callId, turn) => calls.get(callId)?.turns.push(turn),
    hangUp: end,
    transfer: (callId, request, progress) => {
      if (opts.transferRefusal) return { started: false, ...opts.transferRefusal };
      calls.get(callId)!.legs.push({ request, progress });
      return { started: true };
    },
  };
  clock.on('agent-sdk.stuck-media', (callId: string) => model.calls.stuck(callId));
  clock.on('agent-sdk.announce-end', (callId: string) => model.calls.announced(callId));
  clock.on('agent-sdk.warm-bridge', (callId: string) => model.calls.bridged(callId));
  const refuse = (status: number, code: string, message: string) => ({ status, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ error: message, code }) });
  model = new AgentSdkModel({
    timers: { now: () => clock.now(), schedule: (kind, due, callId) => clock.schedule(`agent-sdk.${kind}`, due, callId), cancel: (h) => clock.cancel(h) },
    nowIso: () => clock.nowIso(),
    accountForKey: (k) => (k === KEY ? ACCOUNT : k === OTHER_KEY ? OTHER_ACCOUNT : undefined),
    normalise: (n) => {
      const r = tryNormalizePhone(n);
      return r.ok ? r.number : undefined;
    },
    ownsNumber: (a, n) => a === ACCOUNT && NUMBERS.includes(n),
    randomHex: (n) => (++seq).toString(16).padStart(n, '0'),
    events: { agentConnection: (event, accountId, number, at) => webhooks.push({ event, accountId, number, at }) },
    actions: () => actions,
    speech: { prepare: async (texts) => void texts.forEach((t) => synth.speak(t)), audio: (t) => synth.speak(t).audio, ready: () => true },
    phoneLines: (id) => calls.get(id)?.lines ?? [],
    clock: () => (opts.clock === 'realtime' ? { mode: 'realtime', speed: 1 } : { mode: 'manual' }),
    advance: (ms) => clock.advanceTo(clock.now() + ms),
    sync: () => driver?.sync(),
    refuse,
    onDefect: (e) => {
      throw e;
    },
    ...(opts.pingIntervalMs ? { pingIntervalMs: opts.pingIntervalMs } : {}),
  });
  const route = (req: SimRequest) => {
    const url = new URL(req.url, 'http://host');
    const bearer = /^Bearer (\S+)$/.exec(String(req.headers?.authorization ?? ''))?.[1];
    const control = /^\/v1\/accounts\/([^/]+)\/agent\/listen$/.exec(url.pathname);
    if (control) return model.control(decodeURIComponent(control[1]!), url.searchParams, bearer, `ws://${req.headers?.host}`);
    const media = /^\/v1\/agent\/media\/([^/]+)$/.exec(url.pathname);
    if (media) return model.media(media[1]!, url.searchParams, bearer);
    return { refuse: refuse(404, 'NOT_FOUND', 'no socket here') };
  };
  const server: http.Server = createHttpServer({ dispatch: opts.dispatch ?? (() => ({ status: 404, headers: {}, body: '' })), bodyLimit: () => 1024, upgrade: route });
  const addr = await listenOn(server, 0, '127.0.0.1');
  const baseUrl = `http://127.0.0.1:${addr.port}`;

  let nextCall = 1;
  /** A phone calls the number: the call is answered at once and handed to its agent. */
  const inbound = (lines: string[], number = NUMBERS[0]!, from = '01099998888'): string => {
    const callId = `CA${String(nextCall++).padStart(32, '0')}`;
    const info: SdkCallInfo = { callId, accountId: ACCOUNT, number, direction: 'inbound', from, to: number, callerIdRestricted: false };
    calls.set(callId, { info, status: 'in-progress', answeredAt: clock.now(), lines: [...lines], turns: [], legs: [] });
    model.calls.begin(info);
    model.calls.answered(callId);
    return callId;
  };
  /** The agent's number calls `to`: ringing; answer() or fail() decides. */
  const outbound = (callId: string, to: string, lines: string[], number = NUMBERS[0]!) => {
    const info: SdkCallInfo = { callId, accountId: ACCOUNT, number, direction: 'outbound', from: number, to, callerIdRestricted: false };
    calls.set(callId, { info, status: 'ringing', lines: [...lines], turns: [], legs: [] });
    model.calls.begin(info);
    model.calls.ringing(callId);
    return {
      answer: () => {
        calls.get(callId)!.status = 'in-progress';
        calls.get(callId)!.answeredAt = clock.now();
        model.calls.answered(callId);
      },
      fail: (status: string) => {
        calls.get(callId)!.status = status;
        end(callId, 'phone');
      },
    };
  };
  return {
    baseUrl,
    clock,
    model,
    calls,
    webhooks,
    inbound,
    outbound,
    synth,
    async close() {
      driver?.stop();
      model.close();
      closeSockets(server);
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

export type Host = Awaited<ReturnType<typeof startHost>>;

/** Waits (wall time) until `test` holds; fails after `ms`. */
export async function until(test: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!test()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}
