// Pure pieces of agent calls: the phone's turn (replies, lines, hang-up), speech time, and what
// transcripts and summaries derive from a conversation.
import { describe, expect, it } from 'vitest';
import { INITIAL_TALK, phoneTurn, utteranceOf, type TalkScript, type TalkState } from '../peers/phone-talk.ts';
import { speechMs, type Turn } from '../resources/calls/conversation.ts';
import { conversationSummary, segmentsOf, speakerLabel } from '../resources/recordings/conversation-text.ts';

/** The phone's turns for what it heard, in order; stops at its hang-up. */
function talk(script: TalkScript, heard: string[]): string[] {
  let state: TalkState = INITIAL_TALK;
  const out: string[] = [];
  for (const h of heard) {
    const r = phoneTurn(script, state, h);
    state = r.state;
    if (r.turn.kind === 'hangup') {
      out.push('hangup');
      break;
    }
    out.push(`${r.turn.answer}:${utteranceOf(r.turn)}${r.turn.keys && r.turn.say ? `+${r.turn.keys}` : ''}`);
  }
  return out;
}

describe('phone turns', () => {
  it('a matching reply wins (again and again), else the next line, else it hangs up', () => {
    const script: TalkScript = { replies: [{ heard: 'press one', keys: '1' }, { heard: 'name\\?', keys: '', say: '김민수입니다' }], lines: ['예약하고 싶어요', '내일 7시요'] };
    expect(talk(script, ['안녕하세요', 'Your NAME?', 'name?', 'ok', 'press one', 'bye', 'bye'])).toEqual([
      'line:0:예약하고 싶어요',
      'reply:1:김민수입니다',
      'reply:1:김민수입니다',
      'line:1:내일 7시요',
      'reply:0:1',
      'hangup',
    ]);
  });

  it('says and presses keys together; a reply with neither is silence', () => {
    const script: TalkScript = { replies: [{ heard: 'confirm', keys: '#', say: 'yes' }, { heard: 'quiet', keys: '' }], lines: [] };
    expect(talk(script, ['confirm', 'quiet please'])).toEqual(['reply:0:yes+#', 'reply:1:']);
  });

  it('in calls where it hears nothing, only replies matching "" apply, then its lines', () => {
    const script: TalkScript = { replies: [{ heard: '^$', keys: '', say: 'hello?' }], lines: ['never'] };
    expect(talk(script, ['', ''])).toEqual(['reply:0:hello?', 'reply:0:hello?']);
    expect(talk({ replies: [{ heard: 'x', keys: '9' }], lines: ['a'] }, ['', ''])).toEqual(['line:0:a', 'hangup']);
  });
});

describe('conversation', () => {
  const turn = (speaker: Turn['speaker'], text: string | null, startMs: number, extra: Partial<Turn> = {}): Turn => ({ speaker, party: 0, text, startMs, endMs: startMs + (text ? speechMs(text) : 1000), detail: {}, ...extra });

  it('speech takes a second per ten characters, at least one', () => {
    expect([speechMs(''), speechMs('a'.repeat(10)), speechMs('가'.repeat(11))]).toEqual([1000, 1000, 2000]);
  });

  it('labels speakers by the date rule', () => {
    expect(['agent', 'caller'].map((s) => speakerLabel({ speaker: s as Turn['speaker'], party: 0 }, false))).toEqual(['speaker_0', 'speaker_1']);
    expect(speakerLabel({ speaker: 'party', party: 2 }, false)).toBe('speaker_3');
    expect(['agent', 'caller', 'party'].map((s) => speakerLabel({ speaker: s as Turn['speaker'], party: 1 }, true))).toEqual(['AGENT', 'CUSTOMER', 'AGENT']);
  });

  it('gives one segment per turn with text, times in seconds', () => {
    const turns = [turn('agent', '안녕하세요', 0), turn('caller', null, 2000), turn('caller', '예약이요', 3000)];
    expect(segmentsOf(turns, false)).toEqual([
      { speaker: 'speaker_0', start: 0, end: 1, text: '안녕하세요' },
      { speaker: 'speaker_1', start: 3, end: 4, text: '예약이요' },
    ]);
  });

  it('derives the default summary fields from the turns', () => {
    const turns = [
      turn('agent', '무엇을 도와드릴까요?', 0),
      turn('caller', '정말 감사합니다. 예약 확인해 주세요', 3000),
      turn('agent', '5월 3일입니다', 8000, { detail: { tool: { name: 'get_reservation', arguments: {}, connectionId: 'mcp_1', ok: true, result: '{}', latencyMs: 0 }, events: ['optOut:call'] } }),
      turn('caller', null, 10000, { detail: { events: ['transferFailed:01012345678'] } }),
    ];
    const s = conversationSummary(turns);
    expect(s.coreSummary).toContain('정말 감사합니다');
    expect(s.coreSummary).toContain('5월 3일입니다');
    expect(s.decisions).toEqual(['도구 get_reservation 호출 성공', '수신거부 등록 (call)']);
    expect(s.followUps).toEqual(['전환 실패: 01012345678']);
    expect(s.sentiment).toBe('positive');
    expect(conversationSummary([turn('caller', '최악이에요', 0)]).sentiment).toBe('negative');
    expect(conversationSummary([]).coreSummary).toContain('고객 발화 없이');
  });
});
