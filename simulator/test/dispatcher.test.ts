// The dispatcher on its own (peers/webhooks/dispatcher.ts), with a fake sender whose answers the
// test releases by hand: one request at a time per receiver in queue order, receivers in
// parallel, busy until everything answered, and answers of a replaced state ignored.
import { describe, expect, it } from 'vitest';
import { Dispatcher, type DispatchOwner } from '../peers/webhooks/dispatcher.ts';
import type { OutgoingRequest } from '../peers/webhooks/request.ts';
import type { AttemptOutcome } from '../peers/webhooks/receiver-client.ts';

const ok: AttemptOutcome = { responseStatus: 200, responseBody: '', responseBodyTruncated: false, latencyMs: 1, error: null, permanent: false };

function setup() {
  const sent: { url: string; answer: (o: AttemptOutcome) => void }[] = [];
  const landed: string[] = [];
  const queued = new Set<string>(); // the owner's state: items not yet started
  const owner: DispatchOwner = {
    start: (id) => (queued.delete(id) ? { attemptId: `${id}_1`, request: { method: 'POST', url: `http://${id}`, headers: {}, body: '' } } : null),
    land: (attemptId) => void landed.push(attemptId),
  };
  const sender = {
    send: (r: OutgoingRequest) => new Promise<AttemptOutcome>((answer) => sent.push({ url: r.url, answer })),
  };
  const d = new Dispatcher(owner, sender);
  const add = (receiver: string, id: string) => {
    queued.add(id);
    d.enqueue({ receiver, id });
  };
  const tick = () => new Promise((r) => setTimeout(r, 0));
  return { d, sent, landed, queued, add, tick };
}

describe('dispatcher', () => {
  it('sends one request at a time per receiver, in queue order, and receivers in parallel', async () => {
    const { d, sent, landed, add, tick } = setup();
    add('a', 'a1');
    add('a', 'a2');
    add('b', 'b1');
    expect(sent).toEqual([]); // attempts start after the producer is done
    await tick();
    expect(sent.map((s) => s.url)).toEqual(['http://a1', 'http://b1']);
    expect(d.busy).toBe(true);
    expect(d.inFlight('a1_1')).toBe(true);
    sent[0]!.answer(ok);
    await tick();
    expect(landed).toEqual(['a1_1']);
    expect(sent.map((s) => s.url)).toEqual(['http://a1', 'http://b1', 'http://a2']);
    const idle = d.whenIdle();
    sent[1]!.answer(ok);
    sent[2]!.answer(ok);
    await idle;
    expect(d.busy).toBe(false);
    expect(landed).toEqual(['a1_1', 'b1_1', 'a2_1']);
  });

  it('skips items the owner no longer starts, and ignores answers the replaced state does not own', async () => {
    const { d, sent, landed, queued, add, tick } = setup();
    add('a', 'a1');
    add('a', 'gone');
    queued.delete('gone'); // ended before its turn
    add('a', 'a3');
    await tick();
    sent[0]!.answer(ok);
    await tick();
    expect(landed).toEqual(['a1_1']);
    expect(sent.map((s) => s.url)).toEqual(['http://a1', 'http://a3']);
    d.replace([], new Set()); // a restore to a state without a3 in flight
    expect(d.inFlight('a3_1')).toBe(false);
    expect(d.busy).toBe(true); // the request is still out
    sent[1]!.answer(ok);
    await d.whenIdle();
    expect(landed).toEqual(['a1_1']);
  });
});
