// A call's conversation (agent calls): ordered turns with their speaker, text and times on the
// call's media position, and what transcripts and summaries derive from it. Pure functions:
// the speech time rule (one second per ten characters, at least one, as a flow's say), the
// transcript's segments with the spec's speaker rule, and the default summary's fields.

export const SPEAKERS = ['agent', 'caller', 'party'] as const;
export type SpeakerRole = (typeof SPEAKERS)[number];

/** One tool call as the inspector shows it. */
export interface ToolCallDetail {
  name: string;
  arguments: Record<string, unknown>;
  connectionId: string | null;
  ok: boolean;
  /** The result's text (ok) or the failure (not ok). */
  result: string;
  /** Virtual milliseconds the call waited for it. */
  latencyMs: number;
}

export interface TurnDetail {
  /** Why the agent said or did this: greeting, rule i (its pattern), fallback, toolFailed, goodbye. */
  rule?: string;
  tool?: ToolCallDetail;
  /** Keys the phone pressed with this turn. */
  dtmf?: string;
  /** What chose the phone's turn (reply:i, line:i). */
  answer?: string;
  /** What the phone said before the number's dictionary rewrote it for the agent. */
  spoken?: string;
  /** Other things that happened at this point (opt-out, transfer, hang-up), in order. */
  events?: string[];
}

export interface Turn {
  speaker: SpeakerRole;
  /** 1 for the first transfer party, 2 for the next...; 0 for the agent and the caller. */
  party: number;
  /** null for audio the simulator cannot read. */
  text: string | null;
  /** Milliseconds on the call's media position (0 = answered). */
  startMs: number;
  endMs: number;
  detail: TurnDetail;
}

/** Silence between one side finishing and the other starting. */
export const TURN_GAP_MS = 1000;

/** How long text speech takes: one second per ten characters, at least one second. */
export function speechMs(text: string): number {
  return Math.max(1, Math.ceil([...text].length / 10)) * 1000;
}

export interface Segment {
  speaker: string;
  start: number;
  end: number;
  text: string;
}

/** Transcripts from 2026-08 use speaker_0.. (agent, caller, then each transfer party). */
export const SPEAKER_NUMBERING_FROM = Date.parse('2026-08-01T00:00:00Z');

/** The speaker label of a turn: the spec's date rule (AGENT and CUSTOMER before 2026-08). */
export function speakerLabel(t: Pick<Turn, 'speaker' | 'party'>, legacy: boolean): string {
  if (legacy) return t.speaker === 'caller' ? 'CUSTOMER' : 'AGENT';
  if (t.speaker === 'agent') return 'speaker_0';
  if (t.speaker === 'caller') return 'speaker_1';
  return `speaker_${1 + t.party}`;
}

/** The transcript's segments: every turn with text, in order, times in seconds. */
export function segmentsOf(turns: readonly Turn[], legacy: boolean): Segment[] {
  return turns
    .filter((t) => t.text !== null && t.text !== '')
    .map((t) => ({ speaker: speakerLabel(t, legacy), start: t.startMs / 1000, end: t.endMs / 1000, text: t.text! }));
}

const POSITIVE = /(감사|고맙|좋아|좋네|좋습니다|만족|훌륭|최고|thank|great|good|perfect|happy|excellent)/i;
const NEGATIVE = /(화나|짜증|불만|최악|실망|불편|환불해|항의|angry|terrible|awful|bad|disappoint|complain|worst)/i;

const clip = (s: string, n: number) => ([...s].length <= n ? s : `${[...s].slice(0, n - 1).join('')}…`);

/** The default schema's fields (default:v1), derived from the conversation alone. */
export function conversationSummary(turns: readonly Turn[]): { coreSummary: string; decisions: string[]; followUps: string[]; sentiment: 'positive' | 'neutral' | 'negative' } {
  const said = (role: SpeakerRole) => turns.filter((t) => t.speaker === role && t.text);
  const caller = said('caller');
  const agent = said('agent');
  const first = caller[0]?.text ?? null;
  const last = agent[agent.length - 1]?.text ?? null;
  const coreSummary =
    first === null
      ? `고객 발화 없이 통화가 끝났습니다 (상담원 ${agent.length}회 발화).`
      : `고객 요청: "${clip(first, 80)}" / 상담원 마지막 답변: "${clip(last ?? '', 80)}" (고객 ${caller.length}회, 상담원 ${agent.length}회 발화).`;
  const decisions: string[] = [];
  const followUps: string[] = [];
  for (const t of turns) {
    const tool = t.detail.tool;
    if (tool?.ok) decisions.push(`도구 ${tool.name} 호출 성공`);
    if (tool && !tool.ok) followUps.push(`도구 ${tool.name} 호출 실패: ${clip(tool.result, 60)}`);
    for (const e of t.detail.events ?? []) {
      if (e.startsWith('optOut:')) decisions.push(`수신거부 등록 (${e.slice(7)})`);
      else if (e.startsWith('transfer:')) decisions.push(`전환 요청: ${e.slice(9)}`);
      else if (e.startsWith('transferFailed:')) followUps.push(`전환 실패: ${e.slice(15)}`);
    }
  }
  let score = 0;
  for (const t of caller) score += (POSITIVE.test(t.text!) ? 1 : 0) - (NEGATIVE.test(t.text!) ? 1 : 0);
  return { coreSummary, decisions, followUps, sentiment: score > 0 ? 'positive' : score < 0 ? 'negative' : 'neutral' };
}
