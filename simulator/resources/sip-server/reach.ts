// Where the server sends a request for a SIP URI or a route (docs/decisions.md "SIP on the wire",
// Routes by name, TLS): an IPv4 host as written; a DNS name through the simulator's fake DNS (its
// first A record: the fake internet never asks the system resolver, so tests stay offline); UDP
// only. `sips:`, `transport=tls`/`tcp` routes and names the fake DNS does not know are not
// reachable from here and say why.

/** The fake DNS as the SIP server asks it (peers/dns). */
export interface SipDns {
  /** The addresses a name has (A then AAAA); undefined when the fake DNS knows none. */
  addressLookup(name: string): string[] | undefined;
}

export type Reach = { ok: true; host: string; address: string; port: number } | { ok: false; reason: string };

const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;

/** How to reach `uri` (`sip:[user@]host[:port][;params]`) over the route's transport (default udp). */
export function reach(uri: string, transport: string | undefined, dns: SipDns): Reach {
  const m = /^(sips?):(?:[^@]*@)?([^:;?>]+)(?::(\d+))?([^?>]*)/i.exec(uri.trim());
  if (!m) return { ok: false, reason: `${uri} is no SIP URI` };
  const host = m[2]!.toLowerCase();
  const params = (m[4] ?? '').toLowerCase();
  const wanted = /;transport=([a-z]+)/.exec(params)?.[1] ?? transport ?? 'udp';
  if (m[1]!.toLowerCase() === 'sips' || wanted === 'tls') return { ok: false, reason: `${uri} needs TLS, which the simulator's SIP server does not speak` };
  if (wanted !== 'udp') return { ok: false, reason: `${uri} needs ${wanted.toUpperCase()}; the server sends requests over UDP only` };
  const port = m[3] === undefined ? 5060 : Number(m[3]);
  if (IPV4.test(host)) return { ok: true, host, address: host, port };
  const address = (dns.addressLookup(host) ?? []).find((a) => IPV4.test(a));
  if (address === undefined) return { ok: false, reason: `the fake DNS has no IPv4 address for ${host}` };
  return { ok: true, host, address, port };
}

/** The `host[:port]` of a SIP URI, lowercased (how a dialed URI names its route, as the calls' leg engine matches them); '' for no SIP URI. */
export function hostPortOf(uri: string): string {
  return /^sips?:(?:[^@]*@)?([^;?>]+)/i.exec(uri.trim())?.[1]?.toLowerCase() ?? '';
}
