// Small helpers for tests that talk to an in-process simulator.
import { createSimulator, type Simulator, type SimulatorOptions } from '../index.ts';

export const ACME = { accountId: 'AC1a2b3c4d', key: 'sk_test_acme_4f9c2b7e1d3a5c8f' };
export const BISTRO = { accountId: 'AC5e6f7a8b', key: 'sk_test_bistro_9a8b7c6d5e4f3a2b' };

export interface CallResult {
  status: number;
  headers: Record<string, string>;
  text: string;
  json: any;
  /** The body of a binary answer (images). */
  bytes?: Uint8Array;
}

export interface CallOptions {
  key?: string | null;
  headers?: Record<string, string>;
  rawBody?: string;
  remoteAddress?: string;
}

export async function call(sim: Simulator, method: string, url: string, body?: unknown, opts: CallOptions = {}): Promise<CallResult> {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...opts.headers };
  const key = opts.key === undefined ? ACME.key : opts.key;
  if (key !== null) headers.authorization = `Bearer ${key}`;
  const res = await sim.handle({
    method,
    url,
    headers,
    body: opts.rawBody ?? (body === undefined ? undefined : JSON.stringify(body)),
    remoteAddress: opts.remoteAddress,
  });
  let json: unknown;
  try {
    json = res.body ? JSON.parse(res.body) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text: res.body, json, bytes: res.bytes };
}

/** A simulator with the default fixture plus a `call` bound to it. */
export function harness(options: SimulatorOptions = {}) {
  const sim = createSimulator(options);
  return {
    sim,
    call: (method: string, url: string, body?: unknown, opts?: CallOptions) => call(sim, method, url, body, opts),
    acme: (path: string) => `/v1/accounts/${ACME.accountId}${path}`,
    bistro: (path: string) => `/v1/accounts/${BISTRO.accountId}${path}`,
  };
}
