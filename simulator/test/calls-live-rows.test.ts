// A flow's live call is changed in place in the calls table (docs/decisions.md "The batch's CPU
// per call, sixth round"): what was handed out before a change must not see it, and what is
// read after it must. The answer cached per row object is forgotten, a snapshot keeps the
// state of its moment, and a restored snapshot is not changed by the calls it brings back.
import { describe, expect, it } from 'vitest';
import { harness } from './helpers.ts';
import { voiceSteps } from './voice-steps.ts';
import type { FlowGraph } from '../resources/calls/flow-graph.ts';

const SAY_BYE: FlowGraph = { version: 1, start: 'hello', nodes: { hello: { type: 'say', text: 'Hello, see you tomorrow.', next: 'bye' }, bye: { type: 'hangup' } } };
const TO = '010-8100-0007';

async function placed() {
  const h = harness();
  const v = voiceSteps(h);
  await v.script({ number: TO, delaySeconds: 4 });
  const id = await v.place(TO, await v.flow(SAY_BYE));
  return { h, v, id };
}

describe('a live call changed in place', () => {
  it('every read after a change answers it: the cached answer of the row is forgotten', async () => {
    const { h, v, id } = await placed();
    const queued = await v.get(id);
    expect(queued.status).toBe('queued');
    await v.advance(1);
    const ringing = await v.get(id);
    expect(ringing.status).toBe('ringing');
    expect(queued.status).toBe('queued'); // the earlier answer is its own object
    await v.advance(4);
    const answered = await v.get(id);
    expect(answered.status).toBe('in-progress');
    expect(answered.answeredAt).not.toBeNull();
    const page = await v.get(id); // read twice: the cached text is the new one
    expect(page).toEqual(answered);
    await v.advance(120);
    const ended = await v.get(id);
    expect(ended.status).toBe('completed');
    const events = (await h.call('GET', h.acme(`/calls/${id}/events`))).json.data as { detail: { status?: string } }[];
    expect(events.map((e) => e.detail.status)).toEqual(['queued', 'ringing', 'in-progress', 'completed']);
  });

  it('a snapshot keeps its moment, and a restored one is not changed by the calls going on', async () => {
    const { h, v, id } = await placed();
    await v.advance(1);
    const snap = h.sim.snapshot();
    const before = JSON.stringify(snap);
    await v.advance(5); // answered, its walk stepped
    expect((await v.get(id)).status).toBe('in-progress');
    expect(JSON.stringify(snap)).toBe(before);
    h.sim.restore(snap);
    expect((await v.get(id)).status).toBe('ringing');
    await v.advance(120);
    expect((await v.get(id)).status).toBe('completed');
    expect(JSON.stringify(snap)).toBe(before);
    h.sim.restore(snap); // the same snapshot again: the call rings once more, as at its moment
    expect((await v.get(id)).status).toBe('ringing');
  });

  it('the list answers the new status of a live call it answered before', async () => {
    const { h, v, id } = await placed();
    const list = async () => ((await h.call('GET', h.acme('/calls'))).json.data as { callId: string; status: string }[]).find((c) => c.callId === id)!.status;
    expect(await list()).toBe('queued');
    await v.advance(1);
    expect(await list()).toBe('ringing');
    await v.advance(4);
    expect(await list()).toBe('in-progress');
  });
});
