// The observable output of a 10,000-recipient call batch, hashed (docs/decisions.md "Scale"): a
// change to the batch's run-time work (calls model, dialer, clock, carrier, packing) must leave
// every answer as it was, so this prints one SHA-256 per answer and one over all of them, to be
// compared before and after the change. The batch is the scale bench's (3 rounds, windows, 30 %
// no answer through a prefix + share script) with more outcomes mixed in (busy, machine answers
// hanging up), a webhook subscribed to callflow.ended (at a closed local port: every attempt refused, retried on the virtual clock), and the answers read both halfway through
// the week and at its end: the batch, task pages, listCalls pages and filters, single calls,
// usage, carrier and webhook deliveries, every event on the bus, and the whole state.
// Run: `node --import tsx bench/batch-fingerprint.ts [--each]` (FINGERPRINT_RECIPIENTS changes the
// size; FINGERPRINT_DUMP=<file> writes the answers themselves, to find what differs).
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createSimulator, type Simulator } from '../simulator/index.ts';
import { runtimeOf } from '../simulator/internal.ts';
import { REMINDER_FLOW, ROUNDS } from './call-batches.ts';

const RECIPIENTS = Number(process.env.FINGERPRINT_RECIPIENTS ?? 10_000);
const ACCOUNT = 'AC1a2b3c4d';
const A = `/v1/accounts/${ACCOUNT}`;
const HEADERS = { authorization: 'Bearer sk_test_acme_4f9c2b7e1d3a5c8f', 'content-type': 'application/json' };
async function call(sim: Simulator, method: string, url: string, body?: unknown): Promise<string> {
  const control = url.startsWith('/_sim');
  const res = await sim.handle({ method, url, headers: control ? { 'content-type': 'application/json' } : HEADERS, body: body === undefined ? undefined : JSON.stringify(body) });
  if (res.status >= 300) throw new Error(`${method} ${url} answered ${res.status}: ${res.body.slice(0, 300)}`);
  return res.body;
}

const sha = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);

async function main(): Promise<void> {
  const sim = createSimulator();
  const rt = runtimeOf(sim);
  const events = createHash('sha256');
  let eventCount = 0;
  rt.events.subscribe((e) => {
    eventCount++;
    events.update(JSON.stringify(e));
    events.update('\n');
  });
  const flow = JSON.parse(await call(sim, 'POST', `${A}/call-flows`, REMINDER_FLOW));
  await call(sim, 'POST', `${A}/webhooks`, { url: 'http://127.0.0.1:9/hooks', events: ['callflow.ended'] });
  await call(sim, 'POST', '/_sim/carrier/scripts', { prefix: '010', share: 0.3, outcome: 'no-answer', types: ['call'] });
  await call(sim, 'POST', '/_sim/carrier/scripts', { prefix: '0102000', share: 0.1, outcome: 'busy', types: ['call'] });
  await call(sim, 'POST', '/_sim/carrier/scripts', { prefix: '01020001', share: 0.5, outcome: 'delivered', types: ['call'], answeredBy: 'machine', hangupAfterSeconds: 2 });
  const tasks = Array.from({ length: RECIPIENTS }, (_, k) => ({ To: `010${String(20_000_000 + k)}`, Variables: { name: `c${k}` } }));
  const batch = JSON.parse(await call(sim, 'POST', `${A}/call-batches`, { Name: 'fingerprint', From: '07012340001', CallFlowId: flow.callFlowId, MaxConcurrency: 50, PacingPerMinute: 300, Rounds: ROUNDS, Tasks: tasks }));
  const path = `${A}/call-batches/${batch.batchId}`;
  const parts: [string, string][] = [];
  const read = async (label: string, url: string) => parts.push([label, await call(sim, 'GET', url)]);
  const answers = async (when: string) => {
    await read(`${when} batch`, path);
    for (const q of ['page=1&pageSize=100', `page=${Math.ceil(RECIPIENTS / 200)}&pageSize=100`, 'status=failed&page=1&pageSize=100', 'status=done&page=2&pageSize=50']) await read(`${when} tasks ${q}`, `${path}/tasks?${q}`);
    for (const q of ['', '?page=2&pageSize=100', '?status=no-answer&pageSize=100', '?status=busy', '?hangupCause=no_answer&page=3&pageSize=20', `?to=010${20_000_000 + 7}`, '?minDuration=1&pageSize=100']) await read(`${when} calls ${q}`, `${A}/calls${q}`);
    const first = JSON.parse(parts.find(([l]) => l === `${when} calls `)![1]).data as { callId?: string; id?: string }[];
    for (const c of first.slice(0, 5)) await read(`${when} call`, `${A}/calls/${c.callId ?? c.id}`);
    await read(`${when} usage`, `${A}/usage?groupBy=day&groupBy=number&pageSize=100`);
    await read(`${when} carrier deliveries`, '/_sim/carrier/deliveries');
    await read(`${when} webhook deliveries`, '/_sim/webhooks/deliveries');
    // A webhook attempt's latencyMs is real time (the refused connection): the one part of the state left out.
    parts.push([`${when} state`, JSON.stringify(JSON.parse(await call(sim, 'GET', '/_sim/state')), (k, v) => (k === 'latencyMs' ? 0 : v))]);
  };
  // Halfway through (20 minutes into the first window, Monday 10:20 in Korea: calls ringing,
  // talking, ended and waiting for their second round), then at the end of the week.
  await sim.clock.advance({ seconds: 3_600 + 1_200 });
  await answers('halfway');
  for (let h = 0; h < 7 * 24 - 2; h++) await sim.clock.advance({ seconds: 3_600 });
  await sim.clock.advance({ seconds: 2_400 });
  await answers('end');
  if (process.env.FINGERPRINT_DUMP) writeFileSync(process.env.FINGERPRINT_DUMP, JSON.stringify(parts));
  const all = createHash('sha256');
  for (const [label, body] of parts) {
    all.update(label).update(body);
    if (process.argv.includes('--each')) console.log(`${sha(body)}  ${label}`);
  }
  const eventsHash = events.digest('hex').slice(0, 16);
  all.update(eventsHash);
  console.log(`${eventsHash}  events (${eventCount})`);
  console.log(`${all.digest('hex').slice(0, 16)}  ALL (${parts.length} answers, ${rt.calls.calls.size} calls)`);
  await sim.close();
}

await main();
