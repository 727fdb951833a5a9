// Generated managed-agent behaviours and phone scripts drive real agent calls through the API;
// the call's transcript equals the conversation the kit's reference model predicts
// (agent-conversation-model.ts, the documented rules of docs/agents.md read independently),
// and the call lasts what the model says. Sim level: the timing rules are the simulator's.
import { generatedProperty } from './harness.ts';
import type { PropertyDef } from './types.ts';
import { referenceConversation, type RefSegment } from './agent-conversation-model.ts';
import { conversationCaseArb, type ConversationCase } from './agent-conversation-arb.ts';

type Json = Record<string, unknown>;

/** Transcripts name speakers speaker_0.. from 2026-08 (spec Versioning 6): the calls run after it. */
const NUMBERED_SPEAKERS_FROM = '2026-08-01T00:00:00Z';

function differs(got: RefSegment[], want: RefSegment[]): string | undefined {
  const n = Math.max(got.length, want.length);
  for (let i = 0; i < n; i++) {
    const g = got[i];
    const w = want[i];
    if (JSON.stringify(g) !== JSON.stringify(w)) return `segment ${i}: the transcript has ${JSON.stringify(g ?? null)}, the reference conversation ${JSON.stringify(w ?? null)}`;
  }
  return undefined;
}

export const agentConversationsProperty: PropertyDef = generatedProperty<ConversationCase>({
  id: 'agent-conversations',
  description: 'generated agent behaviours and phone scripts drive agent calls; the transcript equals a reference conversation computed by the kit',
  clauses: ['transcript.completed.fields', 'transcript.speaker.numbered'],
  tags: ['agents', 'calls', 'property'],
  requires: ['writes', 'accounts', 'carrier', 'clock', 'agents'],
  level: 'sim',
  numRuns: 25,
  arbitrary: conversationCaseArb,
  drive: async (v, c) => {
    const callee = c.number(0);
    c.set('callee', callee);
    await c.exec({ control: { method: 'GET', path: '/clock' }, save: { clockNow: 'body.now' } });
    const clockNow = c.saved('clockNow');
    if (typeof clockNow === 'string' && Date.parse(clockNow) < Date.parse(NUMBERED_SPEAKERS_FROM)) await c.exec({ control: { advance: { to: NUMBERED_SPEAKERS_FROM } } });
    await c.exec({ control: { createAccount: { numbers: 1 }, as: 'shop' } as Json });
    const agent = await c.exec({ request: { operationId: 'createAgent', as: 'shop', body: { name: 'generated', greeting: v.greet } }, expectSim: { status: 201 }, save: { agent: 'body.agentId' } });
    if (agent.status === 'failed') return undefined;
    const rules = v.behaviour.rules.map((r) => ({ heard: r.heard, ...(r.say === null ? {} : { say: r.say }), ...(r.hangup ? { hangup: true } : {}) }));
    await c.exec({ control: { method: 'PUT', path: '/agents/{{ agent }}/behaviour', body: { greeting: v.behaviour.greeting, rules, fallback: v.behaviour.fallback, maxTurns: v.behaviour.maxTurns } } });
    const replies = v.phone.replies.map((r) => ({ heard: r.heard, keys: '', say: r.say }));
    await c.exec({ control: { method: 'POST', path: '/carrier/scripts', body: { number: '{{ callee }}', types: ['call'], outcome: 'delivered', replies, lines: v.phone.lines } }, save: { script: 'body.scriptId' } });
    c.afterCase({ control: { method: 'DELETE', path: '/carrier/scripts/{{ script }}' } });
    await c.exec({
      name: 'place the agent call',
      request: { operationId: 'createCall', as: 'shop', body: { To: '{{ callee }}', From: '{{ shop.numbers[0] }}', AgentId: '{{ agent }}' } },
      expectSim: { status: 201 },
      save: { call: 'body.callId' },
    });
    await c.exec({ control: { advance: { seconds: 3600 } } });
    await c.exec({ request: { operationId: 'getCall', as: 'shop', params: { callId: '{{ call }}' } }, save: { duration: 'body.duration' } });
    await c.exec({ request: { operationId: 'requestTranscript', as: 'shop', params: { callId: '{{ call }}' } } });
    await c.exec({ control: { advance: { seconds: 600 } } });
    await c.exec({ request: { operationId: 'getTranscript', as: 'shop', params: { callId: '{{ call }}' } }, expectSim: { body: { status: 'completed' } }, save: { segments: 'body.segments' } });
    const segments = c.saved('segments') as RefSegment[] | undefined;
    if (!segments) return 'the transcript did not complete';
    const ref = referenceConversation(v.behaviour, v.phone, v.greet);
    const duration = c.saved('duration');
    if (duration !== ref.seconds) return `the call lasted ${String(duration)} s; the reference conversation ${ref.seconds} s`;
    return differs(segments, ref.segments);
  },
});
