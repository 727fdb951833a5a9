// The steps every voice test repeats, over a harness: store a call flow, script how the phone
// network answers, place a call (by flow or VoiceML Url), read it, move the clock.
import type { FlowGraph } from '../resources/calls/flow-graph.ts';
import type { harness } from './helpers.ts';

type Harness = ReturnType<typeof harness>;

/** The demo account's first number: the caller of every placed call. */
export const VOICE_FROM = '070-1234-0001';

export function voiceSteps(h: Harness) {
  const flow = async (graph: FlowGraph, name = 'f'): Promise<string> => {
    const r = await h.call('POST', h.acme('/call-flows'), { name, graph });
    if (r.status !== 201) throw new Error(`flow refused: ${r.text}`);
    return r.json.callFlowId as string;
  };
  /** A carrier script for calls; answered (`delivered`) unless the body says otherwise. */
  const script = (body: Record<string, unknown>) => h.sim.control.request('POST', '/carrier/scripts', { types: ['call'], outcome: 'delivered', ...body });
  const placeWith = async (fields: Record<string, unknown>): Promise<string> => {
    const r = await h.call('POST', h.acme('/calls'), { From: VOICE_FROM, ...fields });
    if (r.status !== 201) throw new Error(`call refused: ${r.text}`);
    return r.json.callId as string;
  };
  const place = (to: string, flowId: string, extra: Record<string, unknown> = {}) => placeWith({ To: to, CallFlowId: flowId, ...extra });
  const placeVoiceMl = (to: string, url: string, extra: Record<string, unknown> = {}) => placeWith({ To: to, Url: url, ...extra });
  const get = async (id: string) => (await h.call('GET', h.acme(`/calls/${id}`))).json;
  const advance = (seconds: number) => h.sim.clock.advance({ seconds });
  return { flow, script, place, placeWith, placeVoiceMl, get, advance };
}
