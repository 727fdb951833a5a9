// The official agent runtime (`ClawOpsAgent`) as the project's tests need it, from the reference's
// fact sheet (§2.2-2.3, §4, §6): one control connection for its number, calls routed to it, media
// opened per call. The [S] behaviours it keeps:
//   - `call.accept` at once on `call.incoming`, before the media socket; `call.telemetry` after the
//     session starts and before media (Python); `call.metrics` after media ended.
//   - A session that cannot start sends `call.session_failed {callId, reason, message}` instead
//     of connecting media; an empty `mediaUrl` starts nothing.
//   - `call()`: POST /v1/accounts/{id}/calls with exactly {To, From, Timeout} (+MachineDetection
//     when set); anything but HTTP 201 with a callId is an error carrying the body's error/code.
//   - `call.outbound_ready` for a callId it did not create: Python answers `call.session_failed`
//     with reason `UnknownOutboundCall`; Node adopts the call.
//   - `call.ended` without status reads as `completed`.
//   - `transfer()`: `call.transfer` with every parameter (Python sends the nulls) and a
//     `requestId` (Python ≥0.43; Node none); the result is the `transfer` object of
//     `call.transfer.completed`/`failed`, matched by requestId, else by callId when one is pending.
import { randomUUID } from 'node:crypto';
import { ControlConnection, type ControlOptions, type Flavour } from './control.ts';
import { MediaConnection } from './media.ts';

export interface CallEnd {
  status: string;
  duration: unknown;
}

export class AgentCall {
  media: MediaConnection | undefined;
  ringing = false;
  /** Control events about this call, in order. */
  readonly events: Record<string, unknown>[] = [];
  readonly ended: Promise<CallEnd>;
  end: CallEnd | undefined;
  /** Whether the media socket was still open when call.ended arrived (the platform closes media first). */
  mediaOpenAtEnd: boolean | undefined;
  resolveEnded!: (e: CallEnd) => void;

  constructor(
    readonly callId: string,
    readonly direction: 'inbound' | 'outbound',
    public from: string,
    public to: string,
    public callerIdRestricted: boolean | undefined = undefined,
  ) {
    this.ended = new Promise((r) => (this.resolveEnded = r));
  }
}

export class CallRefused extends Error {
  constructor(
    readonly status: number,
    readonly body: { error?: string; code?: string } | undefined,
  ) {
    super(`createCall answered ${status}: ${body?.code ?? ''} ${body?.error ?? ''}`);
  }
}

export interface TransferRequest {
  to: string;
  destinationType?: 'pstn' | 'sip';
  mode?: 'blind' | 'warm';
  afterTransfer?: 'terminate' | 'return';
  holdMedia?: 'ringback' | 'moh' | 'silence';
  whisper?: string | null;
  context?: Record<string, unknown> | null;
  callerId?: string | null;
  timeout?: number;
  callerIdMode?: 'account' | 'original';
  failureMessage?: string;
  failureVoice?: string;
}

export interface AgentOptions extends ControlOptions {
  /** Called with each call once its media is open (or at once when media is not opened). */
  onCall?: (call: AgentCall) => void | Promise<void>;
  /** When it returns a reason, the session "fails to start": call.session_failed instead of media. */
  sessionFails?: (callId: string) => { reason: string; message: string } | undefined;
  /** Wall ms between accept and the media connect (Python starts the AI session first). */
  mediaDelayMs?: number;
}

export class FaithfulAgent {
  readonly control: ControlConnection;
  readonly calls = new Map<string, AgentCall>();
  private readonly originated = new Set<string>();
  private readonly pendingTransfers = new Map<string, { callId: string; resolve: (r: Record<string, unknown>) => void }>();
  private readonly callWaiters: ((c: AgentCall) => void)[] = [];
  private readonly callQueue: AgentCall[] = [];
  private readonly flavour: Flavour;

  constructor(private readonly o: AgentOptions) {
    this.flavour = o.flavour ?? 'python';
    this.control = new ControlConnection(o);
    this.control.onEvent((m) => this.onEvent(m));
  }

  connect(): Promise<void> {
    return this.control.connect();
  }

  close(): Promise<void> {
    for (const c of this.calls.values()) if (c.media?.open) c.media.drop();
    return this.control.close();
  }

  /** The next call handed to this agent (inbound, or outbound once answered). */
  nextCall(timeoutMs = 10_000): Promise<AgentCall> {
    const queued = this.callQueue.shift();
    if (queued) return Promise.resolve(queued);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no call within ${timeoutMs} ms`)), timeoutMs);
      this.callWaiters.push((c) => {
        clearTimeout(timer);
        resolve(c);
      });
    });
  }

  /** agent.call(): ensures the control socket, then createCall; the 201's callId names the call. */
  async call(to: string, opts: { timeout?: number; machineDetection?: 'Enable' | 'Hangup' } = {}): Promise<AgentCall> {
    if (!this.control.open) await this.connect();
    const body: Record<string, unknown> = { To: to, From: this.o.number, Timeout: opts.timeout ?? 60 };
    if (opts.machineDetection) body.MachineDetection = opts.machineDetection;
    const res = await fetch(`${this.o.baseUrl}/v1/accounts/${this.o.accountId}/calls`, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.o.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    let json: Record<string, unknown> | undefined;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    if (res.status !== 201 || typeof json?.callId !== 'string') throw new CallRefused(res.status, json as { error?: string; code?: string });
    const call = new AgentCall(json.callId, 'outbound', this.o.number, to);
    this.originated.add(call.callId);
    this.calls.set(call.callId, call);
    return call;
  }

  /** Records a call this process placed by another path than call() (what call() does after its 201). */
  placed(callId: string, to: string): AgentCall {
    const call = new AgentCall(callId, 'outbound', this.o.number, to);
    this.originated.add(callId);
    this.calls.set(callId, call);
    return call;
  }

  /** call.transfer; resolves with the terminal event's `transfer` object. */
  transfer(callId: string, t: TransferRequest, timeoutMs = 10_000): Promise<Record<string, unknown>> {
    const requestId = randomUUID().replace(/-/g, '');
    const transfer: Record<string, unknown> = {
      to: t.to,
      destinationType: t.destinationType ?? 'pstn',
      mode: t.mode ?? 'blind',
      afterTransfer: t.afterTransfer ?? 'terminate',
      holdMedia: t.holdMedia ?? 'ringback',
      whisper: t.whisper ?? null,
      context: t.context ?? null,
      callerId: t.callerId ?? null,
      timeout: t.timeout ?? 30,
    };
    if (t.callerIdMode) transfer.callerIdMode = t.callerIdMode;
    if (t.failureMessage) transfer.failureMessage = t.failureMessage;
    if (t.failureVoice) transfer.failureVoice = t.failureVoice;
    if (this.flavour === 'python') transfer.requestId = requestId;
    const key = this.flavour === 'python' ? requestId : callId;
    return new Promise((resolve, reject) => {
      if (!this.control.send({ event: 'call.transfer', callId, transfer })) return reject(new Error('the control socket is closed: the transfer fails locally'));
      const timer = setTimeout(() => reject(new Error(`no transfer result within ${timeoutMs} ms`)), timeoutMs);
      this.pendingTransfers.set(key, {
        callId,
        resolve: (r) => {
          clearTimeout(timer);
          resolve(r);
        },
      });
    });
  }

  private onEvent(m: Record<string, unknown>): void {
    const callId = typeof m.callId === 'string' ? m.callId : undefined;
    const call = callId ? this.calls.get(callId) : undefined;
    call?.events.push(m);
    switch (m.event) {
      case 'call.incoming': {
        const c = new AgentCall(callId!, 'inbound', String(m.from ?? ''), this.o.number, m.callerIdRestricted as boolean | undefined);
        c.events.push(m);
        this.calls.set(c.callId, c);
        this.control.send({ event: 'call.accept', callId: c.callId });
        void this.startSession(c, String(m.mediaUrl ?? ''));
        return;
      }
      case 'call.ringing':
        if (call) call.ringing = true;
        return;
      case 'call.outbound_ready': {
        if (!call || !this.originated.has(call.callId)) {
          if (this.flavour === 'python') {
            this.control.send({ event: 'call.session_failed', callId, reason: 'UnknownOutboundCall', message: `call ${callId} was not placed by this process` });
            return;
          }
          const adopted = new AgentCall(callId!, 'outbound', String(m.from ?? ''), String(m.to ?? ''));
          adopted.events.push(m);
          this.calls.set(adopted.callId, adopted);
          void this.startSession(adopted, String(m.mediaUrl ?? ''));
          return;
        }
        call.to = String(m.to ?? call.to);
        void this.startSession(call, String(m.mediaUrl ?? ''));
        return;
      }
      case 'call.ended':
        // The runtime waits for call.ended after its media closed: note whether it still was open.
        if (call) call.mediaOpenAtEnd = call.media?.open ?? false;
        if (call && !call.end) {
          call.end = { status: typeof m.status === 'string' ? m.status : 'completed', duration: m.duration };
          call.resolveEnded(call.end);
        }
        return;
      case 'call.transfer.completed':
      case 'call.transfer.failed': {
        const byRequest = typeof m.requestId === 'string' ? this.pendingTransfers.get(m.requestId) : undefined;
        let key = byRequest ? (m.requestId as string) : undefined;
        if (!key) {
          const forCall = [...this.pendingTransfers].filter(([, p]) => p.callId === callId);
          if (forCall.length === 1) key = forCall[0]![0];
        }
        if (!key) return;
        const p = this.pendingTransfers.get(key)!;
        this.pendingTransfers.delete(key);
        p.resolve((m.transfer as Record<string, unknown>) ?? {});
        return;
      }
      default:
        return;
    }
  }

  private async startSession(call: AgentCall, mediaUrl: string): Promise<void> {
    const failure = this.o.sessionFails?.(call.callId);
    if (failure) {
      this.control.send({ event: 'call.session_failed', callId: call.callId, ...failure });
      return;
    }
    if (this.flavour === 'python') this.control.send({ event: 'call.telemetry', callId: call.callId, telemetry: { sessionType: 'pipeline', llm: null, stt: null, tts: null, voice: null, language: 'ko', greetingEnabled: true, recordingEnabled: false, toolCount: 0, mcpServerCount: 0, builtinTools: ['hang_up', 'collect_dtmf', 'send_dtmf', 'transfer_call'] } });
    if (this.o.mediaDelayMs) await new Promise((r) => setTimeout(r, this.o.mediaDelayMs));
    if (mediaUrl === '') return; // Node starts nothing; Python's connect fails and it ends its side quietly
    const media = new MediaConnection(mediaUrl, this.o.apiKey, this.flavour);
    call.media = media;
    try {
      await media.opened();
    } catch {
      return;
    }
    const waiter = this.callWaiters.shift();
    if (waiter) waiter(call);
    else this.callQueue.push(call);
    void media.closed.then(() => {
      if (this.flavour === 'python') this.control.send({ event: 'call.metrics', callId: call.callId, metrics: { firstResponseMs: 0, turnCount: 0, toolCallCount: 0, toolErrorCount: 0, bargeInCount: 0, endReason: 'user_hangup', errors: [] } });
    });
    await this.o.onCall?.(call);
  }
}
