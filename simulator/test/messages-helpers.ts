// Shared by the message tests: ACME's sender and Kakao ids, sending, the state as text, a
// refusal that must change nothing, the domain events, and a fixture with tiny quotas.
import { expect } from 'vitest';
import { loadFixtureFile, DEFAULT_FIXTURE_PATH } from '../fixtures.ts';
import type { DomainEvent } from '../core/events.ts';
import { ACME, harness } from './helpers.ts';
import { runtimeOf } from '../internal.ts';

export type H = ReturnType<typeof harness>;

export const FROM = '07012340001';
export const CHANNEL = 'KA01PFacme0000000000000001';
export const ORDER_TEMPLATE = 'KA01TPacmeorder000000000001';
export const SHIP_TEMPLATE = 'KA01TPacmeship0000000000001';
export const DORMANT_TEMPLATE = 'KA01TPacmeold00000000000001';
export const hangul = (n: number) => '가'.repeat(n);

export function send(h: H, body: Record<string, unknown>, who = ACME) {
  return h.call('POST', `/v1/accounts/${who.accountId}/messages`, { To: '010-1234-5678', From: FROM, ...body }, { key: who.key });
}

export function state(h: H): string {
  return JSON.stringify(h.sim.snapshot());
}

/** Sends, expects the refusal, and proves nothing changed (no row, no count, no random draw). */
export async function expectRefused(h: H, body: Record<string, unknown>, status: number, code: string) {
  const before = state(h);
  const r = await send(h, body);
  expect(r.status, JSON.stringify(r.json)).toBe(status);
  expect(r.json.code).toBe(code);
  expect(typeof r.json.error).toBe('string');
  expect(state(h), `${code} changed state`).toBe(before);
  return r.json;
}

export function capture(h: H): DomainEvent[] {
  const events: DomainEvent[] = [];
  runtimeOf(h.sim).events.subscribe((e) => events.push(e));
  return events;
}

/** The default fixture with tiny monthly caps, for quota tests. */
export function tinyQuotaFixture() {
  const f = loadFixtureFile(DEFAULT_FIXTURE_PATH);
  f.plans.business!.monthlyMessageQuota = { sms: 2, lms: 1, mms: 1, ata: 1 };
  return f;
}
