// A phone that talks (the carrier's phones in agent calls): one turn is a pure function of the
// phone's script, its state and what it heard since its last turn. The first reply whose
// `heard` matches speaks its `say` and presses its `keys`; without one, the phone says its next
// unused line; with nothing left to say, it hangs up. A reply with neither say nor keys is a
// silent turn. In calls where the phone cannot understand speech (the customer's own agent),
// what it heard is the empty string.

export interface TalkReply {
  heard: string;
  keys: string;
  say?: string | null;
}

export interface TalkScript {
  replies: readonly TalkReply[];
  /** Said in order when no reply matches. */
  lines: readonly string[];
}

/** Plain JSON, kept with the call. */
export interface TalkState {
  /** Lines said so far (the next line's index). */
  linesUsed: number;
}

export const INITIAL_TALK: TalkState = { linesUsed: 0 };

export type PhoneTurn =
  | { kind: 'speak'; say: string | null; keys: string | null; answer: string }
  | { kind: 'hangup'; answer: 'none' };

const compiled = new WeakMap<readonly TalkReply[], RegExp[]>();
function patterns(replies: readonly TalkReply[]): RegExp[] {
  let p = compiled.get(replies);
  if (!p) {
    p = replies.map((r) => new RegExp(r.heard, 'i'));
    compiled.set(replies, p);
  }
  return p;
}

/** The phone's next turn after hearing `heard`; `answer` names what chose it (reply:i, line:i). */
export function phoneTurn(script: TalkScript, state: TalkState, heard: string): { state: TalkState; turn: PhoneTurn } {
  const i = patterns(script.replies).findIndex((re) => re.test(heard));
  if (i >= 0) {
    const r = script.replies[i]!;
    const say = r.say === undefined || r.say === null || r.say === '' ? null : r.say;
    return { state, turn: { kind: 'speak', say, keys: r.keys === '' ? null : r.keys, answer: `reply:${i}` } };
  }
  if (state.linesUsed < script.lines.length) {
    const n = state.linesUsed;
    return { state: { linesUsed: n + 1 }, turn: { kind: 'speak', say: script.lines[n]!, keys: null, answer: `line:${n}` } };
  }
  return { state, turn: { kind: 'hangup', answer: 'none' } };
}

/** What the other side hears of a phone turn: its words, else its keys, else silence (""). */
export function utteranceOf(turn: Extract<PhoneTurn, { kind: 'speak' }>): string {
  return turn.say ?? turn.keys ?? '';
}
