// A scripted session for the durable-state tests: blocks, releases, texts (which fire webhooks
// to a receiver, one that always fails and retries on the clock), verifications, email domains,
// calls through a flow, accounts, number settings, clock moves and reads, each request built
// from what earlier answers said (ids). Run once against an in-process simulator to make the
// concrete requests and the state after each one; any simulator with the same seed that gets the
// same requests reaches the same states.
import type { SimRequest, Simulator } from '../index.ts';
import { ACME } from './helpers.ts';

type Answer = { status: number; json: any };
type Step = (saved: Record<string, string>) => SimRequest;

const json = (method: string, url: string, body?: unknown): SimRequest => ({
  method,
  url,
  headers: url.startsWith('/_sim') ? { 'content-type': 'application/json' } : { authorization: `Bearer ${ACME.key}`, 'content-type': 'application/json' },
  body: body === undefined ? undefined : JSON.stringify(body),
});
const acme = (p: string) => `/v1/accounts/${ACME.accountId}${p}`;
const mobile = (n: number) => `010-2${String(n).padStart(3, '0')}-${String(4000 + n)}`;

/** The steps, and what each saves from its answer. */
function steps(receiver: string, blocks: number): [Step, ((a: Answer, saved: Record<string, string>) => void)?][] {
  const out: [Step, ((a: Answer, saved: Record<string, string>) => void)?][] = [
    [() => json('POST', acme('/webhooks'), { url: `${receiver}/ok`, events: ['message.sent', 'message.failed', 'callflow.ended'] })],
    [() => json('POST', acme('/webhooks'), { url: `${receiver}/fail`, events: ['callflow.ended'] })],
    [() => json('POST', acme('/call-flows'), { name: 'hello', graph: { version: 1, start: 's', nodes: { s: { type: 'say', text: 'hello', next: null } } } }), (a, s) => void (s.flow = a.json.callFlowId)],
    [() => json('POST', '/_sim/carrier/scripts', { types: ['call'], outcome: 'delivered', prefix: '0102', hangupAfterSeconds: 20 })],
  ];
  for (let i = 0; i < blocks; i++) {
    out.push(
      [() => json('POST', acme('/blocked-callers'), { number: mobile(i), note: `b${i}` }), (a, s) => void (s[`bc${i}`] = a.json.id)],
      [() => json('POST', acme('/blocked-recipients'), { number: mobile(i + 500), channel: i % 2 ? 'call' : 'message' }), (a, s) => void (s[`br${i}`] = a.json.id)],
      [() => json('POST', acme('/messages'), { From: '070-1234-0001', To: mobile(i + 700), Body: `hello ${i}` })],
      [() => json('POST', '/_sim/clock/advance', { seconds: 7 })],
      [() => json('POST', '/v2/verifications', { to: mobile(i + 800) })],
      [() => json('GET', acme('/blocked-callers?pageSize=5'))],
      [() => json('POST', '/_sim/webhooks/events', { accountId: ACME.accountId, type: 'callflow.ended', payload: { CallId: `CA${i}`, Status: 'completed' } })],
      [(s) => json('DELETE', acme(`/blocked-callers/${s[`bc${i}`]}`))],
      [(s) => json('PATCH', acme(`/blocked-recipients/${s[`br${i}`]}`), { note: `changed ${i}` })],
      [(s) => json('POST', acme('/calls'), { From: '070-1234-0001', To: mobile(i + 900), CallFlowId: s.flow })],
      [() => json('POST', '/_sim/clock/advance', { seconds: 61 })],
    );
    if (i % 3 === 0) out.push([() => json('POST', acme('/email-domains'), { domain: `m${i}.example.com` })]);
    if (i % 4 === 1) out.push([() => json('POST', '/_sim/accounts', {})]);
    if (i % 5 === 2) out.push([() => json('PUT', acme('/numbers/07012340002'), { webhookUrl: `${receiver}/ok?n=${i}` })]);
    if (i % 6 === 3) out.push([() => json('POST', '/_sim/clock/advance', { seconds: 3600 })]);
  }
  return out;
}

/** Wall-clock measurements of real I/O (a receiver's latency) differ from run to run; everything else must not. */
export function comparable(state: unknown): string {
  return JSON.stringify(state, (k, v) => (k === 'latencyMs' ? 0 : v));
}

/**
 * Runs the session on `sim` (no state dir needed): the concrete requests, and the state before
 * any request (index 0) and after each one, every delivery settled, as comparable() text.
 */
export async function referenceRun(sim: Simulator, receiver: string, blocks: number): Promise<{ requests: SimRequest[]; states: string[] }> {
  const saved: Record<string, string> = {};
  const requests: SimRequest[] = [];
  const states = [comparable(sim.snapshot())];
  for (const [build, save] of steps(receiver, blocks)) {
    const req = build(saved);
    const res = await sim.handle(req);
    if (res.status >= 300) throw new Error(`the session's ${req.method} ${req.url} answered ${res.status} ${res.body}`);
    save?.({ status: res.status, json: res.body ? JSON.parse(res.body) : undefined }, saved);
    requests.push(req);
    await sim.webhooks.settle();
    states.push(comparable(sim.snapshot()));
  }
  return { requests, states };
}
