// Reading and bounding the delivery journal: the control plane's filters over attempts and
// deliveries, the order attempts are listed in, and how much is kept. Pure functions over the
// engine's rows.
import { tryNormalizePhone } from '../../core/phone.ts';
import type { AttemptRow, DeliveryRow, JournalFilter } from './schema.ts';

/** Attempts (and finished deliveries) the journal keeps; the oldest finished ones go first. */
export const JOURNAL_LIMIT = 10_000;

function normalizedNumber(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const n = tryNormalizePhone(raw);
  return n.ok ? n.number : raw;
}

function matchesCommon(row: { event: string; resourceId: string; accountId: string; status: string }, f: JournalFilter): boolean {
  return (
    (f.event === undefined || row.event === f.event) &&
    (f.resourceId === undefined || row.resourceId === f.resourceId) &&
    (f.accountId === undefined || row.accountId === f.accountId) &&
    (f.status === undefined || row.status === f.status)
  );
}

/** In the order attempts started: virtual time, then delivery, then attempt number. */
function byStart(a: AttemptRow, b: AttemptRow): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? -1 : 1;
  if (a.deliveryId !== b.deliveryId) return a.deliveryId < b.deliveryId ? -1 : 1;
  return a.attempt - b.attempt;
}

export function filterAttempts(rows: readonly AttemptRow[], f: JournalFilter): AttemptRow[] {
  const number = normalizedNumber(f.number);
  return rows
    .filter(
      (a) =>
        matchesCommon(a, f) &&
        (f.webhookId === undefined || a.webhookId === f.webhookId) &&
        (number === undefined || a.number === number) &&
        (f.deliveryId === undefined || a.deliveryId === f.deliveryId),
    )
    .sort(byStart);
}

export function filterDeliveries(rows: readonly DeliveryRow[], f: JournalFilter): DeliveryRow[] {
  const number = normalizedNumber(f.number);
  return rows.filter(
    (d) =>
      matchesCommon(d, f) &&
      (f.webhookId === undefined || (d.target.kind === 'webhook' && d.target.webhookId === f.webhookId)) &&
      (number === undefined || (d.target.kind === 'number' && d.target.number === number)) &&
      (f.deliveryId === undefined || d.id === f.deliveryId),
  );
}

/**
 * Rows to keep when there are more than JOURNAL_LIMIT: all but the oldest tenth of those that
 * may go (finished ones). Undefined when nothing needs to go.
 */
export function withinLimit<T>(rows: readonly T[], mayGo: (row: T) => boolean): T[] | undefined {
  if (rows.length <= JOURNAL_LIMIT) return undefined;
  const drop = new Set(rows.filter(mayGo).slice(0, JOURNAL_LIMIT / 10));
  return rows.filter((r) => !drop.has(r));
}
