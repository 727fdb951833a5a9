// IPv4 CIDR rules for SIP IP ACLs: which strings are networks, and which addresses they admit.
const CIDR = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/;

/** The reason a CIDR string is refused, or null when it is a valid IPv4 network. */
export function cidrProblem(s: string): string | null {
  const m = CIDR.exec(s);
  if (!m) return 'must be an IPv4 CIDR such as 203.0.113.0/24';
  const octets = m.slice(1, 5);
  if (octets.some((o) => (o.length > 1 && o.startsWith('0')) || Number(o) > 255)) return 'each octet must be 0 to 255 without leading zeros';
  const len = Number(m[5]);
  if (m[5]!.length > 1 && m[5]!.startsWith('0')) return 'prefix length must be written without leading zeros';
  if (len > 32) return 'prefix length must be 0 to 32';
  const addr = octets.reduce((a, o) => a * 256 + Number(o), 0);
  const size = 2 ** (32 - len);
  if (addr % size !== 0) {
    const net = addr - (addr % size);
    const dotted = [24, 16, 8, 0].map((sh) => Math.floor(net / 2 ** sh) % 256).join('.');
    return `has host bits set; the network is ${dotted}/${len}`;
  }
  return null;
}

/** Whether an IPv4 address (dotted quad) lies in a CIDR the model accepted. */
export function ipInCidr(ip: string, cidr: string): boolean {
  const toInt = (s: string) => s.split('.').reduce((a, o) => a * 256 + Number(o), 0);
  const [net, len] = cidr.split('/') as [string, string];
  const size = 2 ** (32 - Number(len));
  const addr = toInt(ip);
  const base = toInt(net);
  return addr >= base && addr < base + size;
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

export function isIpv4(s: string): boolean {
  return IPV4.test(s);
}
