// Transcripts and summaries of a call that has a conversation (calls handled by an agent):
// every turn with text, in order, with the spec's speakers (agent speaker_0, caller speaker_1,
// transfer parties after; AGENT and CUSTOMER before 2026-08), and the default schema's fields
// derived from the turns alone. Pure functions over the calls family's conversation turns.
import type { Turn } from '../calls/conversation.ts';

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

const POSITIVE = /(감사|고마|고맙|좋아|좋네|좋습니다|만족|훌륭|최고|thank|great|good|perfect|happy|excellent)/i;
const NEGATIVE = /(화나|짜증|불만|최악|실망|불편|환불해|항의|angry|terrible|awful|bad|disappoint|complain|worst)/i;

const clip = (s: string, n: number) => ([...s].length <= n ? s : `${[...s].slice(0, n - 1).join('')}…`);

/** The default schema's fields (default:v1), derived from the conversation alone. */
export function conversationSummary(turns: readonly Turn[]): { coreSummary: string; decisions: string[]; followUps: string[]; sentiment: 'positive' | 'neutral' | 'negative' } {
  const said = (role: Turn['speaker']) => turns.filter((t) => t.speaker === role && t.text);
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
