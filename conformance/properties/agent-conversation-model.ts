// The kit's own reference of a managed agent's conversation with a scripted phone, written from
// the simulator's documented rules (docs/agents.md) without any of its code: the agent greets,
// the phone answers after a second of silence with the first reply whose pattern matches what
// it heard (else its next line, else it hangs up), the agent answers with the first rule whose
// pattern matches (else its fallback), speech takes a second per ten characters (at least
// one), and after maxTurns the agent says goodbye and hangs up. The property compares the
// transcript of a real call with the segments predicted here.

export interface RefRule {
  heard: string;
  say: string | null;
  hangup: boolean;
}

export interface RefBehaviour {
  greeting: string;
  rules: RefRule[];
  fallback: string;
  maxTurns: number;
}

export interface RefPhone {
  replies: { heard: string; say: string }[];
  lines: string[];
}

export interface RefSegment {
  speaker: 'speaker_0' | 'speaker_1';
  start: number;
  end: number;
  text: string;
}

export interface RefConversation {
  segments: RefSegment[];
  /** Who ended the call: the agent (a hang-up rule or maxTurns) or the phone (nothing left to say). */
  endedBy: 'agent' | 'phone';
  /** Seconds from the answer to the end. */
  seconds: number;
}

/** The simulator's goodbye line for a Korean agent (docs/decisions.md "Managed agents"). */
export const KOREAN_GOODBYE = '통화해 주셔서 감사합니다. 좋은 하루 보내세요.';
const GAP = 1;

export function speechSeconds(text: string): number {
  return Math.max(1, Math.ceil([...text].length / 10));
}

/** Predicts the conversation; `greet` is the agent's greeting setting. */
export function referenceConversation(b: RefBehaviour, phone: RefPhone, greet: boolean, goodbye = KOREAN_GOODBYE): RefConversation {
  const segments: RefSegment[] = [];
  let t = 0;
  let said: string[] = [];
  let linesUsed = 0;
  let turns = 0;
  const speak = (speaker: RefSegment['speaker'], text: string) => {
    const d = speechSeconds(text);
    segments.push({ speaker, start: t, end: t + d, text });
    t += d;
  };
  if (greet) {
    speak('speaker_0', b.greeting);
    said.push(b.greeting);
  }
  for (;;) {
    t += GAP;
    const heard = said.join(' ');
    said = [];
    const reply = phone.replies.find((r) => new RegExp(r.heard, 'i').test(heard));
    let utterance: string;
    if (reply) utterance = reply.say;
    else if (linesUsed < phone.lines.length) utterance = phone.lines[linesUsed++]!;
    else return { segments, endedBy: 'phone', seconds: t };
    speak('speaker_1', utterance);
    t += GAP;
    turns++;
    const rule = b.rules.find((r) => new RegExp(r.heard, 'i').test(utterance));
    const lines = rule ? (rule.say === null ? [] : [rule.say]) : [b.fallback];
    for (const line of lines) {
      speak('speaker_0', line);
      said.push(line);
    }
    if (rule?.hangup) return { segments, endedBy: 'agent', seconds: t };
    if (turns >= b.maxTurns) {
      speak('speaker_0', goodbye);
      return { segments, endedBy: 'agent', seconds: t };
    }
  }
}
