// Billing cycles (usage rule 1): monthly, anchored at the instant the subscription started, not
// at the first of a month. Cycle k starts k calendar months after the start at the same UTC time
// of day; a day the month lacks is clamped to its last day (Jan 31 -> Feb 28 -> Mar 31), always
// counted from the original start so clamping never drifts.

const DAY_MS = 86_400_000;

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
}

/** `start` moved `months` calendar months later (UTC), the day clamped to the month's length. */
export function addMonths(start: number, months: number): number {
  const d = new Date(start);
  const total = d.getUTCMonth() + months;
  const year = d.getUTCFullYear() + Math.floor(total / 12);
  const month = ((total % 12) + 12) % 12;
  const day = Math.min(d.getUTCDate(), daysInMonth(year, month));
  return Date.UTC(year, month, day, d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds());
}

/** The cycle [from, to) that contains `now`; undefined before the subscription started. */
export function cycleAt(subscriptionStart: number, now: number): { from: number; to: number } | undefined {
  if (now < subscriptionStart) return undefined;
  const d0 = new Date(subscriptionStart);
  const d1 = new Date(now);
  // A first guess from the calendar months between the two, corrected by at most one step.
  let k = (d1.getUTCFullYear() - d0.getUTCFullYear()) * 12 + (d1.getUTCMonth() - d0.getUTCMonth());
  while (k > 0 && addMonths(subscriptionStart, k) > now) k--;
  while (addMonths(subscriptionStart, k + 1) <= now) k++;
  return { from: addMonths(subscriptionStart, k), to: addMonths(subscriptionStart, k + 1) };
}

/** Midnight UTC of the day containing `ms`. */
export function startOfUtcDay(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}

export function utcDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export const RANGE_DAY_MS = DAY_MS;
