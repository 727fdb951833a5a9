// The house contract (resources/family.ts, core/scope.ts, registry.ts, runtime.ts), on lists
// built for the test and on the real one: the order comes from declared needs and a cycle or an
// unknown need is refused naming the families; a scope holds only what its family declared;
// typed events and jobs are checked at run time too (an undeclared event, a restored job whose
// payload does not fit its kind); the runtime runs each family's snapshot part. And the
// shrinking list of job kinds without a declared schema.
import { describe, expect, it } from 'vitest';
import { Type } from '@sinclair/typebox';
import { defineFamily, type Entry } from '../resources/family.ts';
import { event, type DomainEvent } from '../core/events.ts';
import { port, type ModelScope } from '../core/scope.ts';
import { ApiError } from '../core/errors.ts';
import { build, constructionOrder } from '../registry.ts';
import { Runtime } from '../runtime.ts';
import type { Fixture } from '../fixture/schema.ts';
import { runtimeOf } from '../internal.ts';
import { harness } from './helpers.ts';
import { UNCHECKED_JOB_KINDS } from './layer-debts.ts';

const pingEvents = {
  'ping.rang': event(Type.Object({ n: Type.Integer() }), { internal: true }),
  'ping.public': event(Type.Object({ n: Type.Integer() })),
};
const pingJobs = { 'pings.ring': Type.Object({ n: Type.Integer() }, { additionalProperties: false }) };

class Pings {
  rung: number[] = [];
  constructor(readonly scope: ModelScope<{}, typeof pingEvents, typeof pingJobs>) {
    scope.jobs.on('pings.ring', (p) => {
      this.rung.push(p.n);
      scope.events.emit('ping.rang', { accountId: 'AC1', resourceId: `p${p.n}`, payload: { n: p.n } });
    });
  }
}

const pings = defineFamily({
  key: 'pings',
  needs: {},
  events: pingEvents,
  jobs: pingJobs,
  create: (scope) => new Pings(scope),
  state: {
    schema: Type.Object({ rung: Type.Array(Type.Integer()) }, { additionalProperties: false }),
    snapshot: (m: Pings) => ({ rung: [...m.rung] }),
    restore: (m: Pings, s: { rung: number[] }) => void (m.rung = [...s.rung]),
    clear: (m: Pings) => void (m.rung = []),
  },
});

/** Listed before what it needs: the order must still build pings first. */
const echoes = defineFamily({
  key: 'echoes',
  needs: { pings: port<{ rung: readonly number[] }>() },
  create: (scope) => ({ scope, heard: [] as DomainEvent[] }),
});

const house = (...families: Entry[]) => build(families);
const fixture = { clock: { start: '2026-01-01T00:00:00.000Z' } } as unknown as Fixture;
const needy = (key: string, ...needs: string[]) => defineFamily({ key, needs: Object.fromEntries(needs.map((n) => [n, port<unknown>()])), create: () => ({}) });

describe('construction order from declared needs', () => {
  it('builds what a family needs first, and keeps list order otherwise', () => {
    expect(constructionOrder([echoes, pings]).map((f) => f.key)).toEqual(['pings', 'echoes']);
    expect(constructionOrder([needy('a'), needy('b'), needy('c', 'a')]).map((f) => f.key)).toEqual(['a', 'b', 'c']);
  });

  it('refuses a cycle at start-up, naming the families on it', () => {
    expect(() => constructionOrder([needy('free'), needy('calls', 'recordings'), needy('recordings', 'calls')])).toThrow(
      'the families\' needs form a cycle: calls -> recordings -> calls',
    );
  });

  it('refuses a need no entry offers, and a key every scope uses for itself', () => {
    expect(() => constructionOrder([needy('agents', 'sipTrunks')])).toThrow('family agents needs sipTrunks, which no entry of the list offers');
    expect(() => constructionOrder([needy('clock')])).toThrow(/"clock" is a name every scope uses/);
  });

  it('builds a family as soon as what it needs is built, before entries listed earlier that wait', () => {
    expect(constructionOrder([needy('x', 'late'), needy('older'), needy('late')]).map((f) => f.key)).toEqual(['older', 'late', 'x']);
  });
});

describe('a family\'s scope', () => {
  it('holds the kernel parts, its declared ports and its model: nothing else', () => {
    const rt = new Runtime(fixture, 1, house(echoes, pings));
    const scope = rt.scopeOf('echoes') as Record<string, unknown>;
    expect(Object.keys(scope).sort()).toEqual(['clock', 'echoes', 'events', 'io', 'jobs', 'listed', 'pings', 'random', 'refs', 'seed']);
    expect(scope.pings).toBe((rt as unknown as Record<string, unknown>).pings);
    expect(() => rt.scopeOf('nobody')).toThrow(/no family "nobody"/);
  });

  it('reads the seeded random and the seed each time (a reset replaces them)', () => {
    const rt = new Runtime(fixture, 1, house(pings));
    const scope = rt.scopeOf('pings') as { random: unknown; seed: number };
    const before = scope.random;
    expect(scope.seed).toBe(1);
    rt.reset(7);
    expect(scope.random).toBe(rt.random);
    expect(scope.random).not.toBe(before);
    expect(scope.seed).toBe(7);
  });

  it('the block lists\' handlers see their model and the account check, not the rest of the house', () => {
    const rt = runtimeOf(harness().sim);
    const scope = rt.scopeOf('blockLists') as Record<string, unknown>;
    expect(Object.keys(scope).sort()).toEqual(['accounts', 'blockLists', 'clock', 'events', 'io', 'jobs', 'listed', 'random', 'refs', 'seed']);
    expect(scope.blockLists).toBe(rt.blockLists);
  });
});

describe('typed events and jobs at run time', () => {
  it('an internal event reaches listeners of its type only, in their order; a public one the whole feed too', () => {
    const rt = new Runtime(fixture, 1, house(echoes, pings));
    const heard: string[] = [];
    rt.events.subscribe((e) => heard.push(`feed:${e.type}`));
    rt.events.on('ping.rang', (e) => heard.push(`on:${e.type}:${e.resourceId}`));
    const scope = rt.scopeOf('pings') as ModelScope<{}, typeof pingEvents, typeof pingJobs>;
    scope.jobs.schedule('pings.ring', rt.clock.now() + 1000, { n: 3 });
    rt.clock.advanceTo(rt.clock.now() + 1000);
    scope.events.emit('ping.public', { accountId: 'AC1', resourceId: 'x', payload: { n: 1 } });
    expect(heard).toEqual(['on:ping.rang:p3', 'feed:ping.public']);
  });

  it('refuses to emit an event the family does not declare, and to listen to one nobody declares', () => {
    const rt = new Runtime(fixture, 1, house(echoes, pings));
    const events = (rt.scopeOf('echoes') as { events: { emit(type: string, e: object): void; on(type: string, l: () => void): void } }).events;
    expect(() => events.emit('ping.rang', { accountId: 'AC1', resourceId: 'x', payload: { n: 1 } })).toThrow('family echoes emits "ping.rang", which its descriptor does not declare');
    expect(() => events.on('nothing.happened', () => undefined)).toThrow('family echoes listens to "nothing.happened", which no family declares');
  });

  it('a restored job whose payload does not fit its kind is refused, naming the field, and nothing changes', () => {
    const rt = new Runtime(fixture, 1, house(pings));
    const scope = rt.scopeOf('pings') as ModelScope<{}, typeof pingEvents, typeof pingJobs>;
    scope.jobs.schedule('pings.ring', rt.clock.now() + 5000, { n: 1 });
    const good = rt.snapshot();
    const bad = structuredClone(good);
    (bad.clock.jobs[0]!.payload as Record<string, unknown>).n = 'one';
    let error: unknown;
    try {
      rt.restore(bad);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toMatch(/^snapshot is invalid: clock\.jobs\[0\]\.payload\.n: /);
    expect(rt.snapshot()).toEqual(good);
    expect(rt.clock.uncheckedKinds()).toEqual([]);
  });

  it('the runtime runs the snapshot part: validated under its key, restored, and cleared by a reset', () => {
    const rt = new Runtime(fixture, 1, house(echoes, pings));
    const snap = rt.snapshot();
    expect(Object.keys(snap.models)).toEqual(['pings']); // echoes keeps no state
    expect(() => rt.restore({ ...snap, models: { pings: { rung: ['x'] } } })).toThrow(/^snapshot pings is invalid: pings\.rung\[0\]/);
    rt.restore({ ...snap, models: { pings: { rung: [4, 5] } } });
    expect((rt as unknown as { pings: Pings }).pings.rung).toEqual([4, 5]);
    rt.reset();
    expect((rt as unknown as { pings: Pings }).pings.rung).toEqual([]);
  });
});

describe('the operation table', () => {
  it('is built on first use, once: building the runtime does not build it, and an unknown tag is refused then', () => {
    let built = 0;
    const op = (tag: string) => ({ operationId: 'ping', method: 'GET' as const, path: '/ping', tag, summary: 'ping', origin: 'simulator' as const, auth: 'none' as const, responses: {}, handler: () => ({ status: 204 }) });
    const counted = (tag: string) => ({ ...pings, tags: { Pings: 'pings' }, operations: () => (built++, [op(tag)]) }) as unknown as Entry;
    const reg = house(counted('Pings'));
    new Runtime(fixture, 1, reg);
    expect(built).toBe(0);
    const first = reg.operations;
    expect(first.find((o) => o.operationId === 'ping')?.owner).toBe('pings');
    expect(reg.operations).toBe(first);
    expect(built).toBe(1);
    const untagged = house(counted('Nobody'));
    expect(() => untagged.operations).toThrow(/operation ping: tag "Nobody" has no description/);
  });

  it('gives each example to its operation, and refuses examples that name none', () => {
    const op = { operationId: 'ping', method: 'GET' as const, path: '/ping', tag: 'Pings', summary: 'ping', origin: 'simulator' as const, auth: 'none' as const, responses: {}, handler: () => ({ status: 204 }) };
    const withExamples = (ids: string[]) => ({ ...pings, tags: { Pings: 'pings' }, operations: [op], examples: Object.fromEntries(ids.map((id) => [id, [{ summary: id }]])) }) as unknown as Entry;
    expect(house(withExamples(['ping'])).operations.find((o) => o.operationId === 'ping')?.examples).toEqual([{ summary: 'ping' }]);
    expect(() => house(withExamples(['ping', 'pong', 'peng'])).operations).toThrow('examples name no operation: pong, peng');
  });
});

describe('what is still to move (each list can only shrink)', () => {
  it('job kinds without a declared payload schema are exactly the listed ones', () => {
    expect(runtimeOf(harness().sim).clock.uncheckedKinds()).toEqual([...UNCHECKED_JOB_KINDS]);
  });
});
