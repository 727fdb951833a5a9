// Checks the clause catalogue conformance/clauses.yaml (format: conformance/clauses.schema.json,
// guide: docs/clauses.md). The spec lives outside the repository and may be absent in CI, so its
// headings are copied below instead of being read; update SPEC_SECTIONS when the spec's headings change.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const catalogueUrl = new URL('../clauses.yaml', import.meta.url);
const schemaUrl = new URL('../clauses.schema.json', import.meta.url);

/** Area prefixes an id may start with (fixed by the issue). */
const AREAS = [
  'conventions', 'auth', 'errors', 'limits', 'versioning', 'events', 'usage',
  'sip-endpoint', 'sip-route', 'sip-ip-acl', 'sip-credential', 'mcp-connection', 'email-domain',
  'blocked-caller', 'blocked-recipient', 'call-flow', 'assignment-link', 'verification', 'call',
  'call-batch', 'message', 'transcript', 'summary',
] as const;

const KINDS = ['rule', 'field', 'transition', 'endpoint', 'error', 'limit', 'auth', 'event', 'versioning'] as const;

const ID_PATTERN = /^[a-z0-9-]+(\.[a-z0-9-]+)+$/;
const REQUIRED_KEYS = ['id', 'section', 'kind', 'text', 'observable'] as const;
const OPTIONAL_KEYS = ['retired'] as const;
const MAX_TEXT = 240;

/**
 * Every heading of the spec below its title, as "H2" or "H2 / H3", in the spec's order.
 * Clauses must name one of these and appear in this order.
 */
const SPEC_SECTIONS = [
  'What the service does',
  'What the service does / Conventions',
  'Resources and their fields',
  'Resources and their fields / Usage result',
  'Resources and their fields / SIP endpoint',
  'Resources and their fields / SIP route',
  'Resources and their fields / SIP IP ACL',
  'Resources and their fields / SIP credential',
  'Resources and their fields / External MCP connection',
  'Resources and their fields / Email domain',
  'Resources and their fields / Blocked caller (inbound call block)',
  'Resources and their fields / Blocked recipient (opt-out)',
  'Resources and their fields / Call flow',
  'Resources and their fields / Assignment link',
  'Resources and their fields / Verification (one-time code)',
  'Resources and their fields / Call',
  'Resources and their fields / Call batch',
  'Resources and their fields / Message',
  'Resources and their fields / Transcript',
  'Resources and their fields / Summary',
  'States and transitions',
  'States and transitions / Assignment link',
  'States and transitions / External MCP connection',
  'States and transitions / Email domain',
  'States and transitions / Verification',
  'States and transitions / Blocked caller and blocked recipient',
  'States and transitions / SIP endpoint, route and credential',
  'States and transitions / States without moves',
  'Endpoints',
  'Endpoints / Usage aggregation',
  'Endpoints / SIP endpoint update',
  'Endpoints / SIP route list',
  'Endpoints / IP ACL create',
  'Endpoints / SIP credential update',
  'Endpoints / MCP connection test',
  'Endpoints / Email domains',
  'Endpoints / Blocked callers',
  'Endpoints / Blocked recipient update',
  'Endpoints / Call flows',
  'Endpoints / Calls',
  'Endpoints / Call batch get',
  'Endpoints / Message get',
  'Endpoints / Assignment links',
  'Endpoints / Verification list',
  'Endpoints / Webhook registration',
  'Authentication',
  'Events',
  'Events / callflow.ended',
  'Events / assignment.completed',
  'Events / Other events',
  'Errors',
  'Limits',
  'Versioning',
] as const;

/** Parent headings whose own text holds no statement (all of it is in their subsections). */
const SECTIONS_WITHOUT_OWN_CLAUSES = new Set<string>([
  'Resources and their fields',
  'States and transitions',
  'Endpoints',
  'Events',
]);

/** The catalogue may grow but never shrink: entries are retired, not deleted. Raise when adding. */
const MIN_CLAUSES = 508;

/** Ids other branches' scenarios already reference; renaming any of them breaks those scenarios. */
const PINNED_IDS = [
  'conventions.phone-normalization',
  'errors.422-recipient-blocked',
  'errors.400-invalid-phone-number',
  'errors.404-email-domain-not-found',
  'errors.400-validation',
  'errors.401',
  'errors.403-other-account',
  'errors.body-shape',
  'limits.page-size',
  'limits.ip-acl-cidrs',
  'auth.bearer-required',
  'auth.other-account-403',
  'auth.overseas-ip-blocked',
  'events.callflow-ended.status-string',
  'events.callflow-ended.variables-truncated',
  'events.at-least-once',
  'blocked-caller.field.active',
  'blocked-caller.field.created-by-null-for-api-key',
  'blocked-caller.field.unblocked-at',
  'blocked-caller.list.number-filter',
  'blocked-caller.list.status-filter',
  'blocked-caller.list.newest-first',
  'blocked-caller.list.total',
  'blocked-caller.get.released-entries',
  'blocked-caller.release.keeps-history',
  'blocked-recipient.field.channel',
  'blocked-recipient.field.source',
  'blocked-recipient.update.note-clear',
  'blocked-recipient.update.note-omitted',
  'blocked-recipient.update.number-channel-immutable',
  'blocked-recipient.release.keeps-history',
  'blocked-recipient.channel-separate-entries',
];

interface Clause {
  id: string;
  section: string;
  kind: string;
  text: string;
  observable: boolean;
  retired?: boolean;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every problem of a parsed catalogue, as readable strings; empty when the catalogue is valid. */
function problems(doc: unknown): string[] {
  const out: string[] = [];
  if (!isRecord(doc)) return ['the file is not a mapping'];
  for (const key of Object.keys(doc)) if (key !== 'version' && key !== 'clauses') out.push(`unknown top-level key ${key}`);
  if (doc.version !== 1) out.push(`version must be 1, got ${JSON.stringify(doc.version)}`);
  if (!Array.isArray(doc.clauses)) return [...out, 'clauses must be a list'];

  const seen = new Map<string, number>();
  const sectionIndex = new Map<string, number>(SPEC_SECTIONS.map((s, i) => [s, i]));
  let lastSection = -1;
  doc.clauses.forEach((entry: unknown, i: number) => {
    const at = `clauses[${i}]`;
    if (!isRecord(entry)) {
      out.push(`${at} is not a mapping`);
      return;
    }
    const where = typeof entry.id === 'string' ? `${at} (${entry.id})` : at;
    for (const key of REQUIRED_KEYS) if (!(key in entry)) out.push(`${where} lacks ${key}`);
    for (const key of Object.keys(entry)) {
      if (!(REQUIRED_KEYS as readonly string[]).includes(key) && !(OPTIONAL_KEYS as readonly string[]).includes(key)) out.push(`${where} has unknown key ${key}`);
    }

    const { id, section, kind, text, observable, retired } = entry;
    if (typeof id !== 'string' || !ID_PATTERN.test(id)) {
      out.push(`${where} id must match ${ID_PATTERN}`);
    } else {
      const area = id.split('.')[0]!;
      if (!(AREAS as readonly string[]).includes(area)) out.push(`${where} has unknown area ${area}`);
      const first = seen.get(id);
      if (first !== undefined) out.push(`${where} repeats the id of clauses[${first}]`);
      else seen.set(id, i);
    }

    if (typeof section !== 'string' || !sectionIndex.has(section)) {
      out.push(`${where} section ${JSON.stringify(section)} is not a heading of the spec`);
    } else {
      const index = sectionIndex.get(section)!;
      if (index < lastSection) out.push(`${where} is out of spec order: section "${section}" comes before "${SPEC_SECTIONS[lastSection]}"`);
      lastSection = Math.max(lastSection, index);
    }

    if (typeof kind !== 'string' || !(KINDS as readonly string[]).includes(kind)) out.push(`${where} kind ${JSON.stringify(kind)} is not one of ${KINDS.join(', ')}`);

    if (typeof text !== 'string' || text.length === 0) {
      out.push(`${where} text must be a non-empty string`);
    } else {
      if (text.length > MAX_TEXT) out.push(`${where} text is longer than ${MAX_TEXT} characters`);
      if (text !== text.trim() || /\s{2,}|\n/.test(text)) out.push(`${where} text must be one line without stray whitespace`);
      // A sentence that does not end in a full stop is usually a YAML plain scalar cut short by " #".
      if (!text.endsWith('.')) out.push(`${where} text must be one sentence ending with a full stop`);
    }

    if (typeof observable !== 'boolean') out.push(`${where} observable must be a boolean`);
    if (retired !== undefined && typeof retired !== 'boolean') out.push(`${where} retired must be a boolean`);
  });

  const covered = new Set((doc.clauses as unknown[]).filter(isRecord).filter((c) => c.retired !== true).map((c) => c.section));
  for (const section of SPEC_SECTIONS) {
    if (!SECTIONS_WITHOUT_OWN_CLAUSES.has(section) && !covered.has(section)) out.push(`spec section "${section}" has no clause`);
  }
  return out;
}

const source = readFileSync(catalogueUrl, 'utf8');
const doc = parse(source) as { version: number; clauses: Clause[] };
const clauses = doc.clauses;

describe('clause catalogue', () => {
  it('is valid: shape, unique ids, known areas, spec sections in spec order, every section covered', () => {
    expect(problems(doc)).toEqual([]);
  });

  it(`has at least ${MIN_CLAUSES} clauses (entries are retired, never deleted)`, () => {
    expect(clauses.length).toBeGreaterThanOrEqual(MIN_CLAUSES);
  });

  it('keeps the ids other branches reference', () => {
    const ids = new Set(clauses.filter((c) => c.retired !== true).map((c) => c.id));
    expect(PINNED_IDS.filter((id) => !ids.has(id))).toEqual([]);
  });

  it('has clauses in every area and of every kind', () => {
    const areas = new Set(clauses.map((c) => c.id.split('.')[0]));
    expect(AREAS.filter((a) => !areas.has(a))).toEqual([]);
    const kinds = new Set(clauses.map((c) => c.kind));
    expect(KINDS.filter((k) => !kinds.has(k))).toEqual([]);
  });

  it('marks only a minority of clauses as unobservable', () => {
    const hidden = clauses.filter((c) => !c.observable).length;
    expect(hidden).toBeGreaterThan(0);
    expect(hidden / clauses.length).toBeLessThan(0.1);
  });

  it('agrees with the published JSON Schema on ids, kinds and keys', () => {
    const schema = JSON.parse(readFileSync(schemaUrl, 'utf8'));
    const clause = schema.$defs.clause;
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.properties.version.const).toBe(1);
    expect(clause.properties.id.pattern).toBe(ID_PATTERN.source);
    expect(clause.properties.kind.enum).toEqual([...KINDS]);
    expect(clause.required).toEqual([...REQUIRED_KEYS]);
    expect(Object.keys(clause.properties).sort()).toEqual([...REQUIRED_KEYS, ...OPTIONAL_KEYS].sort());
    expect(clause.additionalProperties).toBe(false);
    expect(clause.properties.text.maxLength).toBe(MAX_TEXT);
  });
});

describe('catalogue checks catch broken catalogues', () => {
  const good = (over: Partial<Clause> = {}): Clause => ({
    id: 'conventions.example',
    section: 'What the service does / Conventions',
    kind: 'rule',
    text: 'An example.',
    observable: true,
    ...over,
  });
  // A catalogue with one clause per section that needs one, so only the mutation under test fails.
  const base = (): Clause[] =>
    SPEC_SECTIONS.filter((s) => !SECTIONS_WITHOUT_OWN_CLAUSES.has(s)).map((section, i) => good({ id: `conventions.example-${i}`, section }));
  const check = (extra: object[], top: Record<string, unknown> = {}) => problems({ version: 1, clauses: [...base(), ...extra], ...top });

  it('accepts the minimal valid catalogue and a retired clause', () => {
    expect(problems({ version: 1, clauses: base() })).toEqual([]);
    expect(check([good({ id: 'versioning.old', section: 'Versioning', retired: true })])).toEqual([]);
  });

  it('rejects a bad id, an unknown area and a duplicate id', () => {
    expect(check([good({ id: 'Conventions.Upper', section: 'Versioning' })]).join()).toMatch(/id must match/);
    expect(check([good({ id: 'conventions', section: 'Versioning' })]).join()).toMatch(/id must match/);
    expect(check([good({ id: 'conventions.under_score', section: 'Versioning' })]).join()).toMatch(/id must match/);
    expect(check([good({ id: 'sms.thing', section: 'Versioning' })]).join()).toMatch(/unknown area sms/);
    expect(check([good({ id: 'conventions.example-0', section: 'Versioning' })]).join()).toMatch(/repeats the id/);
  });

  it('rejects an unknown section, out-of-order sections and an uncovered section', () => {
    expect(check([good({ id: 'versioning.x', section: 'Versioning / Nope' })]).join()).toMatch(/not a heading of the spec/);
    expect(check([good({ id: 'versioning.x', section: 'Conventions' })]).join()).toMatch(/not a heading of the spec/);
    expect(check([good({ id: 'conventions.late', section: 'What the service does' })]).join()).toMatch(/out of spec order/);
    const withoutLimits = base().filter((c) => c.section !== 'Limits');
    expect(problems({ version: 1, clauses: withoutLimits })).toEqual(['spec section "Limits" has no clause']);
  });

  it('rejects bad kinds, texts, flags and keys', () => {
    expect(check([good({ id: 'versioning.a', section: 'Versioning', kind: 'note' })]).join()).toMatch(/kind "note"/);
    expect(check([good({ id: 'versioning.b', section: 'Versioning', text: 'Cut short by a comment' })]).join()).toMatch(/full stop/);
    expect(check([good({ id: 'versioning.c', section: 'Versioning', text: `${'x'.repeat(MAX_TEXT)}.` })]).join()).toMatch(/longer than/);
    expect(check([good({ id: 'versioning.d', section: 'Versioning', text: 'Two\nlines.' })]).join()).toMatch(/one line/);
    expect(check([{ ...good({ id: 'versioning.e', section: 'Versioning' }), observable: 'yes' }]).join()).toMatch(/observable must be a boolean/);
    expect(check([{ ...good({ id: 'versioning.f', section: 'Versioning' }), retired: 'no' }]).join()).toMatch(/retired must be a boolean/);
    expect(check([{ ...good({ id: 'versioning.g', section: 'Versioning' }), owner: 'me' }]).join()).toMatch(/unknown key owner/);
    const { observable: _dropped, ...noFlag } = good({ id: 'versioning.h', section: 'Versioning' });
    expect(check([noFlag]).join()).toMatch(/lacks observable/);
  });

  it('rejects a wrong version and unknown top-level keys', () => {
    expect(check([], { version: 2 }).join()).toMatch(/version must be 1/);
    expect(check([], { extra: true }).join()).toMatch(/unknown top-level key extra/);
    expect(problems({ version: 1 })).toEqual(['clauses must be a list']);
  });
});
