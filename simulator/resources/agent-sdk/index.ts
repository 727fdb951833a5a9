// The Agent SDK family ("bring your own agent", docs/agent-sdk.md): the customer's own agent
// runtime holds a control WebSocket per number and opens a media WebSocket per call, on the HTTP
// port. Its model keeps live I/O only (connections, media sessions, the journal): nothing of it is
// in a snapshot, and a reset or restore closes its sockets (1012, service restart: the runtimes
// reconnect). Its calls are the calls family's, handled through the call-handler seam.
import type { Family } from '../family.ts';
import { header } from '../../core/operation.ts';
import { ApiError, errorBody } from '../../core/errors.ts';
import { tryNormalizePhone } from '../../core/phone.ts';
import { AgentSdkModel } from './model.ts';
import { SdkSpeech } from './speech.ts';
import { operations as control } from './control.ts';
import { sdkCallActions, sdkPhoneLines } from './calls-wiring.ts';

const bearerOf = (value: string | undefined): string | undefined => (value === undefined ? undefined : (/^Bearer[ ]+(\S+)\s*$/i.exec(value)?.[1] ?? ''));

/** The family's model with what a reset and a snapshot need (it keeps no state). */
export class AgentSdk extends AgentSdkModel {
  snapshot(): Record<string, never> {
    return {};
  }

  restore(): void {
    this.closeAll();
  }

  clear(): void {
    this.closeAll();
  }
}

export const agentSdk: Family<'agentSdk', AgentSdk> = {
  key: 'agentSdk',
  create: (rt) => {
    const speech = new SdkSpeech();
    rt.io.register(speech);
    const model = new AgentSdk({
      timers: {
        now: () => rt.clock.now(),
        schedule: (kind, due, callId) => rt.clock.schedule(`agentSdk.${kind}`, due, callId),
        cancel: (h) => rt.clock.cancel(h),
      },
      nowIso: () => rt.nowIso(),
      accountForKey: (key) => rt.accounts.accountForKey(key),
      normalise: (n) => {
        const r = tryNormalizePhone(n);
        return r.ok ? r.number : undefined;
      },
      ownsNumber: (accountId, number) => rt.numbers.ownerOf(number) === accountId,
      randomHex: (n) => rt.random.hex(n),
      events: {
        agentConnection: (type, accountId, number, at) =>
          rt.events.emit({ type, accountId, resourceId: number, at: rt.clock.now(), payload: { Event: type, AccountId: accountId, Number: number, Timestamp: at } }),
      },
      actions: () => sdkCallActions(rt),
      speech,
      phoneLines: (callId) => sdkPhoneLines(rt, callId),
      clock: () => (rt.clockDriver.mode.kind === 'realtime' ? { mode: 'realtime', speed: rt.clockDriver.mode.speed } : { mode: 'manual' }),
      // Following open media goes through the advancer: jobs wait for the I/O they started.
      advance: (ms) => void rt.advancer.advance((now) => now + ms),
      sync: () => rt.clockDriver.sync(),
      refuse: (status, code, message) => ({ status, headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify(errorBody(new ApiError(status, code, message))) }),
      onDefect: (e) => console.error('[simulator defect]', e),
    });
    rt.clock.on('agentSdk.stuck-media', (callId: string) => model.calls.stuck(callId));
    rt.clock.on('agentSdk.announce-end', (callId: string) => model.calls.announced(callId));
    return model;
  },
  control,
  capabilities: ['agent-sdk'],
  upgrades: [
    {
      path: '/v1/accounts/{accountId}/agent/listen',
      summary: 'The control socket of an agent runtime for one number',
      upgrade: (rt, req, params, query) => {
        const host = header(req, 'host') ?? '127.0.0.1';
        return rt.agentSdk.control(params.accountId!, query, bearerOf(header(req, 'authorization')), `ws://${host}`);
      },
    },
    {
      path: '/v1/agent/media/{callId}',
      summary: 'The media socket of one Agent SDK call',
      upgrade: (rt, req, params, query) => rt.agentSdk.media(params.callId!, query, bearerOf(header(req, 'authorization'))),
    },
  ],
};
