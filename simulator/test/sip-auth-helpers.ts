// Shared by the SIP IP ACL and SIP credential tests: the state as text, ACME's realm, and
// creators that expect 201.
import { expect } from 'vitest';
import { harness } from './helpers.ts';

export type H = ReturnType<typeof harness>;

export const state = (h: H) => JSON.stringify(h.sim.snapshot());
export const REALM = 'ac1a2b3c4d.sip.claw-ops.com';

export async function acl(h: H, body: Record<string, unknown> = { name: 'office', cidrs: ['203.0.113.0/24'] }) {
  const r = await h.call('POST', h.acme('/sip-ip-acls'), body);
  expect(r.status, r.text).toBe(201);
  return r.json;
}

export async function credential(h: H, body: Record<string, unknown> = {}) {
  const r = await h.call('POST', h.acme('/sip-credentials'), { name: 'desk phone', username: 'desk_01', ...body });
  expect(r.status, r.text).toBe(201);
  return r.json;
}
