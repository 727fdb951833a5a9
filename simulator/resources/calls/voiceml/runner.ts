// Runs the VoiceML walker (walker.ts) for the calls model: turns its document requests into
// signed form requests (the webhook family's request builder and X-Signature, the number's
// webhookMethod and webhookHeaders) that the model sends through the flow HTTP client and so
// through the shared egress policy, checks each URL against that policy first (a refused URL
// ends the call with app_error without any request), sends `<Number statusCallback>` /
// `<Sip statusCallback>` notifications through the webhook engine, and keeps the call's walk
// trace. The remaining effects (say, listen, record, dial...) are the call-flow effects the
// model already performs.
import type { DomainEvent } from '../../../core/events.ts';
import type { Target } from '../../../peers/webhooks/schema.ts';
import { buildRequest } from '../../../peers/webhooks/request.ts';
import type { Effect, WalkInput } from '../interpreter.ts';
import { recordStep, type WalkTrace } from '../walk-trace.ts';
import { platformSide, type Ending } from '../endings.ts';
import type { CallRow, HangupSource } from '../schema.ts';
import { callRequestFields } from '../request-fields.ts';
import { voiceStep, type VoiceEnd, type VoiceInput, type VoiceMlState } from './walker.ts';

export interface VoiceMlPorts {
  /** The account's webhook signing key (the webhook engine's). */
  signingKey(accountId: string): string;
  /** Why the egress policy refuses the URL before connecting, or undefined. */
  refusal(url: string): string | undefined;
  /** Queues one notification for one URL (the webhook engine). */
  deliver(event: DomainEvent, target: Target): void;
  nowMs(): number;
  nowIso(): string;
}

/** How the model ends the call. */
export interface VoiceMlEnding {
  ending: Ending;
  source: HangupSource;
  cause?: string;
}

export interface VoiceMlOutcome {
  state: VoiceMlState;
  /** For the model to perform, in order. */
  effects: Exclude<Effect, { type: 'end' }>[];
  trace: WalkTrace | null;
  end: VoiceMlEnding | null;
}

export const DIAL_CALLBACK_EVENT = 'call.dial.status';

export class VoiceMlRunner {
  constructor(private readonly ports: VoiceMlPorts) {}

  /** One step of the call's walk (several when a URL is refused before any request). */
  step(row: CallRow, input: VoiceInput): VoiceMlOutcome {
    let state = row.voiceml!;
    let trace = row.trace;
    const effects: Exclude<Effect, { type: 'end' }>[] = [];
    const fields: [string, string][] = [...callRequestFields(row), ['CallStatus', row.status]];
    let next: VoiceInput | null = input;
    let end: VoiceEnd | null = null;
    while (next !== null) {
      const r = voiceStep(state, next, { fields, nowMs: this.ports.nowMs() });
      const current: VoiceInput = next;
      next = null;
      state = r.state;
      end = r.end;
      const shown: Effect[] = [];
      for (const e of r.effects) {
        if (e.type === 'dialCallback') {
          this.ports.deliver(
            { type: DIAL_CALLBACK_EVENT, accountId: row.accountId, resourceId: row.id, at: this.ports.nowMs(), payload: Object.fromEntries(e.fields) },
            { kind: 'url', url: e.url, method: e.method, headers: {} },
          );
          continue;
        }
        if (e.type !== 'fetch') {
          shown.push(e);
          effects.push(e);
          continue;
        }
        const req = buildRequest({ url: e.url, method: e.method, fields: e.fields, headers: state.headers, signingKey: this.ports.signingKey(row.accountId) });
        const http = { type: 'http' as const, blockId: e.blockId, method: req.method, url: req.url, headers: req.headers, body: req.method === 'GET' ? null : req.body };
        shown.push(http);
        const refused = this.ports.refusal(req.url);
        if (refused === undefined) effects.push(http);
        else next = { kind: 'refused', reason: `${req.url} is refused by the egress policy: ${refused}` };
      }
      const traced: WalkInput = current.kind === 'refused' ? { kind: 'http', status: null, body: null } : current;
      if (trace) trace = recordStep(trace, r.trace, shown, traced, this.ports.nowIso());
    }
    if (end?.kind === 'error' && trace) trace = withError(trace, end.reason);
    return { state, effects, trace, end: end === null ? null : this.ending(row, end) };
  }

  private ending(row: CallRow, end: VoiceEnd): VoiceMlEnding {
    // An inbound call still ringing (its app has not used the line): never answered.
    if (row.status === 'ringing') {
      if (end.kind === 'error') return { ending: 'failed', source: 'app', cause: 'app_error' };
      return { ending: end.kind === 'reject' && end.busy ? 'busy' : 'rejected', source: 'app' };
    }
    switch (end.kind) {
      case 'hangup':
        return { ending: 'normal', source: platformSide(row.direction) };
      case 'reject':
        return { ending: end.busy ? 'busy' : 'rejected', source: 'app' };
      case 'error':
        return { ending: 'normal', source: 'app', cause: 'app_error' };
    }
  }
}

/** The reason of an application error, on the last step of the trace (where the walk stopped). */
function withError(trace: WalkTrace, reason: string): WalkTrace {
  const last = trace.steps.at(-1);
  if (!last) return trace;
  const result = last.result === null ? `app_error: ${reason}` : last.result.includes(reason) ? last.result : `${last.result}; app_error: ${reason}`;
  return { ...trace, steps: [...trace.steps.slice(0, -1), { ...last, result }] };
}
