import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { VirtualClock, RUNAWAY_LIMIT, canonicalInstant, iso, parseInstant } from '../core/clock.ts';
import { SeededRandom } from '../core/random.ts';
import { ApiError } from '../core/errors.ts';

const T0 = Date.parse('2026-03-02T00:00:00Z');

describe('VirtualClock', () => {
  it('runs due jobs in due-time order, then creation order', () => {
    const c = new VirtualClock(T0);
    const ran: string[] = [];
    c.on('note', (p: { name: string }) => ran.push(`${p.name}@${c.now() - T0}`));
    c.schedule('note', T0 + 3000, { name: 'c' });
    c.schedule('note', T0 + 1000, { name: 'a' });
    c.schedule('note', T0 + 1000, { name: 'b' });
    c.schedule('note', T0 + 2000, { name: 'x' });
    expect(c.advanceTo(T0 + 2500)).toBe(3);
    expect(ran).toEqual(['a@1000', 'b@1000', 'x@2000']);
    expect(c.now()).toBe(T0 + 2500);
    expect(c.advanceTo(T0 + 3000)).toBe(1);
    expect(ran.at(-1)).toBe('c@3000');
  });

  it('runs any mix of jobs (many at one instant, some cancelled, some scheduled by jobs) in (due, creation) order (property)', () => {
    const job = fc.record({ due: fc.integer({ min: 0, max: 40 }), cancel: fc.boolean(), spawn: fc.integer({ min: -1, max: 30 }) });
    fc.assert(
      fc.property(fc.array(job, { maxLength: 300 }), fc.integer({ min: 1, max: 9 }), (jobs, steps) => {
        const c = new VirtualClock(T0);
        const ran: [number, number][] = [];
        const expected: { due: number; id: number }[] = [];
        c.on('job', (p: { spawn: number }, j: { id: number }) => {
          ran.push([c.now() - T0, j.id]);
          // A job may schedule one more (at its own instant or later), which then runs in order too.
          if (p.spawn >= 0) expected.push({ due: Math.max(c.now(), T0 + p.spawn * 1000) - T0, id: c.schedule('job', T0 + p.spawn * 1000, { spawn: -1 }) });
        });
        for (const j of jobs) {
          const id = c.schedule('job', T0 + j.due * 1000, { spawn: j.spawn });
          if (j.cancel) c.cancel(id);
          else expected.push({ due: j.due * 1000, id });
        }
        for (let s = 1; s <= steps; s++) c.advanceTo(T0 + Math.ceil((40_000 * s) / steps));
        const order = [...expected].sort((a, b) => a.due - b.due || a.id - b.id).map((e) => [e.due, e.id]);
        expect(ran).toEqual(order);
        expect(c.pendingJobs()).toEqual([]);
      }),
      { seed: 20261127, numRuns: 200 },
    );
  });

  it('runs jobs scheduled by jobs when they fall inside the advance, each at its own instant', () => {
    const c = new VirtualClock(T0);
    const at: number[] = [];
    c.on('tick', (n: number) => {
      at.push(c.now() - T0);
      if (n > 0) c.scheduleIn('tick', 1000, n - 1);
    });
    c.scheduleIn('tick', 1000, 5);
    expect(c.advanceTo(T0 + 3500)).toBe(3);
    expect(at).toEqual([1000, 2000, 3000]);
    expect(c.advanceTo(T0 + 100_000)).toBe(3);
    expect(at).toEqual([1000, 2000, 3000, 4000, 5000, 6000]);
  });

  it('a job scheduled for "now" from inside a job runs after jobs already due at that instant', () => {
    const c = new VirtualClock(T0);
    const ran: string[] = [];
    c.on('n', (name: string) => {
      ran.push(name);
      if (name === 'first') c.schedule('n', c.now(), 'spawned');
    });
    c.schedule('n', T0 + 10, 'first');
    c.schedule('n', T0 + 10, 'second');
    c.advanceTo(T0 + 10);
    expect(ran).toEqual(['first', 'second', 'spawned']);
  });

  it('cancelled jobs never run', () => {
    const c = new VirtualClock(T0);
    const ran: number[] = [];
    c.on('n', (x: number) => ran.push(x));
    const a = c.scheduleIn('n', 10, 1);
    c.scheduleIn('n', 20, 2);
    c.cancel(a);
    expect(c.advanceTo(T0 + 100)).toBe(1);
    expect(ran).toEqual([2]);
  });

  it('refuses to move backwards and leaves time unchanged', () => {
    const c = new VirtualClock(T0);
    expect(() => c.advanceTo(T0 - 1)).toThrow(ApiError);
    expect(c.now()).toBe(T0);
  });

  it('stops a job that keeps rescheduling itself at the same instant', () => {
    const c = new VirtualClock(T0);
    c.on('loop', () => c.schedule('loop', c.now()));
    c.schedule('loop', T0);
    let err: unknown;
    try {
      c.advanceTo(T0 + 1);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe('CLOCK_RUNAWAY');
    expect(RUNAWAY_LIMIT).toBeGreaterThan(1000);
  });

  it('snapshots and restores pending jobs exactly', () => {
    const c = new VirtualClock(T0);
    const ran: string[] = [];
    c.on('n', (x: string) => ran.push(x));
    c.scheduleIn('n', 50, 'b');
    c.scheduleIn('n', 10, 'a');
    const s = JSON.parse(JSON.stringify(c.snapshot()));
    c.advanceTo(T0 + 100);
    const d = new VirtualClock(0);
    d.on('n', (x: string) => ran.push(`restored-${x}`));
    d.restore(s);
    expect(d.now()).toBe(T0);
    d.advanceTo(T0 + 100);
    expect(ran).toEqual(['a', 'b', 'restored-a', 'restored-b']);
  });

  it('parses instants with explicit offsets only', () => {
    expect(parseInstant('2026-03-02T09:00:00+09:00')).toBe(T0);
    expect(parseInstant('2026-03-02T00:00:00.000Z')).toBe(T0);
    expect(parseInstant('2026-03-02')).toBeUndefined();
    expect(parseInstant('2026-03-02T00:00:00')).toBeUndefined();
    expect(parseInstant('yesterday')).toBeUndefined();
  });
});

describe('iso', () => {
  it('formats like Date.toISOString, also at day edges and outside its fast range, and refuses invalid times', () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer({ min: 0, max: 253_402_300_799_999 }), fc.integer({ min: -8_640_000_000_000_000, max: 8_640_000_000_000_000 }), fc.constantFrom(0, 999, 86_399_999, 86_400_000)), (ms) => {
        expect(iso(ms)).toBe(new Date(ms).toISOString());
      }),
    );
    expect(() => iso(Number.NaN)).toThrow(RangeError);
  });
});

describe('canonicalInstant', () => {
  it('reads back what iso writes, the same text twice in a row too, and nothing else (not the empty text)', () => {
    expect(canonicalInstant('')).toBeUndefined();
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 253_402_300_799_999 }), fc.constantFrom('', '2026-02-30T00:00:00.000Z', '2026-03-02T01:00:00.000+00:00'), (ms, other) => {
        const text = iso(ms);
        expect(canonicalInstant(text)).toBe(ms);
        expect(canonicalInstant(`${text}`)).toBe(ms); // the remembered last text
        expect(canonicalInstant(other)).toBeUndefined();
        expect(canonicalInstant(text)).toBe(ms);
      }),
    );
  });

  it('texts that share a place of its cache (the same time of day, another year, month or day tens) each read as their own instant, whether iso made them or not', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 253_402_300_799_999 }), fc.integer({ min: 1, max: 400 }), fc.boolean(), (ms, years, viaIso) => {
        const d = new Date(ms);
        d.setUTCFullYear(Math.min(9999, d.getUTCFullYear() + years));
        const far = d.getTime();
        // A text made elsewhere: the same characters in another string (sliced and joined, as a parsed body gives).
        const made = (t: number) => (viaIso ? iso(t) : new Date(t).toISOString().slice(0, 12) + new Date(t).toISOString().slice(12));
        for (const [a, b] of [
          [ms, far],
          [far, ms],
        ] as const) {
          const ta = made(a);
          const tb = made(b);
          expect(canonicalInstant(ta)).toBe(a);
          expect(canonicalInstant(tb)).toBe(b);
          expect(canonicalInstant(ta)).toBe(a);
          expect(canonicalInstant('')).toBeUndefined();
          expect(canonicalInstant(ta.slice(0, 23))).toBeUndefined();
        }
      }),
    );
    // The epoch written from -0 reads back as 0, as its digits give. iso() formats -0 only when
    // its place for 0 holds another instant: one that shares it is written first.
    let sharer = 1;
    while (Math.imul(sharer, 0x9e3779b1) >>> 20 !== 0) sharer++;
    iso(sharer);
    const epoch = iso(-0);
    expect(Object.is(canonicalInstant(epoch), 0)).toBe(true);
    expect(Object.is(canonicalInstant(iso(1)), 1)).toBe(true);
    expect(Object.is(canonicalInstant(epoch), 0)).toBe(true);
  });
});

describe('SeededRandom', () => {
  it('draws ids as prefix + hex digits, 8 per 32-bit word, most significant first; the state carries on', () => {
    const a = new SeededRandom(42);
    const b = new SeededRandom(42);
    for (const length of [1, 7, 8, 9, 24, 32]) {
      const word = b.uint32();
      const words = [word, ...Array.from({ length: Math.ceil(length / 8) - 1 }, () => b.uint32())];
      const expected = words.map((w) => w.toString(16).padStart(8, '0')).join('').slice(0, length);
      expect(a.hex(length, length === 24 ? 'CA' : '')).toBe((length === 24 ? 'CA' : '') + expected);
    }
    expect(new SeededRandom(a.state()).hex(16)).toBe(new SeededRandom(b.state()).hex(16));
  });
});
