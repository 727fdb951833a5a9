// The skeleton every outbound client shares (a flow's http block, a media stream, webhook
// deliveries, MCP tests): undici loaded on first use, not at start (bin/start.cjs keeps it out of
// the bundle and many runs never connect out); connections that resolve through the egress guard
// (peers/egress.ts), so the answer checked is the answer connected to; a URL refused before any
// I/O when it is not of the client's schemes or carries credentials. `GuardedClient` adds what the
// call's one-off clients have in common: the I/O barrier's count of work in flight (core/io.ts),
// so a clock advance waits for an answer, a wall-clock deadline, and one agent made on first use.
import type dns from 'node:dns';
import type { LookupFunction } from 'node:net';
import type { Agent } from 'undici';
import { InFlight, type PendingIo } from '../core/io.ts';
import type { EgressGuard } from './egress.ts';

let undici: Promise<typeof import('undici')> | undefined;
/** undici, loaded once, on the first outbound request of any client. */
export const loadUndici = () => (undici ??= import('undici'));

/**
 * A lookup through the egress guard: the fake DNS first, and in strict mode internal answers
 * refused with `blockedCode` (the caller's failure mapping recognises it).
 */
export function guardedLookup(guard: EgressGuard, blockedCode = 'EGRESS_BLOCKED'): LookupFunction {
  return ((hostname: string, options: dns.LookupOptions, callback: (...args: unknown[]) => void) => {
    void guard.resolve(hostname).then((r) => {
      if (!r.ok) return callback(Object.assign(new Error(r.reason), { code: r.blocked ? blockedCode : 'ENOTFOUND' }));
      if (options.all) return callback(null, r.addresses);
      const first = r.addresses[0];
      if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }));
      return callback(null, first.address, first.family);
    });
  }) as LookupFunction;
}

/** The URL parsed, or why it may not be used whatever the egress policy: not a URL, another scheme (`schemes` names the allowed ones), credentials in it. */
export function outboundUrl(url: string, protocols: readonly string[], schemes: string): URL | string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return 'not a URL';
  }
  if (!protocols.includes(u.protocol)) return `not ${schemes} URL`;
  if (u.username !== '' || u.password !== '') return 'carries a user name or password';
  return u;
}

/** A call's one-off outbound client: each piece of work counted in flight until it has landed. */
export abstract class GuardedClient implements PendingIo {
  private readonly inFlight = new InFlight();
  private agentMade: Agent | undefined;
  /** Wall-clock deadline of one piece of work. */
  timeoutMs: number;

  constructor(
    protected readonly guard: EgressGuard,
    defaultTimeoutMs: number,
  ) {
    this.timeoutMs = defaultTimeoutMs;
  }

  get busy(): boolean {
    return this.inFlight.busy;
  }

  whenIdle(): Promise<void> {
    return this.inFlight.whenIdle();
  }

  /**
   * Why the URL may not be used, or undefined when it may: its scheme or credentials, else the
   * egress policy on its host (that reason after `policyPrefix`).
   */
  protected refusalOf(url: string, protocols: readonly string[], schemes: string, policyPrefix = ''): string | undefined {
    const u = outboundUrl(url, protocols, schemes);
    if (typeof u === 'string') return u;
    const why = this.guard.hostReason(u.hostname);
    return why === undefined ? undefined : `${policyPrefix}${why}`;
  }

  /** undici and this client's agent, whose connections resolve through the guard (made on first use). */
  protected async connector(): Promise<{ undici: typeof import('undici'); agent: Agent }> {
    const u = await loadUndici();
    this.agentMade ??= new u.Agent({ connect: { lookup: guardedLookup(this.guard) } });
    return { undici: u, agent: this.agentMade };
  }

  /** Hands the work's result to `land` while it still counts as in flight, so a clock advance waiting on this client sees what `land` did. */
  protected track<T>(work: Promise<T>, land: (result: T) => void): void {
    this.inFlight.track(work, land);
  }
}
