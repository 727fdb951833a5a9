// Email-domain DNS zones (spec "Email domain" status rules and "States and transitions / Email
// domain"): for a generated zone - which DKIM CNAMEs are planted, a DMARC record, the MAIL FROM
// records, the domain's MX records, lookups that time out - a verification request leaves the
// statuses a small reference written here from the spec says. Spec facts are judged at level
// spec; where the spec leaves the outcome open (a pending domain's side statuses, a MAIL FROM
// half planted, a DMARC record whose p is not a policy) the simulator's reading is level sim.
import fc from 'fast-check';
import { expectKey, generatedProperty, type CaseContext } from './harness.ts';
import type { PropertyDef } from './types.ts';
import type { Level } from '../scenario/types.ts';

type Dkim = 'planted' | 'absent' | 'elsewhere';
type Host = 'service' | 'other' | 'backup';
type SideLookup = 'dmarc' | 'mx' | 'bounce';

interface Dmarc {
  p?: 'none' | 'quarantine' | 'reject' | 'bogus';
  aspf?: 's' | 'r';
}

export interface ZoneCase {
  /** Verified with receiving on before the zone changes (else the domain is still pending). */
  receiving: boolean;
  dkim: Dkim[];
  dmarc: Dmarc | null;
  mailFromMx: boolean;
  mailFromSpf: boolean;
  /** The domain's own MX records (only when receiving is on). */
  mx: { host: Host; priority: number }[];
  /** Side lookups that time out at the check. */
  timeouts: SideLookup[];
}

const HOSTS: Record<Exclude<Host, 'service'>, string> = { other: 'mx1.mail.example.net', backup: 'mx2.mail.example.net' };

// --- the reference: the spec's rules ---

function dmarcValue(d: Dmarc): string {
  return ['v=DMARC1', d.p ? `p=${d.p}` : undefined, d.aspf ? `aspf=${d.aspf}` : undefined, 'rua=mailto:reports@example.net'].filter(Boolean).join('; ');
}

/** dmarcStatus of one record, and whether the spec decides it (a bogus p, or aspf=s without p, it does not). */
export function dmarcStatusOf(d: Dmarc | null): { status: string; decided: boolean } {
  if (d === null) return { status: 'not_found', decided: true };
  const policy = d.p !== undefined && d.p !== 'bogus';
  if (!policy) return { status: 'not_found', decided: d.p === undefined && d.aspf !== 's' };
  if (d.aspf === 's') return { status: 'spf_strict', decided: true };
  return { status: d.p === 'none' ? 'monitor' : 'enforced', decided: true };
}

/** receivingStatus by the MX rule: the service MX present with strictly the lowest priority. */
export function receivingStatusOf(mx: ZoneCase['mx']): string {
  const service = mx.filter((m) => m.host === 'service').map((m) => m.priority);
  if (service.length === 0) return 'not_found';
  const best = Math.min(...service);
  return mx.some((m) => m.host !== 'service' && m.priority <= best) ? 'not_lowest_priority' : 'verified';
}

// --- driving one case ---

async function run(c: CaseContext, raw: Record<string, unknown>): Promise<boolean> {
  const r = await c.exec(raw);
  return r.status === 'passed';
}

async function drive(v: ZoneCase, c: CaseContext): Promise<string | undefined> {
  const d = `zone-${c.number(0)}.example.com`;
  c.set('d', d);
  const get = { operationId: 'getEmailDomain', params: { emailDomainId: '{{ id }}' } };
  if (!(await run(c, { name: 'register', request: { operationId: 'createEmailDomain', body: { domain: '{{ d }}' } }, save: { id: 'body.id' } }))) return undefined;
  // A domain left behind is re-checked every hour for as long as the target runs.
  c.afterCase({ request: { operationId: 'deleteEmailDomain', params: { emailDomainId: '{{ id }}' } } });
  const dkim = await c.exec({ name: 'plant the DKIM CNAMEs', control: { method: 'POST', path: '/dns/plant', body: { emailDomainId: '{{ id }}', purposes: ['dkim'] } }, save: { k0: 'body.records[0].name', k1: 'body.records[1].name', k2: 'body.records[2].name' } });
  if (dkim.status !== 'passed') return undefined;

  if (v.receiving) {
    await run(c, { name: 'verify', request: { operationId: 'verifyEmailDomain', params: { emailDomainId: '{{ id }}' } }, expect: { body: { status: 'verified' } }, clauses: ['email-domain.transition.pending-to-verified'] });
    await run(c, { name: 'receiving on', request: { operationId: 'updateEmailDomain', params: { emailDomainId: '{{ id }}' }, body: { receivingEnabled: true } }, expect: { body: { receivingEnabled: true } }, clauses: ['email-domain.field.receiving-verified-only'] });
    await run(c, { name: 'plant the inbound MX', control: { method: 'POST', path: '/dns/plant', body: { emailDomainId: '{{ id }}', purposes: ['inbound'] } }, save: { service: 'body.records[0].value' } });
    // A first MX check, so that "unchanged" has a value to keep.
    await run(c, { name: 'verify', request: { operationId: 'verifyEmailDomain', params: { emailDomainId: '{{ id }}' } } });
  }

  // The zone of the case.
  for (const [i, how] of v.dkim.entries()) {
    if (how === 'absent') await run(c, { name: `DKIM ${i}: removed`, control: { method: 'DELETE', path: `/dns/records/{{ k${i} }}` } });
    if (how === 'elsewhere') await run(c, { name: `DKIM ${i}: points elsewhere`, control: { method: 'PUT', path: `/dns/records/{{ k${i} }}`, body: { records: [{ type: 'CNAME', value: 'elsewhere.dkim.example.net' }] } } });
  }
  if (v.dmarc) await run(c, { name: 'DMARC record', control: { method: 'PUT', path: '/dns/records/_dmarc.{{ d }}', body: { records: [{ type: 'TXT', value: dmarcValue(v.dmarc) }] } } });
  const mailFrom = [...(v.mailFromMx ? ['mail_from_mx'] : []), ...(v.mailFromSpf ? ['mail_from_spf'] : [])];
  if (mailFrom.length) await run(c, { name: 'MAIL FROM records', control: { method: 'POST', path: '/dns/plant', body: { emailDomainId: '{{ id }}', purposes: mailFrom } } });
  if (v.receiving) {
    const records = v.mx.map((m) => ({ type: 'MX', value: m.host === 'service' ? '{{ service }}' : HOSTS[m.host], priority: m.priority }));
    await run(c, { name: 'MX records', control: { method: 'PUT', path: '/dns/records/{{ d }}', body: { records } } });
  }
  const names: Record<SideLookup, string> = { dmarc: '_dmarc.{{ d }}', mx: '{{ d }}', bounce: 'bounce.{{ d }}' };
  for (const t of v.timeouts) await run(c, { name: `${t} lookup times out`, control: { method: 'POST', path: '/dns/failures', body: { kind: 'timeout', name: names[t] } } });

  if (!(await run(c, { name: 'before the check', request: get, save: { before: 'body' }, clauses: ['email-domain.get.stored-state'] }))) return undefined;
  await run(c, { name: 'time passes', control: { advance: { seconds: 60 } } });
  await run(c, { name: 'verification request', request: { operationId: 'verifyEmailDomain', params: { emailDomainId: '{{ id }}' } }, expectSim: { status: 200 } });
  for (const t of v.timeouts) await run(c, { name: `lift the ${t} timeout`, control: { method: 'DELETE', path: `/dns/failures?name=${names[t]}` } });

  // What the spec says the check leaves.
  const before = c.saved('before') as Record<string, unknown>;
  const dkimFound = v.dkim.every((x) => x === 'planted');
  const status = dkimFound ? 'verified' : v.receiving ? 'failed' : 'pending';
  const read = (name: string, clauses: string[], level: Level, body: Record<string, unknown>) => run(c, { name, request: get, [expectKey(level)]: { status: 200, body }, clauses });

  await read('status follows DKIM', dkimFound ? ['email-domain.transition.pending-to-verified', 'email-domain.dns-record.dkim-all-planted'] : v.receiving ? ['email-domain.transition.verified-to-failed'] : ['email-domain.transition.pending-stays-pending', 'email-domain.dns-record.dkim-all-planted'], 'spec', { status });
  await read('pendingExpiresAt only while pending', ['email-domain.field.pending-expires-at-null'], 'spec', { $oneOf: [{ status: 'pending' }, { pendingExpiresAt: null }] });
  // A side lookup that fails may or may not count as the provider lookup failing; without one, the check was a successful lookup.
  const checked = before.lastCheckedAt === null ? { $type: 'datetime' } : { $gt: before.lastCheckedAt };
  await read('lastCheckedAt moves on a successful lookup', ['email-domain.field.last-checked-at'], v.timeouts.length ? 'sim' : 'spec', { lastCheckedAt: checked });

  // DMARC: the spec's reading when the domain is verified; a pending domain's DMARC is the simulator's business.
  if (v.timeouts.includes('dmarc')) {
    await read('a failed DMARC lookup leaves dmarcStatus', ['email-domain.dmarc-status.lookup-failure-unchanged'], dkimFound ? 'spec' : 'sim', { dmarcStatus: before.dmarcStatus });
  } else {
    const dm = dmarcStatusOf(v.dmarc);
    await read(`dmarcStatus ${dm.status}`, [`email-domain.dmarc-status.${dm.status.replace('_', '-')}`], dkimFound && dm.decided ? 'spec' : 'sim', { dmarcStatus: dm.status });
    await read(v.dmarc ? 'no dmarc suggestion once a record is seen' : 'the dmarc suggestion while none is seen', v.dmarc ? ['email-domain.dns-record.dmarc-omitted-when-existing'] : ['email-domain.dns-record.recommended'], dkimFound ? 'spec' : 'sim', {
      dnsRecords: { $filter: { where: { purpose: 'dmarc' }, then: { $length: v.dmarc ? 0 : 1 } } },
    });
  }
  if (v.dmarc && dkimFound) await read('DMARC blocks nothing', ['email-domain.dmarc-status.never-blocks'], 'spec', { status });

  // MAIL FROM: found when both records are there, still looked for when neither is; half planted is the simulator's reading.
  if (v.timeouts.includes('bounce')) {
    // Detection starts with the first verification (the simulator's choice); a failed lookup then neither finds nor gives up.
    const kept = before.mailFromStatus === null && dkimFound ? 'pending' : before.mailFromStatus;
    await read('a failed MAIL FROM lookup leaves mailFromStatus', ['email-domain.field.mail-from-status'], 'sim', { mailFromStatus: kept });
  } else if (dkimFound) {
    const both = v.mailFromMx && v.mailFromSpf;
    const none = !v.mailFromMx && !v.mailFromSpf;
    await read(`mailFromStatus ${both ? 'verified' : 'pending'}`, [both ? 'email-domain.mail-from-status.verified' : 'email-domain.mail-from-status.pending'], both || none ? 'spec' : 'sim', { mailFromStatus: both ? 'verified' : 'pending' });
    if (!both) await read('MAIL FROM not found leaves the domain verified', ['email-domain.mail-from-status.independent'], 'spec', { status });
  }

  // Receiving: the MX rule, or unchanged when the MX lookup fails.
  if (v.receiving) {
    if (v.timeouts.includes('mx')) {
      await read('a failed MX lookup leaves receivingStatus', ['email-domain.receiving-status.lookup-failure-unchanged', 'email-domain.receiving-status.transient-keeps-verified'], 'spec', { receivingStatus: before.receivingStatus });
      await read('and receivingCheckedAt', ['email-domain.receiving-status.lookup-failure-unchanged', 'email-domain.field.receiving-checked-at'], 'spec', { receivingCheckedAt: before.receivingCheckedAt });
    } else {
      const rs = receivingStatusOf(v.mx);
      await read(`receivingStatus ${rs}`, [`email-domain.receiving-status.${rs.replace(/_/g, '-')}`], dkimFound ? 'spec' : 'sim', { receivingStatus: rs });
      await read('the MX lookup moved receivingCheckedAt', ['email-domain.field.receiving-checked-at'], dkimFound ? 'spec' : 'sim', {
        receivingCheckedAt: before.receivingCheckedAt === null ? { $type: 'datetime' } : { $gt: before.receivingCheckedAt },
      });
    }
  } else {
    await read('receiving off: receivingStatus null', ['email-domain.field.receiving-status-null-when-off'], 'spec', { receivingEnabled: false, receivingStatus: null });
  }
  return undefined;
}

const dmarc: fc.Arbitrary<Dmarc | null> = fc.option(
  fc.record({ p: fc.constantFrom('none', 'quarantine', 'reject', 'bogus'), aspf: fc.constantFrom('s', 'r') }, { requiredKeys: [] }) as fc.Arbitrary<Dmarc>,
  { nil: null, freq: 4 },
);
const mostlyPlanted = fc.constantFrom<Dkim>('planted', 'planted', 'planted', 'absent', 'elsewhere');
// Few distinct priorities, so that ties come up often.
const mx = fc.array(fc.record({ host: fc.constantFrom<Host>('service', 'service', 'other', 'backup'), priority: fc.constantFrom(0, 5, 10, 10, 20) }), { maxLength: 3 });

export const zoneArbitrary: fc.Arbitrary<ZoneCase> = fc.record({
  receiving: fc.boolean(),
  dkim: fc.tuple(mostlyPlanted, mostlyPlanted, mostlyPlanted),
  dmarc,
  mailFromMx: fc.boolean(),
  mailFromSpf: fc.boolean(),
  mx,
  timeouts: fc.subarray<SideLookup>(['dmarc', 'mx', 'bounce'], { maxLength: 2 }),
});

export const emailDomainZoneProperty: PropertyDef = generatedProperty<ZoneCase>({
  id: 'email-domain-zone',
  description: 'any generated DNS zone (DKIM, DMARC, MAIL FROM, MX, failing lookups) leaves the statuses the spec\'s rules say after a verification request, and never a server error',
  clauses: [
    'email-domain.transition.pending-to-verified',
    'email-domain.transition.pending-stays-pending',
    'email-domain.transition.verified-to-failed',
    'email-domain.dns-record.dkim-all-planted',
    'email-domain.receiving-status.verified',
    'email-domain.receiving-status.not-found',
    'email-domain.receiving-status.not-lowest-priority',
    'email-domain.dmarc-status.monitor',
    'email-domain.dmarc-status.enforced',
    'email-domain.dmarc-status.spf-strict',
  ],
  tags: ['email-domains', 'dns', 'property'],
  requires: ['writes', 'dns', 'clock'],
  level: 'spec',
  numRuns: 40,
  // Domains registered in a fresh account leave the given accounts' lists as they were.
  ownAccount: { numbers: 0 },
  arbitrary: zoneArbitrary,
  // The statuses, and no server error on the way (the checks see every response).
  counts: (a) => a.id.startsWith('expect') || a.id === 'check:no-server-error',
  drive,
});
