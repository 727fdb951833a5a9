// Shared by the delivery-engine tests: simulators closed after each test (register
// closeDeliveryTests with afterEach), events emitted as a producer would, subscriptions, and
// signature checks with the shipped verifier.
import { expect } from 'vitest';
import { ACME, harness } from './helpers.ts';
import { closeAllReceivers, sampleCallflowEnded, type Received } from './receivers.ts';
import { verifyWebhookRequest } from '../core/signing.ts';
import type { DomainEvent } from '../core/events.ts';
import type { SimulatorOptions } from '../index.ts';
import { runtimeOf } from '../internal.ts';

export type H = ReturnType<typeof harness>;
const made: H[] = [];

export function sim(options: SimulatorOptions = {}): H {
  const h = harness({ webhooks: { timeoutMs: 2000, ...options.webhooks }, ...options });
  made.push(h);
  return h;
}

/** Closes the receivers and simulators a test opened. */
export async function closeDeliveryTests(): Promise<void> {
  await closeAllReceivers();
  await Promise.all(made.splice(0).map((h) => h.sim.close()));
}

export function emit(h: H, type: string, payload: Record<string, unknown>, accountId = ACME.accountId): void {
  const resourceId = String(payload.CallId ?? payload.MessageId ?? '');
  const e: DomainEvent = { type, accountId, resourceId, at: runtimeOf(h.sim).clock.now(), payload };
  runtimeOf(h.sim).events.emit(e);
}

export async function subscribe(h: H, url: string, events: string[], key = ACME.key, accountPath = h.acme('/webhooks')): Promise<string> {
  const r = await h.call('POST', accountPath, { url, events }, { key });
  expect(r.status).toBe(201);
  return r.json.id;
}

export async function verifies(h: H, got: Received, accountId = ACME.accountId): Promise<boolean> {
  return verifyWebhookRequest({ signingKey: await h.sim.webhooks.signingKey(accountId), url: got.url, method: got.method, body: got.body, signature: got.headers['x-signature'] as string });
}

export const callflowEnded = (callId: string, extra: Record<string, unknown> = {}) =>
  sampleCallflowEnded({ CallId: callId, Variables: { caller: '01012345678', callee: '07012340001', menu: '2' }, ...extra });
