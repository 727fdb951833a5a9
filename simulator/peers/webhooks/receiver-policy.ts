// Which URLs may receive webhooks. By default any http(s) URL, loopback and private addresses
// included, because customers' apps run on their own machines. Strict mode refuses internal
// addresses as the real service does ("internal addresses are refused", numbers guide): at
// registration for URLs whose host is an internal address or a localhost name, and again at
// delivery for names that resolve to one.
import net from 'node:net';
import { ApiError, defineError } from '../../core/errors.ts';

export const receiverErrors = {
  URL_BLOCKED: defineError({
    code: 'URL_BLOCKED', status: 400, origin: 'simulator',
    description: 'Strict webhook mode: the URL points at a loopback, private, link-local or otherwise internal address (code named after the spec\'s MCP lastErrorCode).',
  }),
};

/** Ranges no public receiver lives in (IANA special-purpose registries, the non-global ones). */
const INTERNAL = new net.BlockList();
for (const [base, bits] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata lives here)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) INTERNAL.addSubnet(base, bits, 'ipv4');
for (const [base, bits] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const) INTERNAL.addSubnet(base, bits, 'ipv6');

/** True for addresses a public receiver cannot have (IPv4-mapped IPv6 is judged as IPv4). */
export function isInternalAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 0) return false;
  return INTERNAL.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** The URL's host as an address when it is an IP literal. */
function literalAddress(hostname: string): string | undefined {
  const h = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  return net.isIP(h) ? h : undefined;
}

function isLocalhostName(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/\.$/, '');
  return h === 'localhost' || h.endsWith('.localhost');
}

export class ReceiverPolicy {
  /** Set from the simulator's options (`--webhook-strict`); not part of the state. */
  strict = false;

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
    if (!this.strict) return undefined;
    if (isLocalhostName(hostname)) return `the local host name "${hostname}"`;
    const ip = literalAddress(hostname);
    if (ip !== undefined && isInternalAddress(ip)) return `the internal address ${ip}`;
    return undefined;
  }
}
