// The paged lists the properties exercise, and how to put a row into each. A resource family
// that adds a standard list adds an entry here; the paging, filter and phone properties pick it
// up.
import type { StepResult } from '../result.ts';
import type { CaseContext, RawStep } from './harness.ts';

/** The steps that make one row: `step` saves the row's id; `before` and `after` script around it. */
export interface RowSteps {
  before?: RawStep[];
  step: RawStep;
  after?: RawStep[];
}

/** Query parameters a list filters on besides the number (each with the values to try). */
export type FilterParam = 'status' | 'channel' | 'type';

export interface PagedList {
  /** The list operation (standard paging). */
  list: string;
  /** The level of facts about this list: `spec` when the spec shows the list operation. */
  level: 'spec' | 'sim';
  /** Field of a row holding its id (default `id`). */
  idField?: string;
  /** Field of a row holding the number it was made for, in variants 0 and 1 (default `number`). */
  numberField?: string;
  /** Query parameter of the number filter (default `number`). */
  numberParam?: string;
  /** The number filter matches either side of a row (`from` or `to`: the message list). */
  numberEitherSide?: boolean;
  /** Query that lists every row whatever its state (default none: the list has no state filter default). */
  everyRow?: Record<string, string>;
  /** Capabilities the list's properties need besides `writes` (a fresh account to send from, the carrier...). */
  requires?: string[];
  /**
   * Body of the fresh account the properties make rows in when they make one. A list that sets
   * it always works in a fresh account (its `requires` then names `accounts`); the others use
   * the main account when the target cannot make accounts.
   */
  account?: Record<string, unknown>;
  clauses: {
    /** Clauses of the paging facts. */
    paging: string[];
    /** Clauses of the list's own defaults (page 0, 20 rows), besides the conventions. */
    pagingDefaults?: string[];
    /** Clauses of `total` counting the filter's rows. */
    total: string[];
    /** Clauses of the filters as a whole. */
    filters: string[];
    /** By filter: `number`, each FilterParam, and `defaultStatus` (status left out, where that filters). */
    filterBy: Partial<Record<FilterParam | 'number' | 'defaultStatus', string[]>>;
    /** Clauses of released rows kept as history. */
    history: string[];
  };
  /** How many kinds of row `create` makes (default 2); `variant` runs from 0 to variants - 1. */
  variants?: number;
  /** The steps that make a row for this number, saving the new row's id under `saveAs`. */
  create(number: string, as: string, saveAs: string, variant: number): RowSteps;
  /** The release step of a row (kept as history, or moved to a final state), or undefined when rows cannot be released. */
  release?(idName: string, as: string): RawStep;
  /** The step that removes a row the property made, where rows cost the target work while they exist (domains are re-checked hourly). */
  remove?(idName: string, as: string): RawStep;
  /** Whether a row of this variant can be released (default: every row). */
  releasable?(variant: number): boolean;
  /** What the list's filters see of a row of this variant, released or not (`status`, `channel`, `type`). */
  attrs(variant: number, released: boolean): Partial<Record<FilterParam, string>>;
  /** What the list's filters see of a row as the list answers it (rows found on the target, read-only runs). */
  rowAttrs?(row: Record<string, unknown>): Partial<Record<FilterParam, string>>;
  /** Filters this list takes besides paging, with the values to try. */
  filters: { number: boolean } & Partial<Record<FilterParam, readonly string[]>>;
  /** Status semantics: the value that selects every row, and the status a list shows when none is given. */
  status?: { all?: string; default?: string };
  /** Registering a number that already has an active row returns that row (the block lists). */
  dedupes?: boolean;
}

export const FILTER_PARAMS: readonly FilterParam[] = ['status', 'channel', 'type'];

export const idFieldOf = (l: PagedList) => l.idField ?? 'id';
export const numberFieldOf = (l: PagedList) => l.numberField ?? 'number';
export const numberParamOf = (l: PagedList) => l.numberParam ?? 'number';

const CHANNELS = ['call', 'message'] as const;
const LIST_CLAUSES = ['conventions.list-envelope', 'conventions.list-total-before-paging', 'conventions.paging.meta-echo'];
/** A list whose only clauses are the conventions' paging rules. */
const PAGING_ONLY: PagedList['clauses'] = { paging: LIST_CLAUSES, total: ['conventions.list-total-before-paging'], filters: [], filterBy: {}, history: [] };
const activeOrReleased = (released: boolean) => (released ? 'released' : 'active');

/** Lists of what an account sends: rows are made in a fresh account with one number to send from, some states through the carrier. */
const SENDING = { requires: ['accounts', 'carrier', 'clock'], account: { numbers: 1 } };

/** A control step of the carrier: the next delivery of `type` to `number` ends with `outcome`, due at once. */
function scriptNext(number: string, outcome: string, type: string): RawStep {
  return { name: `the next ${type} to the number ends ${outcome}`, control: { method: 'POST', path: '/carrier/scripts', body: { number, outcome, types: [type], delaySeconds: 0, times: 1 } } };
}

/** The carrier reports what is due now (the scripted outcomes), and nothing later. */
const REPORT_NOW: RawStep = { name: 'the carrier reports what is due now', control: { advance: { seconds: 0 } } };

// Rows of the message list: a queued sms, a sent lms, a failed mms (scripted), and an inbound text.
const MESSAGE_ROWS = [
  { type: 'sms', status: 'queued' },
  { type: 'lms', status: 'sent' },
  { type: 'mms', status: 'failed' },
  { type: 'sms', status: 'received' },
] as const;

// Rows of the verification list: pending by text and by call (cancel moves them to canceled), and
// failed ones whose text fails or whose call is not answered (scripted).
const VERIFICATION_ROWS = [
  { channel: 'sms', outcome: undefined },
  { channel: 'call', outcome: undefined },
  { channel: 'sms', outcome: 'failed' },
  { channel: 'call', outcome: 'no-answer' },
] as const;

export const PAGED_LISTS: readonly PagedList[] = [
  {
    list: 'listBlockedCallers',
    level: 'spec',
    everyRow: { status: 'all' },
    clauses: {
      paging: LIST_CLAUSES,
      total: ['conventions.list-total-before-paging', 'blocked-caller.list.total'],
      filters: ['blocked-caller.list.number-filter', 'blocked-caller.list.status-filter', 'blocked-caller.list.status-default-active'],
      filterBy: { number: ['blocked-caller.list.number-filter'], status: ['blocked-caller.list.status-filter'], defaultStatus: ['blocked-caller.list.status-default-active'] },
      history: ['blocked-caller.release.keeps-history'],
    },
    create: (number, as, saveAs) => ({ step: { request: { operationId: 'createBlockedCaller', as, body: { number } }, save: { [saveAs]: 'body.id' } } }),
    release: (idName, as) => ({ request: { operationId: 'releaseBlockedCaller', as, params: { blockedCallerId: `{{ ${idName} }}` } } }),
    attrs: (_variant, released) => ({ status: activeOrReleased(released) }),
    rowAttrs: (row) => ({ status: activeOrReleased(row.active === false) }),
    filters: { number: true, status: ['active', 'released', 'all'] },
    status: { all: 'all', default: 'active' },
    dedupes: true,
  },
  {
    list: 'listBlockedRecipients',
    // The spec does not show listing recipients; the shape follows the public API document.
    level: 'sim',
    everyRow: { status: 'all' },
    clauses: {
      paging: LIST_CLAUSES,
      total: ['conventions.list-total-before-paging'],
      filters: ['blocked-recipient.channel-separate-entries'],
      filterBy: { channel: ['blocked-recipient.channel-separate-entries'] },
      history: ['blocked-recipient.release.keeps-history'],
    },
    create: (number, as, saveAs, variant) => ({
      step: { request: { operationId: 'createBlockedRecipient', as, body: { number, channel: CHANNELS[variant % 2] } }, save: { [saveAs]: 'body.id' } },
    }),
    release: (idName, as) => ({ request: { operationId: 'releaseBlockedRecipient', as, params: { blockId: `{{ ${idName} }}` } } }),
    attrs: (variant, released) => ({ status: activeOrReleased(released), channel: CHANNELS[variant % 2]! }),
    rowAttrs: (row) => ({ status: activeOrReleased(row.active === false), channel: String(row.channel) }),
    filters: { number: true, status: ['active', 'released', 'all'], channel: CHANNELS },
    status: { all: 'all', default: 'active' },
    dedupes: true,
  },
  {
    list: 'listEmailDomains',
    level: 'spec',
    clauses: PAGING_ONLY,
    // Each row a distinct domain; the number only makes the name unique to this case.
    create: (number, as, saveAs) => ({ step: { request: { operationId: 'createEmailDomain', as, body: { domain: `d${number}.paging.example.com` } }, save: { [saveAs]: 'body.id' } } }),
    remove: (idName, as) => ({ request: { operationId: 'deleteEmailDomain', as, params: { emailDomainId: `{{ ${idName} }}` } } }),
    attrs: () => ({}),
    filters: { number: false },
  },
  {
    list: 'listSipEndpoints',
    // Listing endpoints is not shown in the spec; the list follows the public API document.
    level: 'sim',
    requires: ['accounts'],
    account: { addons: ['sip_trunk'] },
    clauses: PAGING_ONLY,
    create: (number, as, saveAs) => ({ step: { request: { operationId: 'createSipEndpoint', as, body: { name: `trunk ${number}` } }, save: { [saveAs]: 'body.id' } } }),
    attrs: () => ({}),
    filters: { number: false },
  },
  {
    list: 'listSipIpAcls',
    // The spec does not show the list; the shape follows the public API document.
    level: 'sim',
    clauses: PAGING_ONLY,
    requires: ['accounts'],
    account: { numbers: 0, addons: ['sip_trunk'] },
    create: (number, as, saveAs) => ({ step: { request: { operationId: 'createSipIpAcl', as, body: { name: `acl ${number}` } }, save: { [saveAs]: 'body.id' } } }),
    attrs: () => ({}),
    filters: { number: false },
  },
  {
    list: 'listSipCredentials',
    level: 'sim',
    clauses: PAGING_ONLY,
    requires: ['accounts'],
    account: { numbers: 0, addons: ['sip_trunk'] },
    create: (number, as, saveAs) => ({ step: { request: { operationId: 'createSipCredential', as, body: { name: `cred ${number}`, username: `u${number}` } }, save: { [saveAs]: 'body.id' } } }),
    attrs: () => ({}),
    filters: { number: false },
  },
  {
    list: 'listMessages',
    // Listing messages is not shown in the spec; the shape follows the public API document.
    level: 'sim',
    idField: 'messageId',
    numberField: 'to',
    numberEitherSide: true,
    ...SENDING,
    clauses: PAGING_ONLY,
    variants: MESSAGE_ROWS.length,
    create: (number, as, saveAs, variant) => {
      const row = MESSAGE_ROWS[variant % MESSAGE_ROWS.length]!;
      const save = { [saveAs]: 'body.messageId' };
      const from = `{{ ${as}.numbers[0] }}`;
      if (row.status === 'received') {
        return { step: { name: 'an inbound text from the number', control: { method: 'POST', path: '/carrier/inbound', body: { from: number, to: from, body: 'property row' } }, save } };
      }
      const body: Record<string, unknown> = { To: number, From: from, Type: row.type, Body: 'property row' };
      if (row.type === 'mms') body.MediaUrl = ['https://img.example.com/property.jpg'];
      const step = { request: { operationId: 'sendMessage', as, body }, save };
      if (row.status === 'queued') return { step };
      return { before: [scriptNext(number, row.status === 'sent' ? 'delivered' : 'failed', row.type)], step, after: [REPORT_NOW] };
    },
    attrs: (variant) => ({ ...MESSAGE_ROWS[variant % MESSAGE_ROWS.length]! }),
    rowAttrs: (row) => ({ type: String(row.type), status: String(row.status) }),
    filters: { number: true, type: ['sms', 'lms', 'mms', 'ata'], status: ['queued', 'sent', 'failed', 'received'] },
  },
  {
    list: 'listVerifications',
    level: 'spec',
    idField: 'verificationId',
    numberField: 'to',
    numberParam: 'to',
    ...SENDING,
    clauses: {
      paging: LIST_CLAUSES,
      pagingDefaults: ['verification.list.paging'],
      total: ['conventions.list-total-before-paging'],
      filters: ['verification.list.to-filter', 'verification.list.status-filter', 'verification.list.channel-filter'],
      filterBy: { number: ['verification.list.to-filter'], status: ['verification.list.status-filter'], channel: ['verification.list.channel-filter'] },
      history: [],
    },
    variants: VERIFICATION_ROWS.length,
    create: (number, as, saveAs, variant) => {
      const row = VERIFICATION_ROWS[variant % VERIFICATION_ROWS.length]!;
      const step = { request: { operationId: 'createVerification', as, body: { to: number, channel: row.channel, from: `{{ ${as}.numbers[0] }}` } }, save: { [saveAs]: 'body.verificationId' } };
      return row.outcome ? { before: [scriptNext(number, row.outcome, row.channel)], step, after: [REPORT_NOW] } : { step };
    },
    // Cancelling ends a pending verification; the failed ones are final already.
    release: (idName, as) => ({ request: { operationId: 'cancelVerification', as, params: { verificationId: `{{ ${idName} }}` } } }),
    releasable: (variant) => VERIFICATION_ROWS[variant % VERIFICATION_ROWS.length]!.outcome === undefined,
    attrs: (variant, released) => {
      const row = VERIFICATION_ROWS[variant % VERIFICATION_ROWS.length]!;
      return { channel: row.channel, status: row.outcome ? 'failed' : released ? 'canceled' : 'pending' };
    },
    rowAttrs: (row) => ({ channel: String(row.channel), status: String(row.status) }),
    filters: { number: true, channel: ['sms', 'call'], status: ['pending', 'verified', 'expired', 'max_attempts', 'canceled', 'failed'] },
  },
];

/**
 * Runs the steps that make one row and answers the result of the step that saves its id (or of
 * the first step that did not pass). `extra` is merged into that step (a name, expectations).
 */
export async function makeRow(c: CaseContext, list: PagedList, number: string, as: string, saveAs: string, variant: number, extra: RawStep = {}): Promise<StepResult> {
  const steps = list.create(number, as, saveAs, variant);
  for (const s of steps.before ?? []) {
    const r = await c.exec(s);
    if (r.status !== 'passed') return r;
  }
  const made = await c.exec({ ...steps.step, ...extra, ...(steps.step.name && extra.name ? { name: `${String(extra.name)}: ${String(steps.step.name)}` } : {}) });
  if (made.status === 'passed') for (const s of steps.after ?? []) await c.exec(s);
  return made;
}

/**
 * The account a case makes its rows in: a fresh one named `name` when the list needs one or the
 * target can make one (`fresh`), else the main account.
 */
export async function rowAccount(c: CaseContext, list: PagedList, name: string): Promise<{ as: string; fresh: boolean }> {
  // Read-only, no rows are made: the case reads the main account's data as it is.
  if (!c.can('writes') || (!list.account && !c.can('accounts'))) return { as: 'main', fresh: false };
  await c.exec({ name: 'a fresh account', control: { createAccount: list.account ?? { numbers: 0 }, as: name } });
  return { as: name, fresh: true };
}
