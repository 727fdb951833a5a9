// The SIP tests' common setup: a simulator with its SIP listener on a free loopback port and a
// UDP test client, both stopped after the file; the state reset before each test; and a SIP
// credential of ACME created through the API.
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { harness } from './helpers.ts';
import { SipTestClient } from './sip-client.ts';
import type { SimulatorOptions, SipListener } from '../index.ts';

export const PASSWORD = 'correct horse battery';

export function sipListening(options: SimulatorOptions = {}) {
  const h = harness(options);
  const state = { sip: undefined as unknown as SipListener, udp: undefined as unknown as SipTestClient };
  beforeAll(async () => {
    state.sip = await h.sim.listenSip(0);
    state.udp = await SipTestClient.udp(state.sip.udp);
  });
  afterAll(async () => {
    state.udp.close();
    await h.sim.close();
  });
  beforeEach(async () => {
    await h.sim.control.reset();
  });
  /** A SIP credential of ACME (username desk_01, the password above unless given). */
  const credential = async (body: Record<string, unknown> = {}) => {
    const r = await h.call('POST', h.acme('/sip-credentials'), { name: 'desk phone', username: 'desk_01', password: PASSWORD, ...body });
    expect(r.status, r.text).toBe(201);
    return r.json;
  };
  return { h, state, credential };
}
