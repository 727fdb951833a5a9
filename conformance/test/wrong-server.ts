// Deliberately wrong servers: the simulator with one defect each, injected around its request
// handler. The kit must fail on exactly the clauses each defect breaks (wrong-server-cases.ts).
// Each defect declares which requests it may alter, by method, path and the correct server's
// status; every other request must pass through untouched, which the self-tests check before
// trusting that the units making only such requests cannot be affected and need not run again.
// A defect looks at the simulator's state only through its public entry and control plane.
import type { Simulator, SimRequest, SimResponse } from '../../simulator/index.ts';
import type { Middleware } from '../target.ts';
import { contract } from './helpers.ts';

export type Defect =
  | 'auth-ignored'
  | 'wrong-total'
  | 'numbers-not-normalised'
  | 'released-dropped'
  | 'server-error-on-bad-input'
  | 'key-echoed'
  | 'note-not-cleared'
  | 'mx-tie-accepted'
  | 'verification-channel-ignored'
  | 'code-echoed'
  | 'events-for-block-lists'
  | 'usage-minutes-without-transfer'
  | 'call-flow-defaults-unfilled'
  | 'call-list-bounds-ignored'
  | 'call-transfers-on-list-rows'
  | 'call-duration-off-by-one'
  | 'transfer-representative-latest'
  | 'transfer-billable-every-leg'
  | 'transfers-reversed'
  | 'transfer-legacy-fields-filled'
  | 'recording-one-second-short'
  | 'signed-link-unchecked';

export interface DefectSpec {
  /**
   * Whether the defect may change the answer to (or the effects of) a request with this method,
   * path and query, which the correct server answers with this status.
   */
  alters(method: string, path: string, status: number, query: URLSearchParams): boolean;
  /** The middleware that gives the simulator the defect. */
  middleware(sim: Simulator): Middleware;
}

function header(req: SimRequest, name: string): string | undefined {
  for (const [k, v] of Object.entries(req.headers ?? {})) if (k.toLowerCase() === name) return Array.isArray(v) ? v[0] : v;
  return undefined;
}

function json(res: SimResponse): any {
  try {
    return JSON.parse(res.body);
  } catch {
    return undefined;
  }
}

function withJson(res: SimResponse, body: unknown): SimResponse {
  return { ...res, body: JSON.stringify(body) };
}

export const pathOf = (url: string) => url.split('?')[0]!;
const isApiPath = (path: string) => path.startsWith('/v1/') || path.startsWith('/v2/');
export const queryOf = (req: SimRequest) => new URLSearchParams(req.url.split('?')[1] ?? '');
const isBlockListPath = (path: string) => /\/blocked-(callers|recipients)(\/|$)/.test(path);
const isEmailDomainPath = (path: string) => /\/email-domains(\/|$)/.test(path);
const ACCOUNT_PATH = /^\/v1\/accounts\/([^/]+)/;
const isCallFlowPath = (path: string) => /\/call-flows(\/|$)/.test(path);
const CALL_LIST = /^\/v1\/accounts\/[^/]+\/calls$/;
const CALL_ONE = /^\/v1\/accounts\/[^/]+\/calls\/[^/]+$/;
const RECORDING = /^\/v1\/accounts\/[^/]+\/recordings\/[^/]+(\/verb\/[^/]+)?$/;
/** Fields a call-flow answer must fill when the request left them out (spec "Call flow"). */
const DEFAULTED_BLOCK_FIELDS = ['maxDigits', 'timeoutSec', 'maxLengthSec', 'playBeep', 'finishKey', 'number', 'channel'];

const totalDocumented = new Map<string, boolean>();

/** Whether the contract's 200 answer of the operation at this path has `meta.total` (lists, usage); remembered, as every recorded request asks. */
function documentsTotal(method: string, path: string): boolean {
  const key = `${method} ${path}`;
  if (!totalDocumented.has(key)) {
    const pointer = contract.match(method, path)?.op.responses.get(200)?.schemaPointer;
    const body = pointer === undefined ? undefined : contract.resolve(contract.schemaAt(pointer));
    totalDocumented.set(key, contract.resolve(body?.properties?.meta)?.properties?.total !== undefined);
  }
  return totalDocumented.get(key)!;
}

/** An account's first API key, from the control plane; undefined for an unknown account. */
async function keyOf(sim: Simulator, accountSegment: string): Promise<string | undefined> {
  try {
    return (await sim.control.request<{ apiKeys: string[] }>('GET', `/accounts/${accountSegment}`)).apiKeys[0];
  } catch {
    return undefined;
  }
}

/** Transfer-leg statuses that are final. */
const ENDED_LEG = ['completed', 'failed', 'no-answer', 'busy', 'canceled'];

/** A defect of a single call's transfer chain (GET of one call, 200, with `transfers`): `change` edits the body, or returns false to leave the answer as it was. */
function callTransfersDefect(change: (body: any) => boolean | void): DefectSpec {
  return {
    alters: (method, path, status) => method === 'GET' && status === 200 && CALL_ONE.test(path),
    middleware: () => async (req, next) => {
      const res = await next(req);
      const body = json(res);
      if (req.method !== 'GET' || !CALL_ONE.test(pathOf(req.url)) || res.status !== 200 || !Array.isArray(body?.transfers)) return res;
      return change(body) === false ? res : withJson(res, body);
    },
  };
}

/** Every defect; each middleware sees only API requests (the control plane is never wrong). */
const SPECS: Record<Defect, DefectSpec> = {
  'auth-ignored': {
    alters: (_m, path, status) => ACCOUNT_PATH.test(path) && (status === 401 || status === 403),
    // Any request is served as the account in its path, whatever key it carries. Only a refused one
    // is asked again (refused, it changed nothing); accepted ones pass untouched, state unread.
    middleware: (sim) => async (req, next) => {
      const res = await next(req);
      const segment = ACCOUNT_PATH.exec(pathOf(req.url))?.[1];
      if ((res.status !== 401 && res.status !== 403) || !segment) return res;
      const key = await keyOf(sim, segment);
      // Asked again straight from the simulator: the request passed on stays the one that was refused.
      return key ? sim.handle({ ...req, headers: { ...req.headers, authorization: `Bearer ${key}` } }) : res;
    },
  },
  'wrong-total': {
    alters: (method, path, status) => method === 'GET' && status === 200 && documentsTotal(method, path),
    middleware: () => async (req, next) => {
      const res = await next(req);
      const body = json(res);
      if (res.status !== 200 || typeof body?.meta?.total !== 'number') return res;
      body.meta.total += 1;
      return withJson(res, body);
    },
  },
  'numbers-not-normalised': {
    alters: (_m, path) => isBlockListPath(path),
    // Numbers are stored as sent, and filters compare the raw text.
    middleware: () => async (req, next) => {
      if (!isBlockListPath(pathOf(req.url))) return next(req);
      const filter = queryOf(req).get('number');
      if (req.method === 'GET' && filter !== null && !/^\d+$/.test(filter)) {
        const res = await next(req);
        const body = json(res);
        return withJson(res, { ...body, data: [], meta: { ...body.meta, total: 0 } });
      }
      const res = await next(req);
      let sent: unknown;
      try {
        sent = req.method === 'POST' && typeof req.body === 'string' ? (JSON.parse(req.body || '{}') as { number?: unknown }).number : undefined;
      } catch {
        sent = undefined; // not JSON: the simulator refuses it as usual
      }
      const body = json(res);
      if (typeof sent !== 'string' || res.status >= 300 || !body?.number) return res;
      body.number = sent;
      return withJson(res, body);
    },
  },
  'released-dropped': {
    alters: (method, path) => method === 'GET' && isBlockListPath(path),
    // Released entries vanish instead of staying as history.
    middleware: () => async (req, next) => {
      if (!isBlockListPath(pathOf(req.url)) || req.method !== 'GET') return next(req);
      const res = await next(req);
      const body = json(res);
      if (res.status !== 200 || !body) return res;
      if (body.active === false) return { status: 404, headers: res.headers, body: JSON.stringify({ error: 'not found', code: 'not_found' }) };
      if (!Array.isArray(body.data)) return res;
      const kept = body.data.filter((r: { active?: boolean }) => r.active !== false);
      if (kept.length === body.data.length) return res;
      body.meta.total -= body.data.length - kept.length;
      body.data = kept;
      return withJson(res, body);
    },
  },
  'server-error-on-bad-input': {
    alters: (_m, path, status) => isApiPath(path) && status === 400,
    middleware: () => async (req, next) => {
      const res = await next(req);
      return res.status === 400 ? { status: 500, headers: { 'content-type': 'text/plain' }, body: 'Internal Server Error' } : res;
    },
  },
  'key-echoed': {
    alters: (_m, path) => isApiPath(path),
    middleware: () => async (req, next) => {
      const res = await next(req);
      return { ...res, headers: { ...res.headers, 'x-debug-authorization': header(req, 'authorization') ?? '' } };
    },
  },
  'mx-tie-accepted': {
    alters: (_m, path) => isEmailDomainPath(path),
    // Receiving is reported verified when another MX ties with (or beats) the service MX.
    middleware: () => async (req, next) => {
      if (!isEmailDomainPath(pathOf(req.url))) return next(req);
      const res = await next(req);
      const body = json(res);
      if (res.status >= 300 || !body) return res;
      const tied = (Array.isArray(body.data) ? body.data : [body]).filter((d: { receivingStatus?: string }) => d.receivingStatus === 'not_lowest_priority');
      if (tied.length === 0) return res;
      for (const d of tied) d.receivingStatus = 'verified';
      return withJson(res, body);
    },
  },
  'usage-minutes-without-transfer': {
    alters: (_m, path) => /\/usage$/.test(path),
    // Outbound billable minutes round up outbound seconds alone, leaving the transfer leg out.
    middleware: () => async (req, next) => {
      const res = await next(req);
      if (!/\/usage$/.test(pathOf(req.url)) || res.status !== 200) return res;
      const body = json(res);
      if (!Array.isArray(body?.totals)) return res;
      for (const t of body.totals) if (t.meter === 'outbound_seconds') t.billableMinutes = Math.ceil(t.quantity / 60);
      return withJson(res, body);
    },
  },
  'call-flow-defaults-unfilled': {
    alters: (_m, path) => isCallFlowPath(path),
    // Answers graphs as if the defaulted fields had never been filled in.
    middleware: () => async (req, next) => {
      if (!isCallFlowPath(pathOf(req.url))) return next(req);
      const res = await next(req);
      const body = json(res);
      if (res.status >= 300 || !body?.graph) return res;
      if (body.graph.voice) delete body.graph.voice.language;
      for (const node of Object.values(body.graph.nodes ?? {}) as Record<string, unknown>[]) for (const f of DEFAULTED_BLOCK_FIELDS) delete node[f];
      return withJson(res, body);
    },
  },
  'call-list-bounds-ignored': {
    alters: (method, path, _s, query) => method === 'GET' && CALL_LIST.test(path) && (query.has('since') || query.has('until')),
    // The call list drops its since and until bounds (and so never refuses a bad one either).
    middleware: () => async (req, next) => {
      if (req.method !== 'GET' || !CALL_LIST.test(pathOf(req.url))) return next(req);
      const q = queryOf(req);
      if (!q.has('since') && !q.has('until')) return next(req);
      q.delete('since');
      q.delete('until');
      return next({ ...req, url: `${pathOf(req.url)}?${q.toString()}` });
    },
  },
  'call-transfers-on-list-rows': {
    alters: (method, path, status) => method === 'GET' && status === 200 && CALL_LIST.test(path),
    // List rows carry the transfer chain that only a single GET shows.
    middleware: () => async (req, next) => {
      const res = await next(req);
      const body = json(res);
      if (req.method !== 'GET' || !CALL_LIST.test(pathOf(req.url)) || res.status !== 200 || !Array.isArray(body?.data) || body.data.length === 0) return res;
      for (const row of body.data) row.transfers = [];
      return withJson(res, body);
    },
  },
  'call-duration-off-by-one': {
    alters: (method, path, status) => status < 300 && (CALL_LIST.test(path) || CALL_ONE.test(path)) && method !== 'DELETE',
    // Ended calls report one second more than they lasted (the ring's last second counted).
    middleware: () => async (req, next) => {
      const path = pathOf(req.url);
      const res = await next(req);
      if (!(CALL_LIST.test(path) || CALL_ONE.test(path)) || res.status >= 300) return res;
      const body = json(res);
      const rows = (Array.isArray(body?.data) ? body.data : [body]).filter((r: { duration?: unknown }) => typeof r?.duration === 'number');
      if (rows.length === 0) return res;
      for (const r of rows) r.duration += 1;
      return withJson(res, body);
    },
  },
  // The transfer* fields follow the latest ended leg, without preferring a completed one.
  'transfer-representative-latest': callTransfersDefect((body) => {
    const ended = body.transfers.filter((l: { status: string }) => ENDED_LEG.includes(l.status));
    const latest = ended.reduce((a: { sequence: number } | undefined, l: { sequence: number }) => (!a || l.sequence > a.sequence ? l : a), undefined);
    if (!latest) return false;
    Object.assign(body, {
      transferTo: latest.to,
      transferStatus: latest.status,
      transferDuration: latest.duration,
      transferHangupCauseQ850: latest.hangupCauseQ850,
      transferSipResponseCode: latest.sipResponseCode,
      transferReasonText: latest.reasonText,
    });
  }),
  // Every ended leg is billed, not only the representative.
  'transfer-billable-every-leg': callTransfersDefect((body) => {
    for (const l of body.transfers) if (ENDED_LEG.includes(l.status)) l.billable = true;
  }),
  // The chain newest first instead of by sequence.
  'transfers-reversed': callTransfersDefect((body) => {
    body.transfers.reverse();
  }),
  // Legs from before 2026-07-10 show destinationType and connectedAt as if they were recent.
  'transfer-legacy-fields-filled': callTransfersDefect((body) => {
    for (const l of body.transfers) {
      if (typeof l.startedAt !== 'string' || l.startedAt >= '2026-07-10' || typeof l.duration !== 'number') continue;
      l.destinationType = String(l.to).startsWith('sip') ? 'sip' : 'pstn';
      l.connectedAt = l.startedAt;
    }
  }),
  'recording-one-second-short': {
    alters: (method, path, status) => method === 'GET' && status === 200 && RECORDING.test(path),
    // Recordings lose their last second of audio (a valid WAV, one second shorter than reported).
    middleware: () => async (req, next) => {
      const res = await next(req);
      if (req.method !== 'GET' || !RECORDING.test(pathOf(req.url)) || res.status !== 200 || !res.bytes) return res;
      const wav = Buffer.from(res.bytes);
      const second = wav.readUInt32LE(28); // byte rate of the simulator's 44-byte header
      const data = wav.readUInt32LE(40);
      if (data < second) return res;
      const short = Buffer.from(wav.subarray(0, wav.length - second));
      short.writeUInt32LE(short.length - 8, 4);
      short.writeUInt32LE(data - second, 40);
      return { ...res, bytes: short };
    },
  },
  'signed-link-unchecked': {
    alters: (method, path, status) => method === 'GET' && status === 401 && RECORDING.test(path),
    // A signed recording link downloads whatever its signature and expiry say (served as with the key).
    // Only a refused link is touched: valid ones pass through unchanged, without a look at state.
    middleware: (sim) => async (req, next) => {
      const res = await next(req);
      const path = pathOf(req.url);
      if (req.method !== 'GET' || res.status !== 401 || !RECORDING.test(path) || header(req, 'authorization') !== undefined || !queryOf(req).has('signature')) return res;
      const key = await keyOf(sim, ACCOUNT_PATH.exec(path)![1]!);
      // Asked again straight from the simulator: the request passed on stays the one that was refused.
      return key ? sim.handle({ ...req, headers: { ...req.headers, authorization: `Bearer ${key}` } }) : res;
    },
  },
  'events-for-block-lists': {
    alters: (method, path) => method === 'POST' && /^\/v1\/accounts\/[^/]+\/blocked-callers$/.test(path),
    // Every new blocked caller is announced to all the account's webhooks.
    middleware: (sim) => async (req, next) => {
      const res = await next(req);
      const segment = /^\/v1\/accounts\/([^/]+)\/blocked-callers$/.exec(pathOf(req.url))?.[1];
      if (req.method !== 'POST' || res.status >= 300 || !segment) return res;
      const accountId = decodeURIComponent(segment);
      const key = await keyOf(sim, segment);
      const hooks = await sim.handle({ method: 'GET', url: `/v1/accounts/${segment}/webhooks`, headers: { authorization: `Bearer ${key}` } });
      for (const hook of (json(hooks)?.data ?? []) as { url: string }[]) {
        const payload = { Event: 'blocked-caller.created', AccountId: accountId, Number: json(res)?.number };
        await sim.control.request('POST', '/webhooks/events', { accountId, type: 'blocked-caller.created', payload, to: { url: hook.url } });
      }
      return res;
    },
  },
  'note-not-cleared': {
    alters: (method, path) => method === 'PATCH' && isApiPath(path),
    // An empty or null note on PATCH is ignored instead of clearing the note.
    middleware: () => async (req, next) => {
      if (req.method !== 'PATCH' || typeof req.body !== 'string' || !req.body.startsWith('{')) return next(req);
      const body = JSON.parse(req.body) as { note?: unknown };
      if (body.note !== null && body.note !== '') return next(req);
      delete body.note;
      return next({ ...req, body: JSON.stringify(body) });
    },
  },
  'verification-channel-ignored': {
    alters: (method, path, _s, query) => method === 'GET' && path === '/v2/verifications' && query.has('channel'),
    // The verification list ignores its channel filter.
    middleware: () => async (req, next) => {
      const q = queryOf(req);
      if (req.method !== 'GET' || pathOf(req.url) !== '/v2/verifications' || !q.has('channel')) return next(req);
      q.delete('channel');
      return next({ ...req, url: `${pathOf(req.url)}?${q.toString()}` });
    },
  },
  'code-echoed': {
    alters: (method, path) => method === 'GET' && /^\/v2\/verifications\/[^/]+$/.test(path),
    // A verification read answers the one-time code the phone received.
    middleware: (sim) => async (req, next) => {
      const res = await next(req);
      const body = json(res);
      if (req.method !== 'GET' || !/^\/v2\/verifications\/[^/]+$/.test(pathOf(req.url)) || res.status !== 200 || !body) return res;
      type Received = { verificationId?: string; code?: string | null };
      const phone = await sim.control.request<{ messages: Received[]; calls: Received[] }>('GET', `/carrier/phones/${encodeURIComponent(body.to)}`);
      const code = [...phone.messages, ...phone.calls].find((d) => d.verificationId === body.verificationId)?.code;
      return code ? withJson(res, { ...body, code }) : res;
    },
  },
};

export const DEFECTS = Object.keys(SPECS) as Defect[];

export function defectSpec(defect: Defect): DefectSpec {
  return SPECS[defect];
}

/** The middleware of a defect; control-plane requests pass untouched. */
export function defectMiddleware(spec: DefectSpec): (sim: Simulator) => Middleware {
  return (sim) => {
    const inner = spec.middleware(sim);
    return (req, next) => (isApiPath(pathOf(req.url)) ? inner(req, next) : next(req));
  };
}

/** The middleware that gives the simulator one defect. */
export function wrongServer(defect: Defect): (sim: Simulator) => Middleware {
  return defectMiddleware(SPECS[defect]);
}
