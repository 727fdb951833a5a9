// The call-batch tests' simulator: the default fixture, a flow that greets {{name}} and hangs up,
// the batch operations bound to the demo account, the calls a batch placed and the
// callflow.ended events heard. The fixture's clock starts Monday 2026-03-02 00:00 UTC = 09:00
// Korea time.
import { harness } from './helpers.ts';
import { voiceSteps } from './voice-steps.ts';
import { runtimeOf } from '../internal.ts';

export const FROM = '07012340001';
export const HOUR = 3600;
const KST = 9 * 3_600_000;

export function sim() {
  const h = harness();
  const rt = runtimeOf(h.sim);
  const ended: string[] = [];
  rt.events.subscribe((e) => {
    if (e.type === 'callflow.ended') ended.push(e.resourceId);
  });
  const steps = voiceSteps(h);
  const flow = () => steps.flow({ version: 1, start: 'hi', nodes: { hi: { type: 'say', text: 'Hello {{name}}', next: 'bye' }, bye: { type: 'hangup' } } }, 'reminder');
  const { script, advance } = steps;
  const create = async (body: Record<string, unknown>) => h.call('POST', h.acme('/call-batches'), { Name: 'b', From: FROM, ...body });
  const get = async (id: string) => (await h.call('GET', h.acme(`/call-batches/${id}`))).json;
  const tasks = async (id: string, query = '') => (await h.call('GET', h.acme(`/call-batches/${id}/tasks${query}`))).json.tasks as any[];
  const act = (id: string, Action: string) => h.call('POST', h.acme(`/call-batches/${id}/actions`), { Action });
  const batchCalls = () => rt.calls.calls.all().filter((c) => c.from === FROM);
  const sum = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);
  return { ...h, rt, ended, flow, script, create, get, tasks, act, advance, batchCalls, sum };
}

export const kstMinute = (isoText: string) => {
  const local = Date.parse(isoText) + KST;
  return Math.floor((local % 86_400_000) / 60_000);
};
