// The simulator SIPp meets in the SIPp test files: realtime clock ten times faster (as a PBX would
// meet it), a SIP listener on loopback offering MD5 (SIPp 3.6 answers only MD5 and reads only the
// topmost challenge: docs/decisions.md "SIP on the wire", Digest), a reset before each test.
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { harness } from './helpers.ts';
import type { SipListener } from '../index.ts';

/** Registers the hooks in the calling `describe`; `sip` reads the running listener's ports. */
export function sippHarness() {
  const h = harness({ clock: 'realtime:10' });
  let sip: SipListener | undefined;
  beforeAll(async () => {
    sip = await h.sim.listenSip(0, '127.0.0.1', { digest: ['MD5'] });
  });
  afterAll(async () => {
    await h.sim.close();
  });
  beforeEach(async () => {
    await h.sim.control.reset();
  });
  const ports = { get udp() { return sip!.udp; }, get rtp() { return sip!.rtp; } };
  return { h, sip: ports };
}
