// createCall accepts application/x-www-form-urlencoded as the public API document lists:
// the same call as the JSON body, the same validation, bad form bodies a 400 naming the field.
import { afterEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { harness } from './helpers.ts';
import { closeAllReceivers, startReceiver } from './receivers.ts';
import type { FlowGraph } from '../resources/calls/flow-graph.ts';

afterEach(closeAllReceivers);

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

const FLOW: FlowGraph = {
  version: 1,
  start: 'hello',
  nodes: {
    hello: { type: 'say', text: 'Hello {{name}}', next: 'menu' },
    menu: { type: 'menu', prompt: 'Press 1', branches: { '1': 'bye' }, invalidNext: 'bye', timeoutNext: 'bye', saveAs: 'choice' },
    bye: { type: 'hangup', message: 'Goodbye {{name}} {{n}}' },
  },
};

async function placed(encoding: 'json' | 'form') {
  const h = harness();
  const flowId = (await h.call('POST', h.acme('/call-flows'), { name: 'f', graph: FLOW })).json.callFlowId as string;
  const hook = await startReceiver();
  await h.call('POST', h.acme('/webhooks'), { url: hook.url, events: ['callflow.ended'] });
  const status = await startReceiver();
  await h.sim.control.request('POST', '/carrier/scripts', { types: ['call'], outcome: 'delivered', number: '010-2000-0001', keys: ['1'], delaySeconds: 2 });
  const fields = {
    To: '010-2000-0001',
    From: '070-1234-0001',
    CallFlowId: flowId,
    Variables: { name: 'Kim', n: 3, vip: true },
    Timeout: 45,
    StatusCallback: status.url,
    StatusCallbackEvent: 'initiated completed',
    MachineDetection: 'Enable',
  };
  let created;
  if (encoding === 'json') {
    created = await h.call('POST', h.acme('/calls'), fields);
  } else {
    const form = new URLSearchParams();
    for (const [k, v] of Object.entries(fields)) {
      if (k === 'StatusCallbackEvent') continue;
      form.append(k, typeof v === 'object' ? JSON.stringify(v) : String(v));
    }
    // A repeated key of a space-separated list is the same list.
    form.append('StatusCallbackEvent', 'initiated');
    form.append('StatusCallbackEvent', 'completed');
    created = await h.call('POST', h.acme('/calls'), undefined, { headers: FORM, rawBody: form.toString() });
  }
  expect(created.status, created.text).toBe(201);
  await h.sim.clock.advance({ seconds: 120 });
  await h.sim.webhooks.settle();
  const ended = (await h.call('GET', h.acme(`/calls/${created.json.callId}`))).json;
  return { created: created.json, ended, flowEnded: hook.requests.map((r) => r.fields), callbacks: status.requests.map((r) => r.fields.StatusCallbackEvent) };
}

describe('createCall with a form body', () => {
  it('gives the same call, flow walk, callflow.ended and status callbacks as the JSON body', async () => {
    const json = await placed('json');
    const form = await placed('form');
    expect(json.ended.status).toBe('completed');
    expect(json.ended.answeredBy).toBe('human');
    expect(JSON.parse(json.flowEnded[0]!.Variables!)).toMatchObject({ name: 'Kim', n: '3', vip: 'true', choice: '1' });
    expect(json.callbacks).toEqual(['initiated', 'completed']);
    expect(form.created).toEqual(json.created);
    expect(form.ended).toEqual(json.ended);
    expect(form.flowEnded).toEqual(json.flowEnded);
    expect(form.callbacks).toEqual(json.callbacks);
  });

  it('bad form bodies get the 400 error body naming the field, and store nothing', async () => {
    const h = harness();
    const post = (body: string) => h.call('POST', h.acme('/calls'), undefined, { headers: FORM, rawBody: body });
    const cases: [string, string][] = [
      ['To=010-2000-0001&From=070-1234-0001&Timeout=soon', 'Timeout'],
      ['To=010-2000-0001&From=070-1234-0001&CallFlowId=x&Variables=%7Bnot-json', 'Variables'],
      ['To=010-2000-0001&From=070-1234-0001&CallFlowId=x&Variables=%5B1%5D', 'Variables'],
      ['To=010-2000-0001&To=010-2000-0002&From=070-1234-0001', 'To'],
      ['To=010-2000-0001&From=070-1234-0001&Colour=blue', 'Colour'],
      ['From=070-1234-0001', 'To'],
      ['To=010-2000-0001&From=070-1234-0001&MachineDetection=Maybe', 'MachineDetection'],
    ];
    for (const [body, path] of cases) {
      const r = await post(body);
      expect(r.status, body).toBe(400);
      expect(r.json.code, body).toBe('VALIDATION');
      expect(typeof r.json.error).toBe('string');
      expect((r.json.errors as { path: string }[]).map((e) => e.path).join(' '), body).toContain(path);
    }
    // Variables as a form string follows the JSON rules (reserved names refused).
    const reserved = await post(`To=010-2000-0001&From=070-1234-0001&CallFlowId=x&Variables=${encodeURIComponent('{"caller":"x"}')}`);
    expect(reserved.status).toBe(400);
    // The removed AI field takes any value, so a repeated one is a list, refused as the mode it names.
    for (const ai of ['AI=x', 'AI=&AI=']) expect((await post(`To=010-2000-0001&From=070-1234-0001&${ai}`)).json.code, ai).toBe('ai_mode_removed');
    expect((await h.call('GET', h.acme('/calls'))).json.data).toEqual([]);
  });

  it('other operations still take JSON only (415), and createCall refuses other types', async () => {
    const h = harness();
    const flow = await h.call('POST', h.acme('/call-flows'), undefined, { headers: FORM, rawBody: 'name=x' });
    expect(flow.status).toBe(415);
    expect(flow.json.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    const text = await h.call('POST', h.acme('/calls'), undefined, { headers: { 'content-type': 'text/plain' }, rawBody: 'To=1' });
    expect(text.status).toBe(415);
    expect(text.json.error).toContain('application/x-www-form-urlencoded');
  });

  it('/openapi.json lists both encodings for createCall with the same schema', async () => {
    const h = harness();
    const doc = (await h.call('GET', '/openapi.json', undefined, { key: null })).json;
    const content = doc.paths['/v1/accounts/{accountId}/calls'].post.requestBody.content;
    expect(Object.keys(content).sort()).toEqual(['application/json', 'application/x-www-form-urlencoded']);
    expect(content['application/x-www-form-urlencoded'].schema).toEqual(content['application/json'].schema);
    expect(Object.keys(doc.paths['/v1/accounts/{accountId}/call-flows'].post.requestBody.content)).toEqual(['application/json']);
  });

  it('generated form bodies never get a 5xx; refusals carry the error body and change nothing', async () => {
    const h = harness();
    const keys = ['To', 'From', 'Url', 'AgentId', 'CallContext', 'CallFlowId', 'Variables', 'Timeout', 'StatusCallback', 'StatusCallbackEvent', 'MachineDetection', 'junk'];
    const value = fc.oneof(fc.string(), fc.constantFrom('', '010-2000-0001', '070-1234-0001', '12', '-3', '1.5', 'true', '{}', '{"a":1}', '[1]', '{"caller":"x"}', 'initiated completed', 'Enable', 'x'.repeat(3000)));
    const body = fc.array(fc.tuple(fc.constantFrom(...keys), value), { maxLength: 8 }).map((pairs) => {
      const f = new URLSearchParams();
      for (const [k, v] of pairs) f.append(k, v);
      return f.toString();
    });
    const seed = 20261124;
    await fc.assert(
      fc.asyncProperty(body, async (raw) => {
        const before = JSON.stringify(h.sim.snapshot());
        const r = await h.call('POST', h.acme('/calls'), undefined, { headers: FORM, rawBody: raw });
        expect(r.status, `${raw}: ${r.text}`).toBeLessThan(500);
        if (r.status >= 400) {
          expect(typeof r.json.code).toBe('string');
          expect(typeof r.json.error).toBe('string');
          expect(JSON.stringify(h.sim.snapshot()), `${raw} changed state`).toBe(before);
        }
      }),
      { numRuns: 300, seed, reporter: (out) => { if (out.failed) throw new Error(`seed ${seed}: ${out.counterexample ? JSON.stringify(out.counterexample) : ''} ${String(out.errorInstance ?? '')}`); } },
    );
  });
});
