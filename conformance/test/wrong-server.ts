// Deliberately wrong servers: the simulator with one defect each, injected around its request
// handler. The kit must fail on exactly the clauses each defect breaks (wrong-server-cases.ts).
import type { Simulator, SimRequest, SimResponse } from '../../simulator/index.ts';
import type { Middleware } from '../target.ts';

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
  | 'call-flow-defaults-unfilled';

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

const isApi = (req: SimRequest) => req.url.startsWith('/v1/') || req.url.startsWith('/v2/');
const pathOf = (req: SimRequest) => req.url.split('?')[0]!;
const queryOf = (req: SimRequest) => new URLSearchParams(req.url.split('?')[1] ?? '');
const isBlockList = (req: SimRequest) => /\/blocked-(callers|recipients)(\/|$)/.test(pathOf(req));
const isEmailDomain = (req: SimRequest) => /\/email-domains(\/|$)/.test(pathOf(req));
const isCallFlow = (req: SimRequest) => /\/call-flows(\/|$)/.test(pathOf(req));
/** Fields a call-flow answer must fill when the request left them out (spec "Call flow"). */
const DEFAULTED_BLOCK_FIELDS = ['maxDigits', 'timeoutSec', 'maxLengthSec', 'playBeep', 'finishKey', 'number', 'channel'];

/** The middleware that gives the simulator one defect. */
export function wrongServer(defect: Defect): (sim: Simulator) => Middleware {
  return (sim) => async (req, next) => {
    if (!isApi(req)) return next(req);
    switch (defect) {
      case 'auth-ignored': {
        // Any request is served as the account in its path, whatever key it carries.
        const accountId = /^\/v1\/accounts\/([^/]+)/.exec(pathOf(req))?.[1];
        const account = accountId ? sim.runtime.accounts.get(decodeURIComponent(accountId)) : undefined;
        if (!account) return next(req);
        return next({ ...req, headers: { ...req.headers, authorization: `Bearer ${account.apiKeys[0]}` } });
      }
      case 'wrong-total': {
        const res = await next(req);
        const body = json(res);
        if (res.status === 200 && body?.meta && typeof body.meta.total === 'number') body.meta.total += 1;
        return body ? withJson(res, body) : res;
      }
      case 'numbers-not-normalised': {
        // Numbers are stored as sent, and filters compare the raw text.
        if (!isBlockList(req)) return next(req);
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
        if (typeof sent === 'string' && res.status < 300 && body?.number) body.number = sent;
        return body ? withJson(res, body) : res;
      }
      case 'released-dropped': {
        // Released entries vanish instead of staying as history.
        if (!isBlockList(req) || req.method !== 'GET') return next(req);
        const res = await next(req);
        const body = json(res);
        if (res.status !== 200 || !body) return res;
        if (body.active === false) return { status: 404, headers: res.headers, body: JSON.stringify({ error: 'not found', code: 'not_found' }) };
        if (Array.isArray(body.data)) {
          const kept = body.data.filter((r: { active?: boolean }) => r.active !== false);
          body.meta.total -= body.data.length - kept.length;
          body.data = kept;
        }
        return withJson(res, body);
      }
      case 'server-error-on-bad-input': {
        const res = await next(req);
        return res.status === 400 ? { status: 500, headers: { 'content-type': 'text/plain' }, body: 'Internal Server Error' } : res;
      }
      case 'key-echoed': {
        const res = await next(req);
        return { ...res, headers: { ...res.headers, 'x-debug-authorization': header(req, 'authorization') ?? '' } };
      }
      case 'mx-tie-accepted': {
        // Receiving is reported verified when another MX ties with (or beats) the service MX.
        if (!isEmailDomain(req)) return next(req);
        const res = await next(req);
        const body = json(res);
        if (res.status >= 300 || !body) return res;
        for (const d of Array.isArray(body.data) ? body.data : [body]) if (d.receivingStatus === 'not_lowest_priority') d.receivingStatus = 'verified';
        return withJson(res, body);
      }
      case 'usage-minutes-without-transfer': {
        // Outbound billable minutes round up outbound seconds alone, leaving the transfer leg out.
        const res = await next(req);
        const body = json(res);
        if (!/\/usage$/.test(pathOf(req)) || res.status !== 200 || !Array.isArray(body?.totals)) return res;
        for (const t of body.totals) if (t.meter === 'outbound_seconds') t.billableMinutes = Math.ceil(t.quantity / 60);
        return withJson(res, body);
      }
      case 'call-flow-defaults-unfilled': {
        // Answers graphs as if the defaulted fields had never been filled in.
        if (!isCallFlow(req)) return next(req);
        const res = await next(req);
        const body = json(res);
        if (res.status >= 300 || !body?.graph) return res;
        if (body.graph.voice) delete body.graph.voice.language;
        for (const node of Object.values(body.graph.nodes ?? {}) as Record<string, unknown>[]) for (const f of DEFAULTED_BLOCK_FIELDS) delete node[f];
        return withJson(res, body);
      }
      case 'events-for-block-lists': {
        // Every new blocked caller is announced to all the account's webhooks.
        const res = await next(req);
        const accountId = decodeURIComponent(/^\/v1\/accounts\/([^/]+)\/blocked-callers$/.exec(pathOf(req))?.[1] ?? '');
        if (req.method !== 'POST' || res.status >= 300 || !accountId) return res;
        for (const hook of sim.runtime.webhooks.listFor(accountId)) {
          const payload = { Event: 'blocked-caller.created', AccountId: accountId, Number: json(res)?.number };
          await sim.control.request('POST', '/webhooks/events', { accountId, type: 'blocked-caller.created', payload, to: { url: hook.url } });
        }
        return res;
      }
      case 'note-not-cleared': {
        // An empty or null note on PATCH is ignored instead of clearing the note.
        if (req.method !== 'PATCH' || typeof req.body !== 'string' || !req.body.startsWith('{')) return next(req);
        const body = JSON.parse(req.body) as { note?: unknown };
        if (body.note === null || body.note === '') delete body.note;
        return next({ ...req, body: JSON.stringify(body) });
      }
      case 'verification-channel-ignored': {
        // The verification list ignores its channel filter.
        if (req.method !== 'GET' || pathOf(req) !== '/v2/verifications') return next(req);
        const q = queryOf(req);
        q.delete('channel');
        return next({ ...req, url: `${pathOf(req)}?${q.toString()}` });
      }
      case 'code-echoed': {
        // A verification read answers the one-time code the phone received.
        const res = await next(req);
        const body = json(res);
        if (req.method !== 'GET' || !/^\/v2\/verifications\/[^/]+$/.test(pathOf(req)) || res.status !== 200 || !body) return res;
        const phone = sim.runtime.carrier.phone(body.to);
        const code = [...phone.messages, ...phone.calls].find((d) => d.verificationId === body.verificationId)?.code;
        return code ? withJson(res, { ...body, code }) : res;
      }
    }
  };
}
