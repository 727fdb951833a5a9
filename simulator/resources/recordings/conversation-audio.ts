// The whole-call recording of a call that has a conversation of text turns (a managed agent's
// call, docs/agents.md "The conversation"): each turn with text is spoken by the speech peer at
// its place on the call's timeline (the agent, the phone, a warm transfer's whisper), fitted into
// the turn's slot (spoken faster, else cut) so the file and the transcript's times agree; keys the
// phone pressed are DTMF tones; the rest is silence. Rendered only when downloaded, from the
// turns alone, so the same conversation always gives the same bytes and a call that is never
// downloaded never pays for synthesis (the peer caches each distinct line).
import type { Turn } from '../calls/conversation.ts';
import { decode } from '../../peers/speech/mulaw.ts';
import { MAX_TEXT_CHARS, type Synthesizer } from '../../peers/speech/synthesizer.ts';
import { pcmWav, WAV_RATE } from '../../peers/speech/wav.ts';

/** DTMF (ITU-T Q.23): the row and column frequencies of each key. */
const DTMF: Record<string, [number, number]> = {
  '1': [697, 1209], '2': [697, 1336], '3': [697, 1477], A: [697, 1633],
  '4': [770, 1209], '5': [770, 1336], '6': [770, 1477], B: [770, 1633],
  '7': [852, 1209], '8': [852, 1336], '9': [852, 1477], C: [852, 1633],
  '*': [941, 1209], '0': [941, 1336], '#': [941, 1477], D: [941, 1633],
};
/** Longest tone per key; a key gets at most half of its share of the turn's slot. */
const KEY_TONE_MS = 120;
const TONE_AMPLITUDE = 6000; // per frequency, well under full scale when both add

const samplesAt = (ms: number) => Math.round((ms * WAV_RATE) / 1000);

/** The turn's keys as tones, evenly spread over its slot. */
function addKeys(mix: Int32Array, keys: string, fromMs: number, toMs: number): void {
  const list = [...keys].filter((k) => DTMF[k.toUpperCase()] !== undefined);
  if (list.length === 0) return;
  const share = (toMs - fromMs) / list.length;
  const toneSamples = samplesAt(Math.min(KEY_TONE_MS, share / 2));
  list.forEach((k, i) => {
    const [low, high] = DTMF[k.toUpperCase()]!;
    const start = samplesAt(fromMs + i * share);
    for (let n = 0; n < toneSamples && start + n < mix.length; n++) {
      const t = n / WAV_RATE;
      mix[start + n]! += Math.round(TONE_AMPLITUDE * (Math.sin(2 * Math.PI * low * t) + Math.sin(2 * Math.PI * high * t)));
    }
  });
}

/** Whether the conversation has anything to hear (else the caller's usual recording applies). */
export function audibleTurns(turns: readonly Turn[]): boolean {
  return turns.some((t) => (t.text !== null && t.text !== '') || (t.detail.dtmf ?? '') !== '');
}

/** A text cut into utterances the peer takes (at most MAX_TEXT_CHARS each), with the share of the slot each gets. */
function pieces(text: string): { text: string; share: number }[] {
  const chars = [...text];
  if (chars.length <= MAX_TEXT_CHARS) return [{ text, share: 1 }];
  const out: { text: string; share: number }[] = [];
  for (let i = 0; i < chars.length; i += MAX_TEXT_CHARS) {
    const part = chars.slice(i, i + MAX_TEXT_CHARS);
    out.push({ text: part.join(''), share: part.length / chars.length });
  }
  return out;
}

/** The WAV file of `seconds` of the call: its turns spoken on the timeline, mixed and clipped. */
export function conversationWav(turns: readonly Turn[], seconds: number, synth: Synthesizer): Buffer {
  const mix = new Int32Array(seconds * WAV_RATE);
  for (const turn of turns) {
    const slotMs = turn.endMs - turn.startMs;
    if (turn.text !== null && turn.text !== '') {
      let fromMs = turn.startMs;
      for (const piece of pieces(turn.text)) {
        const pieceMs = slotMs * piece.share;
        const at = samplesAt(fromMs);
        fromMs += pieceMs;
        if (at >= mix.length || pieceMs <= 0 || piece.text.trim() === '') continue;
        const pcm = decode(synth.speakWithin(piece.text, pieceMs).audio);
        for (let i = 0; i < pcm.length && at + i < mix.length; i++) mix[at + i]! += pcm[i]!;
      }
    } else if (turn.detail.dtmf) addKeys(mix, turn.detail.dtmf, turn.startMs, turn.endMs);
  }
  const out = new Int16Array(mix.length);
  for (let i = 0; i < mix.length; i++) out[i] = Math.max(-32768, Math.min(32767, mix[i]!));
  return pcmWav(out);
}
