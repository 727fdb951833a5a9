// Generated managed-agent behaviours and phone scripts for the conversation property: patterns
// are plain words (no pattern characters), lines are a few words, so that what matches what is
// decided by words the reference model (agent-conversation-model.ts) reads the same way.
import fc from 'fast-check';
import type { RefBehaviour, RefPhone } from './agent-conversation-model.ts';

const WORDS = ['예약', '취소', '환불', '배송', 'yes', 'no', 'help', '상담원', '확인', 'order'] as const;

const line = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 }).map((w) => w.join(' '));
const word = fc.constantFrom(...WORDS);

export interface ConversationCase {
  behaviour: RefBehaviour;
  phone: RefPhone;
  greet: boolean;
}

export const conversationCaseArb: fc.Arbitrary<ConversationCase> = fc.record({
  behaviour: fc.record({
    greeting: line,
    rules: fc.array(fc.record({ heard: word, say: fc.option(line, { nil: null, freq: 5 }), hangup: fc.boolean() }).filter((r) => r.say !== null || r.hangup), { maxLength: 4 }),
    fallback: line,
    maxTurns: fc.integer({ min: 1, max: 6 }),
  }),
  phone: fc.record({
    replies: fc.array(fc.record({ heard: word, say: line }), { maxLength: 3 }),
    lines: fc.array(line, { maxLength: 5 }),
  }),
  greet: fc.boolean(),
});
