// Fake geo-IP database: which client addresses count as foreign (spec Authentication 3).
// Tests mark addresses or IPv4 ranges foreign through the control plane; everything else is
// domestic, so the simulator never refuses a request until a test asks it to. Its state is the
// list of foreign entries; the runtime validates a snapshot's part before `restore` reads it.
import { Type, type Static } from '@sinclair/typebox';
import { ApiError } from '../../core/errors.ts';

export const GeoIpStateSchema = Type.Object(
  { foreign: Type.Array(Type.String(), { description: 'Addresses (exact) or IPv4 CIDR ranges judged foreign.' }) },
  { additionalProperties: false },
);
export type GeoIpState = Static<typeof GeoIpStateSchema>;

interface Range {
  text: string;
  base: number;
  mask: number;
}

export class GeoIp {
  private exact = new Set<string>(); // maps an exact address to "foreign"
  private ranges: Range[] = []; // IPv4 CIDR ranges judged foreign

  clear(): void {
    this.exact = new Set();
    this.ranges = [];
  }

  snapshot(): GeoIpState {
    return { foreign: [...this.exact, ...this.ranges.map((r) => r.text)] };
  }

  restore(state: GeoIpState): void {
    this.clear();
    for (const entry of state.foreign) this.add(entry);
  }

  /** True while nothing is marked foreign: the pipeline then skips the check entirely. */
  get empty(): boolean {
    return this.exact.size === 0 && this.ranges.length === 0;
  }

  entries(): string[] {
    return this.snapshot().foreign;
  }

  /** Marks an address or an IPv4 CIDR range foreign; returns the canonical text. */
  add(entry: string): string {
    const text = entry.trim();
    if (text.includes('/')) {
      const [addr, bitsText] = text.split('/');
      const base = ipv4ToInt(addr ?? '');
      const bits = Number(bitsText);
      if (base === undefined || !/^\d{1,2}$/.test(bitsText ?? '') || bits > 32) {
        throw ApiError.validation(`"${entry}" is not an IPv4 CIDR range`, [{ path: 'ip', message: 'bad CIDR' }]);
      }
      const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
      const canonical = `${intToIpv4((base & mask) >>> 0)}/${bits}`;
      if (!this.ranges.some((r) => r.text === canonical)) this.ranges.push({ text: canonical, base: (base & mask) >>> 0, mask });
      return canonical;
    }
    const canonical = canonicalAddress(text);
    if (ipv4ToInt(canonical) === undefined && !/^[0-9a-f:]+$/i.test(canonical)) {
      throw ApiError.validation(`"${entry}" is not an IP address`, [{ path: 'ip', message: 'bad address' }]);
    }
    this.exact.add(canonical);
    return canonical;
  }

  remove(entry: string): boolean {
    const text = entry.trim();
    const before = this.exact.size + this.ranges.length;
    this.exact.delete(canonicalAddress(text));
    this.ranges = this.ranges.filter((r) => r.text !== text);
    return this.exact.size + this.ranges.length < before;
  }

  isForeign(address: string): boolean {
    const a = canonicalAddress(address);
    if (this.exact.has(a)) return true;
    const n = ipv4ToInt(a);
    return n !== undefined && this.ranges.some((r) => ((n & r.mask) >>> 0) === r.base);
  }
}

/** "::ffff:1.2.3.4" (IPv4 mapped into IPv6) is the IPv4 address; IPv6 is lowercased. */
export function canonicalAddress(address: string): string {
  const a = address.trim().toLowerCase();
  return a.startsWith('::ffff:') && ipv4ToInt(a.slice(7)) !== undefined ? a.slice(7) : a;
}

function ipv4ToInt(text: string): number | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  let n = 0;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p) || Number(p) > 255) return undefined;
    n = n * 256 + Number(p);
  }
  return n >>> 0;
}

function intToIpv4(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}
