// The conversation of an Agent SDK call in the calls family's terms (seam §2): the phone side's
// turns, from frames on the media stream to virtual ms from the answer (the stream may start a
// little after the answer: `offsetMs`). The agent's turns carry no text (audio the simulator does
// not recognise) and the DTMF it sent; the phone's carry what it said and the keys it pressed.
import type { ConversationTurn } from './call-ports.ts';
import type { MediaSession } from './media-session.ts';
import { FRAME_MS } from './media/engine.ts';

/** Turns of the session not handed over yet (each is handed over once). */
export function conversationTurns(session: MediaSession, offsetMs: number): ConversationTurn[] {
  const all = session.phone.turns;
  const from = session.turnsHandedOver;
  session.turnsHandedOver = all.length;
  const agentDtmf = session.engine.events.filter((e) => e.kind === 'agent-dtmf');
  return all.slice(from).map((t) => {
    const startMs = offsetMs + t.startFrame * FRAME_MS;
    const endMs = offsetMs + t.endFrame * FRAME_MS;
    if (t.speaker === 'caller') return { speaker: 'caller', party: 0, text: t.text, startMs, endMs, detail: t.keys ? { dtmf: t.keys } : {} };
    const keys = agentDtmf.filter((e) => e.at >= t.startFrame && e.at < t.endFrame).map((e) => e.detail).join('');
    return { speaker: 'agent', party: 0, text: null, startMs, endMs, detail: keys ? { dtmf: keys } : {} };
  });
}
