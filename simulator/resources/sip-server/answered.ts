// Final responses already sent, by transaction (RFC 3261 §17.2): a request retransmitted over UDP
// (same flow, branch and method) gets the same answer again instead of being handled twice, so a
// retransmitted REGISTER neither spends a second nonce nor changes a binding twice. Bounded: the
// oldest entries go first. Live transport state, not part of a snapshot.
import { flowKey, type Flow } from './flow.ts';
import type { SipRequest } from './message.ts';

const CAPACITY = 4096;
/** RFC 3261 §8.1.1.7: branches of RFC 3261 clients start with this cookie and are unique per transaction. */
const MAGIC_COOKIE = 'z9hG4bK';

export class AnsweredRequests {
  private readonly sent = new Map<string, string>();

  private key(req: SipRequest, flow: Flow): string | undefined {
    const branch = req.topVia.branch;
    if (branch === undefined || !branch.startsWith(MAGIC_COOKIE)) return undefined;
    return `${flowKey(flow)}|${branch}|${req.method}`;
  }

  /** The answer already sent to this transaction, if any. */
  find(req: SipRequest, flow: Flow): string | undefined {
    const k = this.key(req, flow);
    return k === undefined ? undefined : this.sent.get(k);
  }

  remember(req: SipRequest, flow: Flow, text: string): void {
    const k = this.key(req, flow);
    if (k === undefined) return;
    this.sent.set(k, text);
    if (this.sent.size > CAPACITY) this.sent.delete(this.sent.keys().next().value!);
  }

  clear(): void {
    this.sent.clear();
  }
}
