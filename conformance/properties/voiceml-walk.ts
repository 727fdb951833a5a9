// Generated VoiceML programs and phone scripts (docs/decisions.md "VoiceML"): the kit's receiver serves a set of
// generated documents, a call is placed with Url at the first, and the requests the target makes
// (which documents, with which Digits and RecordingDuration) and how the call ends equal a
// reference walk written here, independently of any implementation. Documents link only to later
// documents (Gather/Record actions, Redirect), so every walk ends.
import fc from 'fast-check';
import { generatedProperty } from './harness.ts';
import type { PropertyDef } from './types.ts';

type Json = Record<string, unknown>;

type Verb =
  | { verb: 'Say'; text: string }
  | { verb: 'Pause'; length: number }
  | { verb: 'Gather'; numDigits?: number; finishOnKey?: string; action?: number }
  | { verb: 'Record'; maxLength?: number; action?: number }
  | { verb: 'Redirect'; to: number }
  | { verb: 'Hangup' }
  | { verb: 'Reject'; busy: boolean };

interface Case {
  docs: Verb[][];
  keys: string[];
  speakSeconds: number;
}

const KEY_ENTRIES = ['', '1', '12', '123#', '#', '9*8', '45', '7#1'] as const;

function verbArb(i: number, n: number): fc.Arbitrary<Verb> {
  const later = fc.integer({ min: i + 1, max: Math.max(i + 1, n - 1) });
  // Actions are given three times in four, so walks reach later documents; optional attributes are left out half the time.
  const action = i + 1 < n ? fc.option(later, { nil: undefined, freq: 4 }) : fc.constant(undefined);
  const arbs: fc.WeightedArbitrary<Verb>[] = [
    { weight: 2, arbitrary: fc.constantFrom('Hello', 'Press now', 'Thanks').map((text) => ({ verb: 'Say' as const, text })) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 3 }).map((length) => ({ verb: 'Pause' as const, length })) },
    {
      weight: 5,
      arbitrary: fc
        .record({ numDigits: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined, freq: 2 }), finishOnKey: fc.option(fc.constantFrom('#', '*', ''), { nil: undefined, freq: 2 }), action })
        .map((g) => ({ verb: 'Gather' as const, ...g })),
    },
    { weight: 3, arbitrary: fc.record({ maxLength: fc.option(fc.integer({ min: 1, max: 6 }), { nil: undefined, freq: 2 }), action }).map((r) => ({ verb: 'Record' as const, ...r })) },
    { weight: 1, arbitrary: fc.constant({ verb: 'Hangup' as const }) },
    { weight: 1, arbitrary: fc.boolean().map((busy) => ({ verb: 'Reject' as const, busy })) },
  ];
  if (i + 1 < n) arbs.push({ weight: 2, arbitrary: later.map((to) => ({ verb: 'Redirect' as const, to })) });
  return fc.oneof(...arbs);
}

// Two to five documents, drawn evenly (an integer arbitrary leans to small values), so walks go deep.
const caseArb: fc.Arbitrary<Case> = fc.constantFrom(2, 3, 4, 5).chain((n) =>
  fc.record({
    docs: fc.tuple(...Array.from({ length: n }, (_, i) => fc.array(verbArb(i, n), { minLength: 1, maxLength: 3 }))),
    keys: fc.array(fc.constantFrom(...KEY_ENTRIES), { minLength: 1, maxLength: 6 }),
    speakSeconds: fc.integer({ min: 0, max: 12 }),
  }),
);

const attr = (name: string, v: string | number | undefined) => (v === undefined ? '' : ` ${name}="${v}"`);

/** The document as served; actions and redirects are relative, so they stay under the scenario's receiver URL. */
export function documentOf(verbs: Verb[]): string {
  const body = verbs
    .map((v) => {
      switch (v.verb) {
        case 'Say':
          return `<Say language="en">${v.text}</Say>`;
        case 'Pause':
          return `<Pause length="${v.length}"/>`;
        case 'Gather':
          return `<Gather${attr('numDigits', v.numDigits)}${attr('finishOnKey', v.finishOnKey)}${attr('action', v.action === undefined ? undefined : `d${v.action}`)} timeout="2"><Say>Enter digits</Say></Gather>`;
        case 'Record':
          return `<Record${attr('maxLength', v.maxLength)}${attr('action', v.action === undefined ? undefined : `d${v.action}`)}/>`;
        case 'Redirect':
          return `<Redirect>d${v.to}</Redirect>`;
        case 'Hangup':
          return '<Hangup/>';
        case 'Reject':
          return v.busy ? '<Reject reason="busy"/>' : '<Reject/>';
      }
    })
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?><Response>${body}</Response>`;
}

export interface Expected {
  /** Per document: the form fields its one request carries beyond the call's own, or null when never requested. */
  requests: (Record<string, string> | null)[];
  status: 'completed' | 'rejected' | 'busy';
}

/** The reference walk: which documents are requested with what, and how the call ends. */
export function referenceWalk(c: Case): Expected {
  const requests: (Record<string, string> | null)[] = c.docs.map(() => null);
  let entry = 0;
  const nextKeys = () => c.keys[entry++] ?? '';
  let doc = 0;
  requests[0] = {};
  for (;;) {
    let moved = false;
    for (const v of c.docs[doc]!) {
      if (v.verb === 'Hangup') return { requests, status: 'completed' };
      if (v.verb === 'Reject') return { requests, status: v.busy ? 'busy' : 'rejected' };
      if (v.verb === 'Redirect') {
        requests[v.to] = {};
        doc = v.to;
        moved = true;
        break;
      }
      if (v.verb === 'Gather') {
        const finish = v.finishOnKey ?? '#';
        const upToFinish = finish === '' ? nextKeys() : nextKeys().split(finish)[0]!;
        const digits = v.numDigits === undefined ? upToFinish : upToFinish.slice(0, v.numDigits);
        if (digits === '' || v.action === undefined) continue;
        requests[v.action] = { Digits: digits };
        doc = v.action;
        moved = true;
        break;
      }
      if (v.verb === 'Record') {
        const keys = nextKeys();
        if (v.action === undefined) continue;
        requests[v.action] = { RecordingDuration: String(Math.min(c.speakSeconds, v.maxLength ?? 60)), Digits: keys.charAt(0) };
        doc = v.action;
        moved = true;
        break;
      }
    }
    if (!moved) return { requests, status: 'completed' };
  }
}

export const voicemlWalkProperty: PropertyDef = generatedProperty<Case>({
  id: 'voiceml-walk',
  description: 'generated VoiceML documents served by the kit\'s receiver and generated phone scripts: the documents requested, the digits and recordings posted and the end status equal an independent reference walk',
  clauses: ['auth.webhook-signature', 'events.form-encoding', 'call.field.status-completed', 'call.field.status-busy-rejected'],
  tags: ['calls', 'voiceml', 'property'],
  requires: ['writes', 'accounts', 'carrier', 'phone-calls', 'clock', 'receiver'],
  level: 'sim',
  numRuns: 60,
  arbitrary: caseArb,
  drive: async (v, c) => {
    const callee = c.number(0);
    c.set('callee', callee);
    await c.exec({ control: { createAccount: { numbers: 1 }, as: 'shop' } as Json });
    for (const [i, verbs] of v.docs.entries()) await c.exec({ receiver: { status: 200, path: `/vml/d${i}`, body: documentOf(verbs) } });
    await c.exec({ control: { method: 'POST', path: '/carrier/scripts', body: { number: '{{ callee }}', types: ['call'], outcome: 'delivered', keys: v.keys, speakSeconds: v.speakSeconds } }, save: { script: 'body.scriptId' } });
    c.afterCase({ control: { method: 'DELETE', path: '/carrier/scripts/{{ script }}' } });
    const placed = await c.exec({
      name: 'place the Url call',
      request: { operationId: 'createCall', as: 'shop', body: { To: '{{ callee }}', From: '{{ shop.numbers[0] }}', Url: '{{ receiver.url }}/vml/d0' } },
      expectSim: { status: 201 },
      save: { call: 'body.callId' },
    });
    if (placed.status === 'failed') return undefined;
    await c.exec({ control: { advance: { seconds: 3600 } } });
    const want = referenceWalk(v);
    for (const [i, fields] of want.requests.entries()) {
      await c.exec({
        name: `document d${i} is requested ${fields === null ? 'never' : 'once'}`,
        webhook: { path: `/vml/d${i}`, within: { seconds: 0 }, account: 'shop' },
        expectSim:
          fields === null
            ? { count: 0 }
            : { count: 1, method: 'POST', fields: { CallId: '{{ call }}', Digits: fields.Digits ?? { $absent: true }, RecordingDuration: fields.RecordingDuration ?? { $absent: true } } },
      });
    }
    await c.exec({
      name: 'the call ends as the reference walk says',
      request: { operationId: 'getCall', as: 'shop', params: { callId: '{{ call }}' } },
      expectSim: { status: 200, body: { status: want.status, hangupSource: want.status === 'completed' ? 'caller' : 'app', hangupCause: { $ne: 'app_error' } } },
    });
    return undefined;
  },
});
