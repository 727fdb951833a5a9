// Which URLs may receive webhooks. By default any http(s) URL, loopback and private addresses
// included, because customers' apps run on their own machines. Strict mode refuses internal
// addresses as the real service does ("internal addresses are refused", numbers guide): at
// registration for URLs whose host is an internal address or a localhost name, and again at
// delivery for names that resolve to one.
// The address rules themselves are the shared egress guard's (peers/egress.ts); strict mode is
// the guard's switch (`--strict-egress`, `--webhook-strict`, PUT /_sim/egress).
import { ApiError, defineError } from '../../core/errors.ts';
import { blockedHostReason, isInternalAddress, type EgressGuard } from '../egress.ts';

export const receiverErrors = {
  URL_BLOCKED: defineError({
    code: 'URL_BLOCKED', status: 400, origin: 'simulator',
    description: 'Strict webhook mode: the URL points at a loopback, private, link-local or otherwise internal address (code named after the spec\'s MCP lastErrorCode).',
  }),
};

export { isInternalAddress };

export class ReceiverPolicy {
  constructor(readonly guard: EgressGuard) {}

  /** The egress guard's strict mode (set from the options or the control plane; not state). */
  get strict(): boolean {
    return this.guard.strict;
  }

  set strict(on: boolean) {
    this.guard.strict = on;
  }

  /**
   * Checks a receiver URL given in a request body and returns it normalised (WHATWG
   * serialisation, which is also the URL the signature covers). Bad URLs are 400 VALIDATION;
   * internal ones in strict mode are 400 URL_BLOCKED.
   */
  check(value: string, field: string): string {
    let u: URL | undefined;
    try {
      u = new URL(value);
    } catch {
      u = undefined;
    }
    const bad = (message: string): never => {
      throw ApiError.validation(`${field} ${message}, got "${value}"`, [{ path: field, message }]);
    };
    if (!u || (u.protocol !== 'http:' && u.protocol !== 'https:') || u.hostname === '') bad('must be an http or https URL');
    if (u!.username !== '' || u!.password !== '') bad('must not carry a user name or password');
    if (u!.hash !== '') bad('must not carry a #fragment (it is never sent)');
    this.refuseInternal(u!.href, field);
    return u!.href;
  }

  /** Strict mode only: refuses a URL (already known to be http(s)) whose host is internal. */
  refuseInternal(value: string, field: string): void {
    let host: string;
    try {
      host = new URL(value).hostname;
    } catch {
      return; // not a URL: the caller's own format check reports it
    }
    const reason = this.internalReason(host);
    if (reason) {
      throw receiverErrors.URL_BLOCKED(`${field} points at ${reason}; strict webhook mode refuses internal addresses`, { errors: [{ path: field, message: 'internal address' }] });
    }
  }

  /** Why delivering to this host is refused in strict mode, or undefined when it is allowed. */
  internalReason(hostname: string): string | undefined {
    return this.strict ? blockedHostReason(hostname) : undefined;
  }
}
