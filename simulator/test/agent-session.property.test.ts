// Property: generated behaviours and phone scripts, run through the session engine with a fake
// call host, give exactly the transcript the kit's reference model predicts
// (conformance/properties/agent-conversation-model.ts), and end the same way at the same time.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../core/clock.ts';
import { SeededRandom } from '../core/random.ts';
import { References } from '../core/refs.ts';
import { INITIAL_TALK, phoneTurn, type TalkState } from '../peers/phone-talk.ts';
import { AgentsModel } from '../resources/agents/model.ts';
import { clockJobs } from './model-scope.ts';
import { AgentSessions } from '../resources/agents/session.ts';
import type { Turn } from '../resources/calls/conversation.ts';
import { segmentsOf } from '../resources/recordings/conversation-text.ts';
import type { EndedBy } from '../resources/agents/session-ports.ts';
import { referenceConversation } from '../../conformance/properties/agent-conversation-model.ts';
import { conversationCaseArb, type ConversationCase } from '../../conformance/properties/agent-conversation-arb.ts';

const START = Date.parse('2026-09-01T00:00:00Z');

function simulate(c: ConversationCase): { segments: ReturnType<typeof segmentsOf>; endedBy: EndedBy | null; seconds: number } {
  const clock = new VirtualClock(START);
  const agents = new AgentsModel({
    clock,
    random: new SeededRandom(3),
    refs: new References(),
    voices: () => ({ byVoice: () => undefined, readyOf: () => [] }),
    users: () => ({ numbersRoutedTo: () => [], batchesUsing: () => [] }),
    connections: () => ({ find: () => undefined }),
  });
  const agent = agents.create('AC1', { name: 'bot', greeting: c.greet });
  agents.setBehaviour(agent, { greeting: c.behaviour.greeting, rules: c.behaviour.rules.map((r) => ({ heard: r.heard, ...(r.say === null ? {} : { say: r.say }), ...(r.hangup ? { hangup: true } : {}) })), fallback: c.behaviour.fallback, maxTurns: c.behaviour.maxTurns });
  const turns: Turn[] = [];
  let talk: TalkState = INITIAL_TALK;
  let endedBy: EndedBy | null = null;
  let endedAt = 0;
  const phone = { replies: c.phone.replies.map((r) => ({ heard: r.heard, keys: '', say: r.say })), lines: c.phone.lines };
  const sessions: AgentSessions = new AgentSessions({
    kernel: { clock, jobs: clockJobs(clock) },
    agents,
    call: () => ({
      speak: (_, t) => void turns.push(t),
      phoneTurn: (_, heard) => {
        const r = phoneTurn(phone, talk, heard);
        talk = r.state;
        return r.turn;
      },
      hangUp: (_, by) => {
        endedBy = by;
        endedAt = clock.now();
        sessions.ended('CA1');
      },
      transfer: () => ({ started: false, status: 'failed', reason: 'none' }),
      optOut: () => undefined,
    }),
    targets: () => ({ target: () => undefined }),
    tools: () => ({ call: () => undefined }),
    hearing: () => (text) => text,
  });
  sessions.start({ callId: 'CA1', accountId: 'AC1', agentId: agent.id, answeredAt: START, variables: {}, instruction: null, dictionaryId: null });
  clock.advanceTo(START + 3_600_000);
  return { segments: segmentsOf(turns, false), endedBy, seconds: (endedAt - START) / 1000 };
}

describe('agent conversations', () => {
  it('match the kit\'s reference conversation', () => {
    fc.assert(
      fc.property(conversationCaseArb, (c) => {
        const ref = referenceConversation(c.behaviour, c.phone, c.greet);
        const got = simulate(c);
        expect(got.segments).toEqual(ref.segments);
        expect(got.endedBy).toBe(ref.endedBy);
        expect(got.seconds).toBe(ref.seconds);
      }),
    );
  });
});
