// Strict egress of MCP connections (the public API document's request rules: https only, port
// 443, no private or internal address, including names that resolve to one): for a generated URL
// and generated resolver answers (A/AAAA records of the fake DNS, optionally switching to other
// answers between the check and the connection), registration and the connection test refuse
// exactly what an independent classification written here says. The classification is a
// hand-written table of special-purpose ranges (IANA registries), not the simulator's library.
// Names live on the fake internet, so an allowed name is refused a connection rather than
// reaching the real network; public IP literals are only registered, never tested.
import fc from 'fast-check';
import { generatedProperty, type CaseContext } from './harness.ts';
import type { PropertyDef } from './types.ts';

// --- the independent classification ---

type Range = { base: string; bits: number };
const BLOCKED_V4: Range[] = [
  { base: '0.0.0.0', bits: 8 }, // this network
  { base: '10.0.0.0', bits: 8 }, // private
  { base: '100.64.0.0', bits: 10 }, // carrier-grade NAT
  { base: '127.0.0.0', bits: 8 }, // loopback
  { base: '169.254.0.0', bits: 16 }, // link-local
  { base: '172.16.0.0', bits: 12 }, // private
  { base: '192.168.0.0', bits: 16 }, // private
  { base: '224.0.0.0', bits: 4 }, // multicast
  { base: '240.0.0.0', bits: 4 }, // reserved and broadcast
];
const BLOCKED_V6: Range[] = [
  { base: '::', bits: 128 }, // unspecified
  { base: '::1', bits: 128 }, // loopback
  { base: '::ffff:0:0', bits: 96 }, // IPv4-mapped
  { base: 'fc00::', bits: 7 }, // unique local
  { base: 'fe80::', bits: 10 }, // link-local
  { base: 'ff00::', bits: 8 }, // multicast
];

function v4(text: string): bigint {
  return text.split('.').reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);
}

function v6(text: string): bigint {
  let t = text;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(t);
  if (dotted) {
    const n = v4(dotted[1]!);
    t = `${t.slice(0, -dotted[1]!.length)}${(n >> 16n).toString(16)}:${(n & 0xffffn).toString(16)}`;
  }
  const [head, tail] = t.includes('::') ? t.split('::') : [t, undefined];
  const h = head ? head.split(':') : [];
  const tl = tail === undefined ? [] : tail ? tail.split(':') : [];
  const groups = tail === undefined ? h : [...h, ...Array(8 - h.length - tl.length).fill('0'), ...tl];
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(parseInt(g || '0', 16)), 0n);
}

function within(addr: bigint, r: Range, width: number, parse: (s: string) => bigint): boolean {
  const shift = BigInt(width - r.bits);
  return addr >> shift === parse(r.base) >> shift;
}

/** The kit's verdict on an address: blocked when it lies in a special-purpose range. */
export function blockedByKit(address: string): boolean {
  if (address.includes(':')) return BLOCKED_V6.some((r) => within(v6(address), r, 128, v6));
  return BLOCKED_V4.some((r) => within(v4(address), r, 32, v4));
}

// --- generation ---

function fromRange(base: string, bits: number, width: 32 | 128): fc.Arbitrary<string> {
  const size = BigInt(width - bits);
  return fc.bigInt({ min: 0n, max: (1n << size) - 1n }).map((offset) => {
    const n = (width === 32 ? v4(base) : v6(base)) + offset;
    if (width === 32) return [24n, 16n, 8n, 0n].map((s) => String((n >> s) & 0xffn)).join('.');
    return Array.from({ length: 8 }, (_, i) => ((n >> BigInt(112 - 16 * i)) & 0xffffn).toString(16)).join(':');
  });
}

const publicV4 = fc.oneof(fromRange('8.0.0.0', 8, 32), fromRange('93.184.0.0', 16, 32), fromRange('172.32.0.0', 11, 32), fromRange('100.128.0.0', 9, 32), fromRange('169.255.0.0', 16, 32));
const publicV6 = fc.oneof(fromRange('2606:4700::', 32, 128), fromRange('2a00:1450::', 32, 128));
const blockedV4 = fc.oneof(...BLOCKED_V4.map((r) => fromRange(r.base, r.bits, 32)));
const blockedV6 = fc.oneof(
  fc.constantFrom('::1', '::'),
  fromRange('fc00::', 7, 128),
  fromRange('fe80::', 10, 128),
  fromRange('ff00::', 8, 128),
  publicV4.map((a) => `::ffff:${a}`),
  blockedV4.map((a) => `::ffff:${a}`),
);
const address = fc.oneof({ weight: 3, arbitrary: publicV4 }, { weight: 1, arbitrary: publicV6 }, { weight: 2, arbitrary: blockedV4 }, { weight: 2, arbitrary: blockedV6 });

type Host = { kind: 'literal'; address: string } | { kind: 'localhost'; name: string } | { kind: 'name'; answers: string[]; rebind: string[] | null };

export interface EgressCase {
  tag: number;
  scheme: 'https' | 'http';
  port: '' | '443' | '8443';
  host: Host;
}

export const egressArbitrary: fc.Arbitrary<EgressCase> = fc.record({
  tag: fc.integer({ min: 0, max: 1_000_000_000 }),
  // Mostly well-formed URLs, so that most cases reach the address rules.
  scheme: fc.constantFrom<'https' | 'http'>('https', 'https', 'https', 'https', 'https', 'https', 'https', 'http'),
  port: fc.constantFrom<'' | '443' | '8443'>('', '', '', '443', '443', '443', '443', '8443'),
  host: fc.oneof(
    { weight: 2, arbitrary: address.map((a): Host => ({ kind: 'literal', address: a })) },
    { weight: 1, arbitrary: fc.constantFrom('localhost', 'api.localhost').map((n): Host => ({ kind: 'localhost', name: n })) },
    {
      weight: 4,
      arbitrary: fc
        .record({ answers: fc.array(address, { minLength: 1, maxLength: 3 }), rebind: fc.option(fc.array(address, { minLength: 1, maxLength: 2 }), { nil: null }) })
        .map((r): Host => ({ kind: 'name', ...r })),
    },
  ),
});

// --- driving one case ---

function hostText(c: EgressCase): string {
  if (c.host.kind === 'literal') return c.host.address.includes(':') ? `[${c.host.address}]` : c.host.address;
  if (c.host.kind === 'localhost') return c.host.name;
  return `e${c.tag}.egress-property.example.com`;
}

function records(answers: string[]) {
  return answers.map((a) => ({ type: a.includes(':') ? 'AAAA' : 'A', value: a }));
}

async function drive(v: EgressCase, c: CaseContext): Promise<string | undefined> {
  const host = hostText(v);
  c.set('url', `${v.scheme}://${host}${v.port ? `:${v.port}` : ''}/mcp`);
  await c.exec({ name: 'strict egress on', control: { method: 'PUT', path: '/egress', body: { strict: true } } });
  try {
    if (v.host.kind === 'name') {
      await c.exec({ name: 'the name\'s answers', control: { method: 'PUT', path: `/dns/records/${host}`, body: { records: records(v.host.answers) } } });
      await c.exec({ name: 'count lookups afresh', control: { method: 'DELETE', path: `/dns/rebind/${host}` } });
      if (v.host.rebind) {
        await c.exec({ name: 'another answer from the connection on', control: { method: 'PUT', path: `/dns/rebind/${host}`, body: { afterLookups: 1, addresses: v.host.rebind } } });
      }
    }
    const badForm = v.scheme !== 'https' || v.port === '8443';
    const blockedOnItsFace = v.host.kind === 'localhost' || (v.host.kind === 'literal' && blockedByKit(v.host.address));
    const create: Record<string, unknown> = { name: 'register', request: { operationId: 'createMcpConnection', body: { name: 'egress', url: '{{ url }}' } } };
    if (badForm) create.expectSim = { status: 400, body: { code: 'VALIDATION' } };
    else if (blockedOnItsFace) create.expectSim = { status: 400, body: { code: 'URL_BLOCKED' } };
    else create.expectSim = { status: 201 };
    if (!badForm && !blockedOnItsFace) create.save = { id: 'body.connectionId' };
    const created = await c.exec(create);
    if (created.status !== 'passed' || v.host.kind !== 'name' || badForm) return undefined;
    const blocked = [...v.host.answers, ...(v.host.rebind ?? [])].some(blockedByKit);
    await c.exec({
      name: blocked ? 'the test refuses the address' : 'the test gets past the guard (the fake internet refuses the connection)',
      request: { operationId: 'testMcpConnection', params: { connectionId: '{{ id }}' } },
      expectSim: { status: 502, body: { code: blocked ? 'URL_BLOCKED' : { $ne: 'URL_BLOCKED' } } },
    });
    await c.exec({
      name: 'lastErrorCode records it',
      request: { operationId: 'getMcpConnection', params: { connectionId: '{{ id }}' } },
      expectSim: { body: { lastErrorCode: blocked ? 'URL_BLOCKED' : { $ne: 'URL_BLOCKED' } } },
    });
    return undefined;
  } finally {
    await c.exec({ name: 'strict egress off', control: { method: 'PUT', path: '/egress', body: { strict: false } } });
  }
}

export const egressProperty: PropertyDef = generatedProperty<EgressCase>({
  id: 'mcp-egress',
  description: 'with strict egress, MCP connections refuse exactly the URLs and resolver answers (rebinding included) that an independent range table says are not public, and nothing else',
  clauses: ['mcp-connection.field.last-error-code'],
  tags: ['mcp', 'egress', 'property'],
  requires: ['dns', 'writes', 'egress', 'mcp-servers'],
  level: 'sim',
  numRuns: 150,
  // Connections registered in a fresh account leave the given accounts' lists as they were.
  ownAccount: { numbers: 0 },
  arbitrary: egressArbitrary,
  drive,
});
