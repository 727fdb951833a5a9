// Checks run on every API response (Schemathesis-style): pure functions from one exchange to a
// failure or nothing. Probes are checks that need one more request (RESTler-style): a pure
// planner says what to send, a pure verdict judges the answer; the runner does the I/O.
import type { Contract, ContractOperation } from '../contract/contract.ts';
import type { SecretSet } from '../secrets.ts';
import type { Level } from '../scenario/types.ts';
import type { WireRequest, WireResponse } from '../target.ts';

export interface Exchange {
  request: WireRequest;
  response: WireResponse;
  /** The contract operation the request matched, if any. */
  op?: ContractOperation;
  /** Path parameters of the match. */
  params: Record<string, string>;
  query: URLSearchParams;
  contract: Contract;
  secrets: SecretSet;
}

export interface Check {
  id: string;
  /** A fixed level, or one that depends on the exchange (e.g. on the operation's origin). */
  level: Level | ((ex: Exchange) => Level);
  clauses: string[];
  description: string;
  /** Whether the check says anything about this exchange (a pass is recorded only then). */
  applies(ex: Exchange): boolean;
  /** A message when the exchange violates the check. */
  run(ex: Exchange): string | undefined;
}

export interface ProbeRequest {
  request: WireRequest;
  /** What the probe expects, for messages. */
  expectation: string;
}

export interface Probe {
  id: string;
  level: Level;
  clauses: string[];
  description: string;
  /** Key for "probe once per run" (asked only after `plan` applies): probes are requests, so they are not repeated for every response. */
  onceKey?(ex: Exchange): string;
  /** What to send after `ex`, or nothing when the probe does not apply. */
  plan(ex: Exchange, ctx: ProbeContext): ProbeRequest | undefined;
  verdict(probe: ProbeRequest, response: WireResponse, ex: Exchange): string | undefined;
}

export interface ProbeContext {
  /** A second account's credentials (isolation probes need one). */
  alt?: { accountId: string; key: string };
  /** The key the original request used. */
  invalidKey: string;
}

export function levelOf(check: { level: Level | ((ex: Exchange) => Level) }, ex: Exchange): Level {
  return typeof check.level === 'function' ? check.level(ex) : check.level;
}

export function isJsonContentType(ct: string | undefined): boolean {
  if (!ct) return false;
  const t = ct.split(';')[0]!.trim().toLowerCase();
  return t === 'application/json' || t.endsWith('+json');
}

/** Whether the exchange is a call of the platform API (not the control plane or an unknown path). */
export function isApiCall(ex: Exchange): boolean {
  return !ex.request.path.startsWith('/_sim') && ex.op?.auth !== 'control';
}
