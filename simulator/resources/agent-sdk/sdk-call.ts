// One Agent SDK call as the family keeps it: where its control events go, where it stands
// (ringing, waiting for media, media open, transferred, ended), its media session, and the control
// events exchanged for it (the inspector's view). Live data: a call's media socket cannot outlive
// the process, so none of this is in the state snapshot; the call's record is the calls family's.
import type { ControlPeer } from './slots.ts';
import type { MediaSession } from './media-session.ts';
import type { HoldMedia } from './hold-media.ts';

export interface SdkCallInfo {
  callId: string;
  accountId: string;
  /** The agent's number: the called number (inbound) or `From` (outbound). */
  number: string;
  direction: 'inbound' | 'outbound';
  from: string;
  to: string;
  callerIdRestricted: boolean;
}

/** A stretch of a warm transfer's hold: what the caller heard, ms from the answer (open: until the call's end). */
export interface HoldSpan {
  fromMs: number;
  toMs: number | undefined;
  media: HoldMedia;
}

export type SdkCallPhase = 'ringing' | 'waiting-media' | 'media' | 'transferred' | 'ended';

export interface ControlEventEntry {
  /** Virtual ms. */
  at: number;
  way: 'sent' | 'received';
  event: string;
  detail?: string;
}

export class SdkCall {
  phase: SdkCallPhase = 'ringing';
  /** Virtual ms of the answer (the call's media clock starts here). */
  answeredAt: number | undefined;
  /** Virtual ms the media stream started, if it did. */
  mediaStartedAt: number | undefined;
  stuckTimer: number | undefined;
  session: MediaSession | undefined;
  accepted = false;
  /** The phone's lines are audio (the call is handed over only then). */
  speechReady = false;
  handOverPending = false;
  ended: { status: string; duration: number } | undefined;
  /** Virtual ms the call ended. */
  endedAt: number | undefined;
  endedSent = false;
  readonly reports = { telemetry: 0, metrics: 0 };
  readonly control: ControlEventEntry[] = [];
  /** Transfer requests, in order: the requestId echoed, how it was asked for (mode, after, hold, whisper) and how each went. */
  readonly transfers: { requestId: string | null; to: string; how: string; status: string }[] = [];
  /** What the platform said on the call (failure messages to the caller, whispers to a warm transfer's target), in ms from the answer. */
  readonly announcements: { atMs: number; text: string }[] = [];
  /** Warm transfers' holds, in order (warm-transfers.ts). */
  readonly holds: HoldSpan[] = [];
  /** The warm transfer whose caller is on hold now, and its bridge timer while the whisper is said. */
  warm: { to: string; whisper: string | null; hold: HoldSpan; bridgeTimer: number | undefined } | undefined;
  /** Wall-clock agent response latency per phone turn (ms), observational only. */
  readonly latencies: number[] = [];

  constructor(
    readonly info: SdkCallInfo,
    /** The connection the call was routed to (the slot's owner when it came or was placed). */
    public peer: ControlPeer | undefined,
  ) {}

  log(at: number, way: ControlEventEntry['way'], event: string, detail?: string): void {
    if (this.control.length < 1000) this.control.push({ at, way, event, ...(detail ? { detail } : {}) });
  }
}
