// When a batch may dial: the round's windows (days 1 = Monday to 7 = Sunday, HH:MM start
// inclusive and end exclusive, read in the batch's time zone) and the legal calling hours
// (08:00 to 21:00 Korea time, whatever the windows say; reference createCallBatch). Pure
// functions of epoch milliseconds; the local time of a zone comes from Intl, cached per hour.
import type { WindowRow } from './schema.ts';

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
/** Korea has had no daylight saving time since 1988: its offset is fixed. */
const KOREA_OFFSET = 9 * HOUR;
export const LEGAL_START_MINUTE = 8 * 60;
export const LEGAL_END_MINUTE = 21 * 60;
/** Steps of the search for the next open instant before a window is called unsatisfiable. */
const SEARCH_STEPS = 64;

/** Whether Intl knows the zone (Node ships the full ICU data). */
export function knownTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Offset of a time zone from UTC at an instant, in ms; cached per zone and hour. */
export class ZoneOffsets {
  private readonly formats = new Map<string, Intl.DateTimeFormat>();
  private readonly cache = new Map<string, Map<number, number>>();

  offset(zone: string, t: number): number {
    if (zone === 'Asia/Seoul' || zone === 'UTC') return zone === 'UTC' ? 0 : KOREA_OFFSET;
    let byHour = this.cache.get(zone);
    if (!byHour) this.cache.set(zone, (byHour = new Map()));
    const hour = Math.floor(t / HOUR);
    let off = byHour.get(hour);
    if (off === undefined) {
      if (byHour.size > 50_000) byHour.clear();
      off = this.compute(zone, hour * HOUR);
      byHour.set(hour, off);
    }
    return off;
  }

  private compute(zone: string, t: number): number {
    let f = this.formats.get(zone);
    if (!f) {
      f = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
      this.formats.set(zone, f);
    }
    const p: Record<string, number> = {};
    for (const part of f.formatToParts(new Date(t))) if (part.type !== 'literal') p[part.type] = Number(part.value);
    const local = Date.UTC(p.year!, p.month! - 1, p.day!, p.hour! % 24, p.minute!, p.second!);
    return Math.round((local - t) / MINUTE) * MINUTE;
  }
}

/** The ISO day of week (1 = Monday) and the ms into the day of a local time. */
function localParts(localMs: number): { day: number; msOfDay: number; dayStart: number } {
  const dayNumber = Math.floor(localMs / DAY);
  const dayStart = dayNumber * DAY;
  // Day 0 (1970-01-01) was a Thursday, ISO day 4.
  return { day: ((((dayNumber + 3) % 7) + 7) % 7) + 1, msOfDay: localMs - dayStart, dayStart };
}

export function legalOpen(t: number): boolean {
  // The day's start by floor, not `%` twice: a remainder of epoch milliseconds (not a small
  // integer to the engine) is a library call, and every dial asks for each round.
  const local = t + KOREA_OFFSET;
  const ms = local - Math.floor(local / DAY) * DAY;
  return ms >= LEGAL_START_MINUTE * MINUTE && ms < LEGAL_END_MINUTE * MINUTE;
}

/** The 21:00 Korea time that ends the legal hours an open instant lies in. */
export function legalEnd(t: number): number {
  const local = t + KOREA_OFFSET;
  return Math.floor(local / DAY) * DAY + LEGAL_END_MINUTE * MINUTE - KOREA_OFFSET;
}

/** The next 08:00 Korea time strictly after a closed instant. */
export function nextLegalStart(t: number): number {
  const local = t + KOREA_OFFSET;
  const dayStart = Math.floor(local / DAY) * DAY;
  const start = dayStart + LEGAL_START_MINUTE * MINUTE;
  return (local < start ? start : start + DAY) - KOREA_OFFSET;
}

export class CallingTime {
  constructor(private readonly zones: ZoneOffsets) {}

  /** Whether a round with these windows (null: none) may dial at `t`. */
  open(windows: readonly WindowRow[] | null, zone: string, t: number): boolean {
    return legalOpen(t) && this.inWindow(windows, zone, t);
  }

  inWindow(windows: readonly WindowRow[] | null, zone: string, t: number): boolean {
    if (windows === null) return true;
    const { day, msOfDay } = localParts(t + this.zones.offset(zone, t));
    for (const w of windows) {
      if (msOfDay >= w.start * MINUTE && msOfDay < w.end * MINUTE && w.days.includes(day)) return true;
    }
    return false;
  }

  /**
   * The first instant at or after `t` when the round may dial, or undefined when none comes
   * within the search (a window that never meets the legal hours).
   */
  nextOpen(windows: readonly WindowRow[] | null, zone: string, t: number): number | undefined {
    let at = t;
    for (let i = 0; i < SEARCH_STEPS; i++) {
      const legal = legalOpen(at);
      if (legal && this.inWindow(windows, zone, at)) return at;
      const next = legal ? this.nextWindowStart(windows!, zone, at) : nextLegalStart(at);
      if (next === undefined) return undefined;
      at = Math.max(next, at + 1);
    }
    return undefined;
  }

  /**
   * Where the open stretch holding `t` (an instant `open` allows) ends: the legal hours' end or
   * the end of the windows `t` lies in, whichever comes first. A window that meets the next one
   * ends a stretch there; the next stretch starts at the same instant.
   */
  openUntil(windows: readonly WindowRow[] | null, zone: string, t: number): number {
    const legal = legalEnd(t);
    if (windows === null) return legal;
    const off = this.zones.offset(zone, t);
    const { day, msOfDay, dayStart } = localParts(t + off);
    let end = t;
    for (const w of windows) {
      if (w.days.includes(day) && msOfDay >= w.start * MINUTE && msOfDay < w.end * MINUTE) end = Math.max(end, dayStart + w.end * MINUTE - off);
    }
    return Math.min(legal, end);
  }

  /** The next start of one of the windows strictly after `t` (within eight days). */
  private nextWindowStart(windows: readonly WindowRow[], zone: string, t: number): number | undefined {
    const off = this.zones.offset(zone, t);
    const { day, dayStart } = localParts(t + off);
    const local = t + off;
    let best: number | undefined;
    for (let k = 0; k <= 8 && best === undefined; k++) {
      const isoDay = ((day - 1 + k) % 7) + 1;
      for (const w of windows) {
        if (!w.days.includes(isoDay)) continue;
        const start = dayStart + k * DAY + w.start * MINUTE;
        if (start > local && (best === undefined || start < best)) best = start;
      }
    }
    if (best === undefined) return undefined;
    // Back to UTC with the offset at the target (a daylight-saving change may lie in between).
    const guess = best - off;
    return best - this.zones.offset(zone, guess);
  }
}

/** "HH:MM" to minutes; `end` allows 24:00. Undefined when malformed. */
export function parseClock(text: string, end: boolean): number | undefined {
  const m = /^([01]\d|2[0-4]):([0-5]\d)$/.exec(text);
  if (!m) return undefined;
  const minutes = Number(m[1]) * 60 + Number(m[2]);
  if (minutes > 1440 || (minutes === 1440 && !end)) return undefined;
  return minutes;
}

export function clockText(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}
