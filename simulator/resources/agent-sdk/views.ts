// What the control plane and the inspector show of the Agent SDK (docs/agent-sdk.md "Seeing what
// happened"): the open control connections, and one SDK call's control events, media statistics,
// the agent's hello, transfer requests and the agent's response latency per turn (wall time,
// observational). Plain JSON views of live data.
import type { Hello } from './control-messages.ts';
import type { SdkCall } from './sdk-call.ts';
import type { ControlPeer } from './slots.ts';
import type { MediaStats } from './media/engine.ts';

export interface ConnectionView {
  id: number;
  accountId: string;
  number: string;
  role: ControlPeer['role'];
  openedAt: string;
  hello: Hello | null;
  calls: string[];
}

export function connectionView(p: ControlPeer): ConnectionView {
  return { id: p.id, accountId: p.accountId, number: p.number, role: p.role, openedAt: p.openedAt, hello: p.hello ?? null, calls: [...p.calls].sort() };
}

export interface SdkCallView {
  callId: string;
  accountId: string;
  number: string;
  direction: 'inbound' | 'outbound';
  phase: SdkCall['phase'];
  connection: ConnectionView | null;
  /** Control events in order, times as virtual ISO instants. */
  control: { at: string; way: 'sent' | 'received'; event: string; detail: string | null }[];
  /** The stream's counters (frames each way, marks, clears, DTMF, refusals), frames skipped for a slow reader, and its length. */
  media: null | (MediaStats & { streamId: string; framesSkipped: number; seconds: number });
  reports: { telemetry: number; metrics: number };
  transfers: { requestId: string | null; to: string; how: string; status: string }[];
  /** Per phone turn the agent answered with audio: wall ms from the end of the phone's speech. */
  responseLatencyMs: number[];
}

export function sdkCallView(call: SdkCall, iso: (ms: number) => string): SdkCallView {
  const s = call.session;
  return {
    callId: call.info.callId,
    accountId: call.info.accountId,
    number: call.info.number,
    direction: call.info.direction,
    phase: call.phase,
    connection: call.peer ? connectionView(call.peer) : null,
    control: call.control.map((c) => ({ at: iso(c.at), way: c.way, event: c.event, detail: c.detail ?? null })),
    media: s
      ? { streamId: s.ids.streamId, ...s.engine.stats, framesSkipped: s.skipped, seconds: (s.engine.position * 20) / 1000 }
      : null,
    reports: { ...call.reports },
    transfers: call.transfers.map((t) => ({ ...t })),
    responseLatencyMs: s ? [...s.latency.samples] : [],
  };
}
