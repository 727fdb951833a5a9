// Shared by the email-domain tests: the simulator of the current test (`h`, replaced before
// each test by useHarness), API calls checked against the documented schemas and error codes,
// and the fake DNS and clock driven through the control plane.
import { expect } from 'vitest';
import { ACME, harness, type CallResult } from './helpers.ts';
import { router } from '../app.ts';
import { errorStatuses } from '../openapi.ts';
import { schemaErrors } from '../core/schema.ts';
import { ErrorBodySchema } from '../core/error-schema.ts';

export type H = ReturnType<typeof harness>;
export const HOUR = 3600;

export let h: H;

/** Makes `next` the simulator the helpers below talk to. */
export function useHarness(next: H): void {
  h = next;
}
export const sim = (method: string, path: string, body?: unknown) => h.call(method, `/_sim${path}`, body, { key: null });
export const snapshotText = () => JSON.stringify(h.sim.snapshot());

/** Every answer matches its documented schema, or is a documented error code (checked on each call). */
export function documented(method: string, url: string, r: CallResult): CallResult {
  const m = router().match(method, url.split('?')[0]!);
  if (m.kind !== 'found') throw new Error(`${method} ${url} is not routed`);
  const success = m.value.responses[r.status];
  if (success) {
    if (success.schema) expect(schemaErrors(success.schema, r.json), `${method} ${url} -> ${r.status}`).toEqual([]);
  } else {
    expect(schemaErrors(ErrorBodySchema, r.json)).toEqual([]);
    expect(errorStatuses(m.value).get(r.status)?.map((i) => i.code) ?? [], `${method} ${url} -> ${r.status} ${r.text}`).toContain(r.json.code);
  }
  return r;
}

export async function api(method: string, path: string, body?: unknown, who: { accountId: string; key: string } = ACME): Promise<CallResult> {
  const url = `/v1/accounts/${who.accountId}/email-domains${path}`;
  return documented(method, url, await h.call(method, url, body, { key: who.key }));
}
export const register = (domain: string, who = ACME) => api('POST', '', { domain }, who);
export const verify = (id: string, who = ACME) => api('POST', `/${id}/verification`, undefined, who);
export const get = (id: string, who = ACME) => api('GET', `/${id}`, undefined, who);
export const setReceiving = (id: string, receivingEnabled: boolean) => api('PATCH', `/${id}`, { receivingEnabled });
export const plant = (emailDomainId: string, purposes?: string[]) => sim('POST', '/dns/plant', { emailDomainId, purposes });
export const setRecords = (name: string, records: unknown[]) => sim('PUT', `/dns/records/${name}`, { records });
export const removeRecords = (name: string) => sim('DELETE', `/dns/records/${name}`);
export const fail = (rule: Record<string, unknown>) => sim('POST', '/dns/failures', rule);
export const lift = () => sim('DELETE', '/dns/failures');
export const advance = (seconds: number) => h.sim.clock.advance({ seconds });
export const now = () => h.sim.clock.now();
export const later = (seconds: number) => new Date(Date.parse(now()) + seconds * 1000).toISOString();
export const recordsOf = (d: any, purpose: string) => d.dnsRecords.filter((r: any) => r.purpose === purpose);

/** Registers and verifies (DKIM planted); returns the domain as answered by the verification. */
export async function verified(domain: string, purposes = ['dkim']): Promise<any> {
  const d = (await register(domain)).json;
  await plant(d.id, purposes);
  const v = await verify(d.id);
  expect(v.json.status).toBe('verified');
  return v.json;
}
