// The Agent SDK model as the family builds it from its scope (ports.ts): the ports of model.ts
// filled from the scope (accounts, numbers, the live clock, typed events and jobs, the seeded
// random), the speech peer on the I/O barrier, the call handler's actions from the calls family.
// It keeps no state: its snapshot part is empty, and a reset or restore closes its sockets
// (1012, service restart: the runtimes reconnect).
import { Type } from '@sinclair/typebox';
import { ApiError, errorBody } from '../../core/errors.ts';
import { iso } from '../../core/clock.ts';
import { tryNormalizePhone } from '../../core/phone.ts';
import type { StatePart } from '../../core/table-state.ts';
import { AgentSdkModel } from './model.ts';
import { SdkSpeech } from './speech.ts';
import { sdkCallActions, sdkCallHandler } from './calls-wiring.ts';
import type { AgentSdkModelScope } from './ports.ts';
import { onFirstCall } from '../../core/first-use.ts';
import type { CallHandler } from '../calls/handlers.ts';

export class AgentSdk extends AgentSdkModel {
  constructor(scope: AgentSdkModelScope) {
    const speech = new SdkSpeech(scope.io);
    scope.io.register(speech);
    const live = scope.liveClock;
    const actions = sdkCallActions(scope.calls);
    super({
      timers: {
        now: () => scope.clock.now(),
        schedule: (kind, due, callId) => scope.jobs.schedule(`agentSdk.${kind}`, due, { callId }),
        cancel: (h) => scope.jobs.cancel(h),
      },
      nowIso: () => scope.clock.nowIso(),
      accountForKey: (key) => scope.accounts.accountForKey(key),
      normalise: (n) => {
        const r = tryNormalizePhone(n);
        return r.ok ? r.number : undefined;
      },
      ownsNumber: (accountId, number) => scope.numbers.ownerOf(number) === accountId,
      randomHex: (n) => scope.random.hex(n),
      events: {
        agentConnection: (type, accountId, number, at) =>
          scope.events.emit(type, { accountId, resourceId: number, payload: { Event: type, AccountId: accountId, Number: number, Timestamp: at } }),
      },
      actions: () => actions,
      speech,
      phoneLines: (callId) => scope.calls.handled.phoneSays(callId),
      clock: () => {
        const m = live.mode();
        return m.kind === 'realtime' ? { mode: 'realtime', speed: m.speed } : { mode: 'manual' };
      },
      advance: (ms) => live.advanceBy(ms),
      sync: () => live.sync(),
      refuse: (status, code, message) => ({ status, headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify(errorBody(new ApiError(status, code, message))) }),
      onDefect: (e) => live.defect(e),
    });
    this.pacer.gate = { wake: (due) => scope.io.effect('agentSdk.pacer', String(due)), replaying: () => scope.io.replaying };
    this.handler = sdkCallHandler(this.calls, () => scope.calls.handled);
    scope.jobs.on('agentSdk.stuck-media', (p) => this.calls.stuck(p.callId));
    scope.jobs.on('agentSdk.announce-end', (p) => this.calls.announced(p.callId));
    scope.jobs.on('agentSdk.warm-bridge', (p) => this.calls.bridged(p.callId));
  }

  /** The handler of SDK calls, which `wireAgentSdk` registered with the calls family. */
  readonly handler: CallHandler;

  /** ISO time of a virtual instant (views). */
  iso(ms: number): string {
    return iso(ms);
  }
}

/**
 * What the family registers with others before its model is built (decisions.md "Models built
 * on first use"), each reaching the model through `model()`, which builds it on first use.
 */
export function wireAgentSdk(scope: AgentSdkModelScope, model: () => AgentSdk): void {
  // A pacer wake is a change the wall clock makes: through the I/O barrier, so a durable state dir journals and replays it.
  scope.io.defineEffect('agentSdk.pacer', (due) => model().pacer.play(Number(due)));
  scope.numbers.onReleased((accountId, number) => model().numberReleased(accountId, number));
  scope.calls.handled.handlers.register('sdk', onFirstCall(() => model().handler, ['check', 'claims', 'ringing', 'answered', 'transferProgress', 'ending', 'ended']));
  scope.recordings.provideAudio((callId) => model().calls.recording(callId));
}

/**
 * No state: an empty part, whose restore and clear close the live sockets (a rollback, putting
 * back the state of a moment ago in the same operation, leaves them open: nothing they stand on
 * changed). Its calls in progress are live work a snapshot cannot hold, so the control plane
 * refuses one meanwhile.
 */
export const agentSdkState: StatePart<AgentSdk> = {
  schema: Type.Object({}, { additionalProperties: false }),
  snapshot: () => ({}),
  restore: (m, _state, how) => {
    if (how !== 'rollback') m.closeAll();
  },
  clear: (m) => m.closeAll(),
  live: (m) => m.liveCalls(),
};
