// The HTTP client that talks to customers' webhook receivers: real I/O, so this is the one file
// of the webhook engine that uses wall-clock time (the network timeout and the measured
// latency), allow-listed in test/determinism.test.ts. Domain time (when to attempt, when to
// retry) never comes from here; it is the virtual clock's, in engine.ts.
//
// Limits (docs/decisions.md "Webhooks"): one deadline covers connecting, the answer and reading
// its body; redirects are not followed (a 3xx is a failed attempt); at most RESPONSE_BODY_KEEP
// bytes of the answer are read, the rest is dropped with the connection; in strict mode, names
// that resolve to internal addresses are refused before connecting.
import type { Agent } from 'undici';
import type { OutgoingRequest } from './request.ts';
import type { ReceiverPolicy } from './receiver-policy.ts';
import { guardedLookup, loadUndici } from '../outbound-client.ts';

export const DEFAULT_RECEIVER_TIMEOUT_MS = 10_000;
/** Bytes of a receiver's answer kept for the logs; the rest is never read. */
export const RESPONSE_BODY_KEEP = 2048;

export interface AttemptOutcome {
  /** The HTTP status, or null when no answer came. */
  responseStatus: number | null;
  responseBody: string | null;
  responseBodyTruncated: boolean;
  latencyMs: number;
  /** What went wrong, in a few words; null for a 2xx answer. */
  error: string | null;
  /** Retrying cannot help (strict mode refused the address). */
  permanent: boolean;
}

const BLOCKED = 'WEBHOOK_ADDRESS_BLOCKED';

function errorCode(e: unknown): string {
  let cur = e as { code?: string; cause?: unknown; name?: string } | undefined;
  for (let depth = 0; cur && depth < 5; depth++) {
    if (typeof cur.code === 'string') return cur.code;
    if (cur.name === 'TimeoutError' || cur.name === 'AbortError') return cur.name;
    cur = cur.cause as typeof cur;
  }
  return '';
}

function describeFailure(e: unknown, timeoutMs: number): { error: string; permanent: boolean } {
  const code = errorCode(e);
  const message = (e as Error)?.message ?? String(e);
  if (code === BLOCKED) return { error: `address not allowed in strict mode: ${message}`, permanent: true };
  if (['TimeoutError', 'AbortError', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT', 'ETIMEDOUT'].includes(code)) {
    return { error: `timeout after ${timeoutMs} ms`, permanent: false };
  }
  if (code === 'ECONNREFUSED') return { error: 'connection refused', permanent: false };
  if (['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE', 'UND_ERR_CLOSED'].includes(code)) return { error: 'connection closed by the receiver', permanent: false };
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return { error: `host not found (${code})`, permanent: false };
  if (/CERT|TLS|SSL|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code)) return { error: `TLS error: ${message}`, permanent: false };
  return { error: code ? `${code}: ${message}` : message, permanent: false };
}

/**
 * Reads at most RESPONSE_BODY_KEEP bytes; leaving the loop early destroys the rest unread. A
 * body cut short (timeout, closed socket) keeps what came: the status line already decided.
 */
async function readBounded(body: AsyncIterable<Buffer>): Promise<{ text: string; truncated: boolean }> {
  const kept: Buffer[] = [];
  let size = 0;
  let truncated = false;
  try {
    for await (const chunk of body) {
      const room = RESPONSE_BODY_KEEP - size;
      if (chunk.length > room) {
        kept.push(chunk.subarray(0, room));
        truncated = true;
        break;
      }
      kept.push(chunk);
      size += chunk.length;
    }
  } catch {
    truncated = true;
  }
  return { text: Buffer.concat(kept).toString('utf8'), truncated };
}

export class ReceiverClient {
  private agent: Agent | undefined; // made on the first delivery, and again when the timeout or the egress mode changes
  /** The egress mode the agent's pooled connections were opened under. */
  private agentStrict = false;

  constructor(
    private readonly policy: ReceiverPolicy,
    private timeoutMs: number = DEFAULT_RECEIVER_TIMEOUT_MS,
  ) {}

  get timeout(): number {
    return this.timeoutMs;
  }

  useTimeout(ms: number): void {
    if (ms === this.timeoutMs) return;
    this.timeoutMs = ms;
    void this.agent?.close();
    this.agent = undefined;
  }

  private newAgent(AgentClass: typeof Agent): Agent {
    const ms = this.timeoutMs;
    return new AgentClass({
      connect: { timeout: ms, lookup: guardedLookup(this.policy.guard, BLOCKED) },
      headersTimeout: ms,
      bodyTimeout: ms,
      keepAliveTimeout: 1000,
      pipelining: 1,
    });
  }

  /** Sends one attempt. Never rejects: every failure becomes an outcome. */
  async send(req: OutgoingRequest): Promise<AttemptOutcome> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const signal = AbortSignal.timeout(this.timeoutMs);
    try {
      const { Agent: AgentClass, request } = await loadUndici();
      // A pooled keep-alive connection skips the lookup, so connections opened before strict mode
      // was switched on must not carry a strict-mode delivery: drop the pool when the mode changes.
      if (this.agent && this.agentStrict !== this.policy.strict) {
        void this.agent.destroy();
        this.agent = undefined;
      }
      if (!this.agent) {
        this.agent = this.newAgent(AgentClass);
        this.agentStrict = this.policy.strict;
      }
      const res = await request(req.url, {
        dispatcher: this.agent,
        method: req.method,
        headers: req.headers,
        body: req.method === 'GET' ? undefined : req.body,
        signal,
      });
      const status = res.statusCode;
      const answer = await readBounded(res.body as AsyncIterable<Buffer>);
      const location = res.headers.location;
      let error: string | null = null;
      if (status >= 300 && status < 400) error = `redirect not followed${location ? ` (Location: ${Array.isArray(location) ? location[0] : location})` : ''}`;
      else if (status < 200 || status >= 300) error = `receiver answered ${status}`;
      return {
        responseStatus: status,
        responseBody: answer.text,
        responseBodyTruncated: answer.truncated,
        latencyMs: elapsed(),
        error,
        permanent: false,
      };
    } catch (e) {
      return { responseStatus: null, responseBody: null, responseBodyTruncated: false, latencyMs: elapsed(), ...describeFailure(e, this.timeoutMs) };
    }
  }

  async close(): Promise<void> {
    await this.agent?.destroy();
    this.agent = undefined;
  }
}
