// The egress guard: where the simulator may connect on a customer's behalf (webhook receivers,
// external MCP servers, a flow's http block). By default anything goes, because customers test
// with servers on their own machine. Strict mode (`--strict-egress`, PUT /_sim/egress) refuses
// what the real service refuses: addresses that are not public unicast (loopback, private,
// link-local, CGNAT, IPv4-mapped IPv6 and every other special-purpose range, as ipaddr.js
// classifies them), localhost names, and names that resolve to any such address. Names are
// resolved through the fake DNS when it knows them (A/AAAA answers), else the system resolver;
// the answer checked is the answer connected to, so a name that changes its answer between a
// check and the connection (DNS rebinding) is refused at the connection.
import ipaddr from 'ipaddr.js';
import type { FakeDns } from './dns/model.ts';
import type { IoBarrier } from '../core/io.ts';

/** The fake DNS counts the address lookups it answers (rebinding): a change the I/O makes, so it goes through the barrier. */
const FAKE_LOOKUP = 'dns.lookup';

/** Why an address is no public receiver, or undefined when it is public unicast. */
export function blockedAddressReason(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return undefined;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    return `the IPv4-mapped IPv6 address ${address}`;
  }
  const range = parsed.range();
  return range === 'unicast' ? undefined : `the ${range} address ${address}`;
}

/** True for addresses strict mode refuses. */
export function isInternalAddress(address: string): boolean {
  return blockedAddressReason(address) !== undefined;
}

/** The URL hostname as an address when it is an IP literal ("[::1]" gives "::1"). */
export function literalAddress(hostname: string): string | undefined {
  const h = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return ipaddr.isValid(h) && (h.includes(':') || ipaddr.IPv4.isValidFourPartDecimal(h)) ? h : undefined;
}

export function isLocalhostName(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/\.$/, '');
  return h === 'localhost' || h.endsWith('.localhost');
}

/** Why a host (name or literal) is refused on its face, before any lookup. */
export function blockedHostReason(hostname: string): string | undefined {
  if (isLocalhostName(hostname)) return `the local host name "${hostname}"`;
  const ip = literalAddress(hostname);
  return ip === undefined ? undefined : blockedAddressReason(ip);
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** How a name resolved: the addresses, and whether the fake DNS gave them (the fake internet). */
export type Resolution =
  | { ok: true; addresses: ResolvedAddress[]; fake: boolean }
  | { ok: false; blocked: true; reason: string }
  | { ok: false; blocked: false; reason: string };

export class EgressGuard {
  /** Set from the options (`--strict-egress`) or the control plane; not part of the state. */
  strict = false;

  /** The fake DNS comes through a getter: the runtime builds its peers after the guard. */
  constructor(
    private readonly dnsOf: () => FakeDns,
    private readonly io: IoBarrier,
  ) {
    io.defineEffect(FAKE_LOOKUP, (name) => this.dnsOf().addressLookup(name));
  }

  /** Strict mode only: why the host is refused before any lookup. */
  hostReason(hostname: string): string | undefined {
    return this.strict ? blockedHostReason(hostname) : undefined;
  }

  /**
   * Resolves a host for a connection and, in strict mode, refuses it when any answer is not
   * public. Literals resolve to themselves. Each call looks up again (no cache), so every
   * connection is checked against the answer it uses.
   */
  async resolve(hostname: string): Promise<Resolution> {
    const refused = this.hostReason(hostname);
    if (refused) return { ok: false, blocked: true, reason: refused };
    const ip = literalAddress(hostname);
    if (ip !== undefined) return { ok: true, addresses: [{ address: ip, family: ip.includes(':') ? 6 : 4 }], fake: false };
    const name = hostname.toLowerCase().replace(/\.$/, '');
    const fake = this.io.effect<string[] | undefined>(FAKE_LOOKUP, name);
    let addresses: ResolvedAddress[];
    if (fake !== undefined) {
      if (fake.length === 0) return { ok: false, blocked: false, reason: `${name} has no address (fake DNS)` };
      addresses = fake.map((a) => ({ address: a, family: a.includes(':') ? 6 : 4 }));
    } else {
      try {
        // node:dns loads with the first real lookup, not at start (decisions.md, start-up).
        const list = await process.getBuiltinModule('node:dns').promises.lookup(name, { all: true });
        addresses = list.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
      } catch (e) {
        return { ok: false, blocked: false, reason: `${name} not found (${(e as { code?: string }).code ?? 'lookup failed'})` };
      }
    }
    if (this.strict) {
      for (const a of addresses) {
        const why = blockedAddressReason(a.address);
        if (why) return { ok: false, blocked: true, reason: `${name} resolves to ${why}` };
      }
    }
    return { ok: true, addresses, fake: fake !== undefined };
  }
}
