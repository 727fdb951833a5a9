// The paged lists the properties exercise, and how to put a row into each. A resource family
// that adds a standard list adds an entry here; the paging and filter properties pick it up.

export interface PagedList {
  /** The list operation (standard paging). */
  list: string;
  /** The level of facts about this list: `spec` when the spec shows the list operation. */
  level: 'spec' | 'sim';
  /** Clauses of the paging facts, of `total` (counts the filter's rows), of the filters (all, and by filter), and of released rows kept as history. */
  clauses: {
    paging: string[];
    total: string[];
    filters: string[];
    filterBy: { number: string[]; status: string[]; defaultStatus: string[]; channel: string[] };
    history: string[];
  };
  /** A create step for a row with this number, saving the new row's id under `saveAs`. */
  create(number: string, as: string, saveAs: string, variant: number): Record<string, unknown>;
  /** The release step of a row (kept as history), or undefined when rows cannot be released. */
  release?(idName: string, as: string): Record<string, unknown>;
  /** Filters this list takes besides paging, with the values to try. */
  filters: { number: boolean; status?: readonly string[]; channel?: readonly string[] };
  /** The channel of a created row for a variant (lists whose rows have one). */
  channelOf?(variant: number): string;
}

const CHANNELS = ['call', 'message'] as const;

export const PAGED_LISTS: readonly PagedList[] = [
  {
    list: 'listBlockedCallers',
    level: 'spec',
    clauses: {
      paging: ['conventions.list-envelope', 'conventions.list-total-before-paging', 'conventions.paging.meta-echo'],
      total: ['conventions.list-total-before-paging', 'blocked-caller.list.total'],
      filters: ['blocked-caller.list.number-filter', 'blocked-caller.list.status-filter', 'blocked-caller.list.status-default-active'],
      filterBy: { number: ['blocked-caller.list.number-filter'], status: ['blocked-caller.list.status-filter'], defaultStatus: ['blocked-caller.list.status-default-active'], channel: [] },
      history: ['blocked-caller.release.keeps-history'],
    },
    create: (number, as, saveAs) => ({ request: { operationId: 'createBlockedCaller', as, body: { number } }, save: { [saveAs]: 'body.id' } }),
    release: (idName, as) => ({ request: { operationId: 'releaseBlockedCaller', as, params: { blockedCallerId: `{{ ${idName} }}` } } }),
    filters: { number: true, status: ['active', 'released', 'all'] },
  },
  {
    list: 'listBlockedRecipients',
    // The spec does not show listing recipients; the shape follows the public API document.
    level: 'sim',
    clauses: {
      paging: ['conventions.list-envelope', 'conventions.list-total-before-paging', 'conventions.paging.meta-echo'],
      total: ['conventions.list-total-before-paging'],
      filters: ['blocked-recipient.channel-separate-entries'],
      filterBy: { number: [], status: [], defaultStatus: [], channel: ['blocked-recipient.channel-separate-entries'] },
      history: ['blocked-recipient.release.keeps-history'],
    },
    create: (number, as, saveAs, variant) => ({
      request: { operationId: 'createBlockedRecipient', as, body: { number, channel: CHANNELS[variant % 2] } },
      save: { [saveAs]: 'body.id' },
    }),
    release: (idName, as) => ({ request: { operationId: 'releaseBlockedRecipient', as, params: { blockId: `{{ ${idName} }}` } } }),
    filters: { number: true, status: ['active', 'released', 'all'], channel: CHANNELS },
    channelOf: (variant) => CHANNELS[variant % 2]!,
  },
  {
    list: 'listEmailDomains',
    level: 'spec',
    clauses: {
      paging: ['conventions.list-envelope', 'conventions.list-total-before-paging', 'conventions.paging.meta-echo'],
      total: ['conventions.list-total-before-paging'],
      filters: [],
      filterBy: { number: [], status: [], defaultStatus: [], channel: [] },
      history: [],
    },
    // Each row a distinct domain; the number only makes the name unique to this case.
    create: (number, as, saveAs) => ({ request: { operationId: 'createEmailDomain', as, body: { domain: `d${number}.paging.example.com` } }, save: { [saveAs]: 'body.id' } }),
    filters: { number: false },
  },
];
