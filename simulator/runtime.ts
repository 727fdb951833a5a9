// The simulator's whole state and machinery in one object: clock, seeded random, events,
// cross-resource references, and one model per resource family. Handlers receive it as
// ctx.rt. A snapshot of it is plain JSON and restores exactly (DESIGN "Rules").
import { Type } from '@sinclair/typebox';
import { VirtualClock, iso, parseInstant, type ClockSnapshot } from './core/clock.ts';
import { SeededRandom, type RandomState } from './core/random.ts';
import { DomainEvents } from './core/events.ts';
import { References } from './core/refs.ts';
import { ApiError } from './core/errors.ts';
import { validate } from './core/schema.ts';
import type { Fixture } from './fixture/schema.ts';
import { manualDriver, type ClockDriver } from './core/realtime.ts';
import { IoBarrier } from './core/io.ts';
import { EgressGuard } from './peers/egress.ts';
import type { FakeDns } from './peers/dns.ts';
import { FakeMcpServers } from './peers/mcp/fake-servers.ts';
import { McpRunner } from './peers/mcp/runner.ts';
import { ClockAdvancer } from './core/advance.ts';
import { ReceiverPolicy } from './peers/webhooks/receiver-policy.ts';
import { FAMILIES, registry, type FamilyModels, type RefKind } from './resources/index.ts';
import type { StatefulModel } from './resources/family.ts';

export const SNAPSHOT_FORMAT = 'platform-simulator-state';
export const SNAPSHOT_VERSION = 1;

export type { StatefulModel } from './resources/family.ts';

export interface Snapshot {
  format: typeof SNAPSHOT_FORMAT;
  version: number;
  seed: number;
  clock: ClockSnapshot;
  random: RandomState;
  models: Record<string, unknown>;
}

const SnapshotEnvelope = Type.Object(
  {
    format: Type.Literal(SNAPSHOT_FORMAT),
    version: Type.Integer(),
    seed: Type.Integer({ minimum: 0 }),
    clock: Type.Object({
      now: Type.Number(),
      nextJobId: Type.Integer({ minimum: 1 }),
      jobs: Type.Array(
        Type.Object({ id: Type.Integer(), due: Type.Number(), seq: Type.Integer(), kind: Type.String(), payload: Type.Unknown() }),
      ),
    }),
    random: Type.Tuple([Type.Integer(), Type.Integer(), Type.Integer(), Type.Integer()]),
    models: Type.Record(Type.String(), Type.Unknown()),
  },
  { additionalProperties: false },
);

/** Each family's model as a typed field (`rt.numbers`), from the list in resources/index.ts. */
export interface Runtime extends FamilyModels {}

// Handlers see this runtime as ctx.rt; core/operation.ts declares the slot without importing us.
declare module './core/operation.ts' {
  interface HandlerRuntime extends Runtime {}
}

export class Runtime {
  readonly clock: VirtualClock;
  random: SeededRandom;
  seed: number;
  /** The seed the simulator started with; reset without a seed returns to it. */
  readonly initialSeed: number;
  readonly events = new DomainEvents();
  readonly refs = new References<RefKind>();
  /** Real I/O in flight to peers the user runs; the clock advance waits for it. */
  readonly io = new IoBarrier();
  readonly advancer: ClockAdvancer;
  /** Where the simulator may connect for customers (strict mode is an option, not state). */
  readonly egress = new EgressGuard(() => (this as unknown as { dns: FakeDns }).dns);
  /** Which URLs may receive webhooks (the egress guard's rules). */
  readonly receiverPolicy = new ReceiverPolicy(this.egress);
  /** Fake external MCP servers on loopback (live peers, not state). */
  readonly mcpServers = new FakeMcpServers();
  /** The call runtime's MCP client (connection tests); registered with the I/O barrier. */
  readonly mcpRunner = new McpRunner(this.egress, this.mcpServers);
  /** Manual by default; createSimulator installs the realtime driver when asked. */
  clockDriver: ClockDriver = manualDriver();

  /** What /_sim/health lists (resources/index.ts). */
  readonly capabilities: readonly string[];

  /** Models in snapshot order; the key is the model's name inside a snapshot. */
  private readonly models: [string, StatefulModel][];

  constructor(
    readonly fixture: Fixture,
    seed: number,
  ) {
    this.seed = seed;
    this.initialSeed = seed;
    this.clock = new VirtualClock(parseInstant(fixture.clock.start)!);
    this.random = new SeededRandom(seed);
    this.capabilities = registry().capabilities;
    this.advancer = new ClockAdvancer(this.clock, this.io);
    this.io.register(this.mcpRunner);
    // In list order: a model may use those listed before it.
    const fields = this as unknown as Record<string, StatefulModel>;
    this.models = FAMILIES.map((f) => {
      const model = f.create(this);
      fields[f.key] = model;
      return [f.snapshotKey ?? f.key, model];
    });
    this.reset(seed);
  }

  /** Back to the fixture's state, optionally with another seed. */
  reset(seed: number = this.seed): void {
    this.seed = seed;
    this.random = new SeededRandom(seed);
    this.clock.restore({ now: parseInstant(this.fixture.clock.start)!, nextJobId: 1, jobs: [] });
    for (const [, m] of this.models) {
      m.clear?.();
      m.loadFixture?.(this.fixture);
    }
    this.clockDriver.rebase();
  }

  snapshot(): Snapshot {
    const models: Record<string, unknown> = {};
    for (const [name, m] of this.models) models[name] = m.snapshot();
    // Round-trip through JSON so the snapshot shares nothing with live state.
    return JSON.parse(
      JSON.stringify({
        format: SNAPSHOT_FORMAT,
        version: SNAPSHOT_VERSION,
        seed: this.seed,
        clock: this.clock.snapshot(),
        random: this.random.state(),
        models,
      }),
    ) as Snapshot;
  }

  /** Replaces all state with the snapshot; on any error the previous state stays. */
  restore(snapshot: unknown): void {
    validate(SnapshotEnvelope, snapshot, 'snapshot');
    const s = snapshot as Snapshot;
    if (s.version !== SNAPSHOT_VERSION) {
      throw ApiError.validation(`snapshot version ${s.version} is not supported (expected ${SNAPSHOT_VERSION})`);
    }
    for (const [name] of this.models) {
      if (!(name in s.models)) throw ApiError.validation(`snapshot has no "${name}" state`, [{ path: `models.${name}`, message: 'is required' }]);
    }
    const unknown = Object.keys(s.models).filter((k) => !this.models.some(([n]) => n === k));
    if (unknown.length > 0) throw ApiError.validation(`snapshot has unknown state "${unknown[0]}"`, [{ path: `models.${unknown[0]}`, message: 'is not a known field' }]);
    const before = this.snapshot();
    try {
      const copy = structuredClone(s);
      for (const [name, m] of this.models) m.restore(copy.models[name]);
      this.clock.restore(copy.clock);
      this.random = new SeededRandom(copy.random);
      this.seed = copy.seed;
      this.clockDriver.rebase();
    } catch (e) {
      for (const [name, m] of this.models) m.restore(before.models[name]);
      this.clock.restore(before.clock);
      this.random = new SeededRandom(before.random);
      this.seed = before.seed;
      throw e;
    }
  }

  nowIso(): string {
    return iso(this.clock.now());
  }
}
