// The values a replay cannot expect to be equal (docs/decisions.md "Record and replay"): ids the
// implementation made up, secrets (placeholders in the recording), instants, random hex inside
// longer strings. A recorded id stands for whatever the target answered at the same place; once
// seen, it must be the same everywhere after (ValueMap), and requests carry the target's value.
import { isDatetime } from '../scenario/matchers.ts';
import { placeholderNumber } from '../recording/redact.ts';

/** Field names that hold ids. */
const ID_KEY = /(^id$|Id$|_id$|Sid$)/;
/** A prefix and a long hex run: how generated ids look (`bc_…`, `CA…`, `mcp_…`). */
const ID_VALUE = /^[A-Za-z]{1,6}[_-]?[0-9a-f]{12,}$/;
/** Random hex inside a longer string (a DKIM selector, a signed link). */
export const HEX_RUN = /[0-9a-f]{16,}/g;

export function isIdLike(key: string | undefined, v: unknown): v is string {
  if (typeof v !== 'string' || v.length < 3 || /\s/.test(v) || isDatetime(v)) return false;
  return ID_VALUE.test(v) || (key !== undefined && ID_KEY.test(key) && /^[A-Za-z0-9_.:-]+$/.test(v));
}

export function isPlaceholder(v: unknown): v is string {
  return typeof v === 'string' && placeholderNumber(v) !== undefined;
}

/** A string that merely holds random hex: the pattern it must match (hex runs generalised), or undefined. */
export function hexPattern(v: string): string | undefined {
  if (!HEX_RUN.test(v)) return undefined;
  HEX_RUN.lastIndex = 0;
  const parts = v.split(HEX_RUN);
  const runs = v.match(HEX_RUN)!;
  return `^${parts.map((p, i) => p.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&') + (i < runs.length ? `[0-9a-f]{${runs[i]!.length}}` : '')).join('')}$`;
}

/** A path in the kit's syntax: body.data[0].id. */
export function kitPath(parts: readonly (string | number)[]): string {
  return parts.reduce<string>((s, p) => (typeof p === 'number' ? `${s}[${p}]` : `${s}.${p}`), 'body');
}

/** Calls `visit` for each leaf of `recorded` with the value at the same place in `got` (undefined when there is none). */
export function walkPair(recorded: unknown, got: unknown, visit: (path: (string | number)[], rec: unknown, got: unknown, key: string | undefined) => void, path: (string | number)[] = [], key?: string): void {
  if (Array.isArray(recorded)) {
    recorded.forEach((r, i) => walkPair(r, Array.isArray(got) ? got[i] : undefined, visit, [...path, i], key));
  } else if (recorded && typeof recorded === 'object') {
    const g = got && typeof got === 'object' && !Array.isArray(got) ? (got as Record<string, unknown>) : {};
    for (const [k, r] of Object.entries(recorded)) walkPair(r, g[k], visit, [...path, k], k);
  } else {
    visit(path, recorded, got, key);
  }
}

/** Recorded values (ids, secret placeholders, account ids) and what stands for them at the target. */
export class ValueMap {
  private readonly map = new Map<string, string>();

  get(recorded: string): string | undefined {
    return this.map.get(recorded);
  }

  set(recorded: string, value: string): void {
    if (!this.map.has(recorded)) this.map.set(recorded, value);
  }

  /** Learns the ids and placeholders of a recorded body from the target's body at the same places. */
  learn(recorded: unknown, got: unknown): void {
    walkPair(recorded, got, (_, rec, g, key) => {
      if ((isIdLike(key, rec) || isPlaceholder(rec)) && typeof g === 'string') this.set(rec as string, g);
    });
  }

  /** A recorded value with every known recorded id in it replaced (whole strings and inside paths). */
  substitute(v: unknown): unknown {
    if (typeof v === 'string') return this.text(v);
    if (Array.isArray(v)) return v.map((x) => this.substitute(x));
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, this.substitute(x)]));
    return v;
  }

  text(s: string): string {
    const whole = this.map.get(s);
    if (whole !== undefined) return whole;
    let out = s;
    // Longest first, so that an id never replaces part of a longer one.
    for (const [rec, value] of [...this.map].sort((a, b) => b[0].length - a[0].length)) {
      if (rec.length >= 6 && out.includes(rec)) out = out.split(rec).join(value);
    }
    return out;
  }
}
