// The Agent SDK family's pure units: control messages (hello, accept, session_failed, telemetry,
// metrics, transfer validation naming the field), the slot per number (last wins, agent.retired
// or 4409, role=retiring, connected/disconnected), one-time media tokens (30 s, once), and the
// control session over a socket (hello, refusals, handover, close).
import { describe, expect, it } from 'vitest';
import { parseControlMessage } from '../resources/agent-sdk/control-messages.ts';
import { ControlSlots, type ControlPeer } from '../resources/agent-sdk/slots.ts';
import { MediaTokens, MEDIA_TOKEN_TTL_MS } from '../resources/agent-sdk/media-tokens.ts';

describe('control messages', () => {
  it('reads hello, accept, session_failed, telemetry and metrics', () => {
    expect(parseControlMessage(JSON.stringify({ event: 'agent.hello', sdk: { name: 'clawops-python', version: '0.57.1', runtime: 'python/3.12.4', os: 'linux/x86_64', capabilities: ['retire', 7] } }))).toEqual({
      event: 'agent.hello',
      hello: { name: 'clawops-python', version: '0.57.1', runtime: 'python/3.12.4', os: 'linux/x86_64', capabilities: ['retire'] },
    });
    expect(parseControlMessage('{"event":"call.accept","callId":"CA1"}')).toEqual({ event: 'call.accept', callId: 'CA1' });
    expect(parseControlMessage('{"event":"call.session_failed","callId":"CA1","reason":"UnknownOutboundCall","message":"m"}')).toEqual({ event: 'call.session_failed', callId: 'CA1', reason: 'UnknownOutboundCall', message: 'm' });
    expect(parseControlMessage('{"event":"call.telemetry","callId":"CA1","telemetry":{}}')).toEqual({ event: 'call.telemetry', callId: 'CA1' });
    expect(parseControlMessage('{"event":"call.metrics","callId":"CA1","metrics":{}}')).toEqual({ event: 'call.metrics', callId: 'CA1' });
  });

  it('refuses malformed JSON, unknown events and messages without callId, with a reason', () => {
    expect(parseControlMessage('{')).toEqual({ event: 'refused', reason: 'not JSON' });
    expect(parseControlMessage('"x"')).toEqual({ event: 'refused', reason: 'not a JSON object' });
    expect(parseControlMessage('{"event":"call.reject","callId":"CA1"}')).toEqual({ event: 'refused', reason: 'unknown event "call.reject"' });
    expect(parseControlMessage('{"event":"call.accept"}')).toEqual({ event: 'refused', reason: 'call.accept needs a callId' });
  });

  it('fills a transfer with the runtime defaults and keeps every parameter', () => {
    const m = parseControlMessage(JSON.stringify({ event: 'call.transfer', callId: 'CA1', transfer: { to: '01012345678', whisper: null, context: { orderId: 7 }, callerId: null, requestId: 'abc', callerIdMode: 'account' } }));
    expect(m).toEqual({
      event: 'call.transfer',
      callId: 'CA1',
      transfer: { to: '01012345678', destinationType: 'pstn', mode: 'blind', afterTransfer: 'terminate', holdMedia: 'ringback', whisper: null, context: '{"orderId":7}', callerId: null, callerIdMode: null, timeout: 30, failureMessage: null, failureVoice: null, requestId: 'abc' },
    });
  });

  it('refuses a bad transfer naming the field, and keeps the requestId to answer it', () => {
    const cases: [Record<string, unknown>, string][] = [
      [{}, 'transfer.to'],
      [{ to: 'sip:bob@pbx.example' }, 'transfer.to'], // a SIP URI with destinationType pstn
      [{ to: '0101234', destinationType: 'sip' }, 'transfer.to'],
      [{ to: '0101234', destinationType: 'fax' }, 'transfer.destinationType'],
      [{ to: '0101234', mode: 'attended' }, 'transfer.mode'],
      [{ to: '0101234', afterTransfer: 'stay' }, 'transfer.afterTransfer'],
      [{ to: '0101234', holdMedia: 'music' }, 'transfer.holdMedia'],
      [{ to: '0101234', timeout: 2 }, 'transfer.timeout'],
      [{ to: '0101234', timeout: 30.5 }, 'transfer.timeout'],
      [{ to: '0101234', whisper: 5 }, 'transfer.whisper'],
      [{ to: '0101234', context: [1] }, 'transfer.context'],
      [{ to: '0101234', callerId: 'me' }, 'transfer.callerId'],
      [{ to: '0101234', failureMessage: 'x'.repeat(1001) }, 'transfer.failureMessage'],
    ];
    for (const [transfer, field] of cases) {
      const m = parseControlMessage(JSON.stringify({ event: 'call.transfer', callId: 'CA1', transfer: { ...transfer, requestId: 'r1' } }));
      expect(m).toMatchObject({ event: 'call.transfer.invalid', callId: 'CA1', requestId: 'r1', field });
    }
    expect(parseControlMessage('{"event":"call.transfer","callId":"CA1"}')).toMatchObject({ event: 'call.transfer.invalid', field: 'transfer' });
    expect(parseControlMessage(JSON.stringify({ event: 'call.transfer', callId: 'CA1', transfer: { to: 'sip:desk@pbx.example', destinationType: 'sip' } }))).toMatchObject({ event: 'call.transfer' });
  });
});

function peer(id: number, number = '07012340001', capabilities: string[] = []) {
  const sent: any[] = [];
  const closes: [number, string][] = [];
  const p: ControlPeer = {
    id,
    accountId: 'AC1',
    number,
    role: 'closed',
    hello: capabilities.length ? { name: 'n', version: 'v', runtime: 'r', os: 'o', capabilities } : undefined,
    openedAt: '2026-01-01T00:00:00Z',
    calls: new Set(),
    send: (e) => sent.push(e),
    close: (code, reason) => closes.push([code, reason]),
  };
  return { p, sent, closes };
}

function slots() {
  const log: string[] = [];
  const s = new ControlSlots({ connected: (p) => log.push(`connected ${p.id}`), disconnected: (p) => log.push(`disconnected ${p.id}`) });
  return { s, log };
}

describe('slots: one per number, last wins', () => {
  it('the first connection takes the slot and the number gains its agent; its close loses it', () => {
    const { s, log } = slots();
    const a = peer(1);
    s.open(a.p, false);
    expect(s.owner('AC1', '07012340001')).toBe(a.p);
    s.closed(a.p);
    expect(s.owner('AC1', '07012340001')).toBeUndefined();
    expect(log).toEqual(['connected 1', 'disconnected 1']);
  });

  it('a newer connection takes the slot: an old one without the retire capability is closed 4409; no webhook for a handover', () => {
    const { s, log } = slots();
    const a = peer(1);
    const b = peer(2);
    s.open(a.p, false);
    s.open(b.p, false);
    expect(s.owner('AC1', '07012340001')).toBe(b.p);
    expect(a.closes).toEqual([[4409, 'replaced']]);
    s.closed(a.p); // its close does not free b's slot
    expect(s.owner('AC1', '07012340001')).toBe(b.p);
    expect(log).toEqual(['connected 1']);
  });

  it('an old connection that declared retire gets agent.retired and stays open until its calls end', () => {
    const { s } = slots();
    const a = peer(1, '07012340001', ['retire']);
    a.p.calls.add('CA1');
    s.open(a.p, false);
    s.open(peer(2).p, false);
    expect(a.sent).toEqual([{ event: 'agent.retired', number: '07012340001', reason: 'replaced' }]);
    expect(a.closes).toEqual([]);
    s.callEnded(a.p, 'CA1');
    expect(a.closes).toEqual([[4409, 'replaced']]);
  });

  it('role=retiring never takes the slot nor evicts the owner', () => {
    const { s, log } = slots();
    const a = peer(1);
    const r = peer(2);
    s.open(a.p, false);
    s.open(r.p, true);
    expect(s.owner('AC1', '07012340001')).toBe(a.p);
    expect(a.closes).toEqual([]);
    s.closed(r.p);
    expect(log).toEqual(['connected 1']);
  });

  it('a number leaving the account closes its connections with 4403', () => {
    const { s } = slots();
    const a = peer(1);
    const other = peer(2, '07012340002');
    s.open(a.p, false);
    s.open(other.p, false);
    s.ownershipLost('AC1', '07012340001');
    expect(a.closes).toEqual([[4403, 'ownership lost']]);
    expect(other.closes).toEqual([]);
  });
});

describe('media tokens', () => {
  const hex = (() => {
    let n = 0;
    return (chars: number) => (++n).toString(16).padStart(chars, '0');
  })();

  it('are valid once, for their call, within 30 s', () => {
    const t = new MediaTokens();
    const a = t.issue('CA1', 'AC1', 1000, hex);
    expect(a).toMatch(/^[0-9a-f]{40}$/);
    expect(t.redeem(a, 'CA2', 1000)).toEqual({ ok: false, why: 'other-call' });
    expect(t.redeem(a, 'CA1', 1000 + MEDIA_TOKEN_TTL_MS)).toEqual({ ok: true, accountId: 'AC1' });
    expect(t.redeem(a, 'CA1', 1000)).toEqual({ ok: false, why: 'used' });
    const b = t.issue('CA1', 'AC1', 0, hex);
    expect(t.redeem(b, 'CA1', MEDIA_TOKEN_TTL_MS + 1)).toEqual({ ok: false, why: 'expired' });
    expect(t.redeem('nope', 'CA1', 0)).toEqual({ ok: false, why: 'unknown' });
    const c = t.issue('CA3', 'AC1', 0, hex);
    t.revoke('CA3');
    expect(t.redeem(c, 'CA3', 0)).toEqual({ ok: false, why: 'unknown' });
  });
});

describe('control session over a socket', () => {
  async function setup() {
    const { controlSession } = await import('../resources/agent-sdk/control-session.ts');
    const { Heartbeat } = await import('../resources/agent-sdk/heartbeat.ts');
    const log: string[] = [];
    const slots = new ControlSlots({ connected: (p) => log.push(`connected ${p.id}`), disconnected: (p) => log.push(`disconnected ${p.id}`) });
    const heartbeat = new Heartbeat(60_000);
    const warnings: string[] = [];
    const mine = new Set(['CA1']);
    const calls = {
      accept: (_p: ControlPeer, id: string) => (mine.has(id) ? ('ok' as const) : ('not-yours' as const)),
      sessionFailed: () => 'ok' as const,
      transfer: () => 'ok' as const,
      transferRefused: (_p: ControlPeer, id: string, _r: string | null, field: string) => (log.push(`transfer refused ${id} ${field}`), 'ok' as const),
      report: () => 'ok' as const,
    };
    const open = (id: number, retiring = false) => {
      const sent: any[] = [];
      const closes: [number, string][] = [];
      const socket = { send: (t: string) => sent.push(JSON.parse(t)), close: (c: number, r: string) => closes.push([c, r]), ping: () => {}, open: true, buffered: 0 };
      const session = controlSession(socket, { id, accountId: 'AC1', number: '070', openedAt: 'now' }, retiring, { slots, heartbeat, calls, journal: { warn: (_p, m) => warnings.push(m) }, gone: () => log.push(`gone ${id}`) });
      return { session, sent, closes };
    };
    return { open, slots, log, warnings, heartbeat };
  }

  it('records the hello, refuses calls that are not its own with an error event, ignores bad JSON with a warning', async () => {
    const { open, slots, warnings, heartbeat } = await setup();
    const a = open(1);
    a.session.message(JSON.stringify({ event: 'agent.hello', sdk: { name: 'clawops-node', version: '0.45.0', capabilities: ['retire'] } }), false);
    expect(slots.owner('AC1', '070')!.hello).toMatchObject({ name: 'clawops-node', capabilities: ['retire'] });
    a.session.message('{"event":"call.accept","callId":"CA9"}', false);
    expect(a.sent).toEqual([{ event: 'error', code: 'CALL_NOT_FOUND', message: 'call CA9 is not a call of this connection', callId: 'CA9' }]);
    a.session.message('{oops', false);
    a.session.message('{"event":"call.dance","callId":"CA1"}', false);
    a.session.message('x', true);
    expect(warnings).toEqual([expect.stringContaining('CA9'), 'control message ignored: not JSON', 'control message ignored: unknown event "call.dance"', expect.stringContaining('binary')]);
    heartbeat.stop();
  });

  it('hands a bad transfer to the call handler with the field; a handover retires the old session; closing frees the slot', async () => {
    const { open, slots, log, heartbeat } = await setup();
    const a = open(1);
    a.session.message(JSON.stringify({ event: 'call.transfer', callId: 'CA1', transfer: { to: 'nowhere' } }), false);
    const b = open(2);
    expect(a.closes).toEqual([[4409, 'replaced']]);
    a.session.closed(4409, 'replaced');
    expect(slots.owner('AC1', '070')!.id).toBe(2);
    b.session.closed(1000, '');
    expect(slots.owner('AC1', '070')).toBeUndefined();
    expect(log).toEqual(['connected 1', 'transfer refused CA1 transfer.to', 'gone 1', 'disconnected 2', 'gone 2']);
    heartbeat.stop();
  });
});
