// The platform's SIP server: registrar (and, with calls, the SIP side of calls) for SIP clients
// on the wire (simulator/sip-sockets.ts listens when asked). Behind its door: it needs SIP auth's
// logins (ports.ts), declares the job that expires a registration, and hands the runtime its
// bindings table as its snapshot part; a reset or restore also forgets the live transactions.
import { defineFamily } from '../family.ts';
import type { StatePart } from '../../core/table-state.ts';
import { tablesPart } from '../../core/table-state.ts';
import { SipServerModel } from './model.ts';
import { operations as control } from './control.ts';
import { mediaOperations } from './media-control.ts';
import { jobs, needs } from './ports.ts';
import { SipServerStateSchema } from './schema.ts';
import { SIP_WS_PATH } from './websocket.ts';
import type { SipServerScope } from './scope.ts';
import type { SipServerModelScope } from './ports.ts';
import { onFirstCall } from '../../core/first-use.ts';
import { callRecording } from './call-recording.ts';

const tables = tablesPart(SipServerStateSchema, (m: SipServerModel) => ({ bindings: m.bindings.rows }));

const state: StatePart<SipServerModel> = {
  ...tables,
  restore: (m, s) => {
    m.forgetTransactions();
    tables.restore(m, s);
  },
  clear: (m) => {
    m.forgetTransactions();
    tables.clear(m);
  },
};

/**
 * What the family registers with others before its model is built (decisions.md "Models built
 * on first use"), each reaching the model through `model()`, which builds it on first use: its
 * recordings' audio, its playout's clock watcher, the dialer of SIP URIs on the wire, the handler of its calls.
 */
function wire(scope: SipServerModelScope, model: () => SipServerModel, ifBuilt: () => SipServerModel | undefined): void {
  scope.clock.watch((now) => ifBuilt()?.playout.moved(now)); // in construction order among the clock's watchers, as when built with the runtime
  scope.recordings.provideAudio((callId) => {
    const m = model();
    return callRecording(m.media.heardOf(callId), m.playout.played(callId));
  });
  scope.calls.wireDialers.use(onFirstCall(() => model().dials, ['online', 'dial']));
  scope.calls.handled.handlers.register('sip', onFirstCall(() => model().handler, ['check', 'offer', 'ringing', 'answered', 'transferProgress', 'ended']));
}

export const sipServer = defineFamily({
  key: 'sipServer',
  needs,
  jobs,
  create: (scope) => new SipServerModel(scope),
  wire,
  state,
  control: [...control, ...mediaOperations],
  capabilities: ['sip-wire'],
  upgrades: [
    {
      path: SIP_WS_PATH,
      summary: 'SIP over WebSocket (RFC 7118, subprotocol sip) for browser phones',
      upgrade: (scope: SipServerScope, req) => scope.sipServer.websocket(req),
    },
  ],
});
