// The clock advance that waits for real I/O (core/advance.ts, core/io.ts), with a scripted peer
// instead of a network: an instant's I/O completes before time moves past it, concurrent
// advances run one after another, and without I/O the advance stays synchronous.
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../core/clock.ts';
import { IoBarrier, type PendingIo } from '../core/io.ts';
import { ClockAdvancer } from '../core/advance.ts';

const T0 = Date.parse('2026-03-02T00:00:00Z');

/** Lets every pending promise callback run (one macrotask turn; no wall-clock waiting). */
const settleMicrotasks = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A peer whose "requests" finish when the test says; finishing may schedule a job (a retry). */
class ScriptedPeer implements PendingIo {
  open: (() => void)[] = [];
  private waiters: (() => void)[] = [];
  get busy() {
    return this.open.length > 0;
  }
  whenIdle() {
    return this.busy ? new Promise<void>((r) => this.waiters.push(r)) : Promise.resolve();
  }
  start(onDone: () => void) {
    const done = () => {
      this.open.splice(this.open.indexOf(done), 1);
      onDone();
      if (!this.busy) for (const w of this.waiters.splice(0)) w();
    };
    this.open.push(done);
  }
  finishAll() {
    for (const d of [...this.open]) d();
  }
}

function setup() {
  const clock = new VirtualClock(T0);
  const io = new IoBarrier();
  const peer = new ScriptedPeer();
  io.register(peer);
  const log: string[] = [];
  // A "send" job starts I/O; when it finishes, it schedules a retry 10 s later, up to 3 sends.
  clock.on('send', (n: number) => {
    log.push(`send ${n} @${(clock.now() - T0) / 1000}`);
    peer.start(() => {
      if (n < 3) clock.schedule('send', clock.now() + 10_000, n + 1);
    });
  });
  return { clock, io, peer, log, advancer: new ClockAdvancer(clock, io) };
}

describe('ClockAdvancer', () => {
  it('is synchronous when no I/O is in flight', () => {
    const { clock, advancer } = setup();
    clock.on('plain', () => undefined);
    clock.schedule('plain', T0 + 5_000);
    expect(advancer.advance((now) => now + 60_000)).toBe(1);
    expect(clock.now()).toBe(T0 + 60_000);
  });

  it('waits at each instant for the I/O started there, so follow-ups fall at their own instants', async () => {
    const { clock, peer, log, advancer } = setup();
    clock.schedule('send', T0, 1);
    const done = advancer.advance((now) => now + 3_600_000);
    expect(done).toBeInstanceOf(Promise);
    for (let i = 0; i < 3; i++) {
      await settleMicrotasks();
      expect(peer.open).toHaveLength(1);
      peer.finishAll();
    }
    expect(await done).toBe(3);
    expect(log).toEqual(['send 1 @0', 'send 2 @10', 'send 3 @20']);
    expect(clock.now()).toBe(T0 + 3_600_000);
  });

  it('waits for I/O already in flight before moving at all', async () => {
    const { clock, peer, log, advancer } = setup();
    clock.on('other', () => log.push(`other @${(clock.now() - T0) / 1000}`));
    peer.start(() => clock.schedule('other', clock.now() + 5_000));
    const done = advancer.advance((now) => now + 60_000);
    expect(clock.now()).toBe(T0);
    peer.finishAll();
    expect(await done).toBe(1);
    expect(log).toEqual(['other @5']);
  });

  it('runs concurrent advances one after another, each from where the last ended', async () => {
    const { clock, peer, advancer } = setup();
    clock.schedule('send', T0, 3);
    const first = advancer.advance((now) => now + 1_000);
    const second = advancer.advance((now) => now + 1_000);
    const third = advancer.advance(() => T0 + 500); // by then in the past: refused
    await settleMicrotasks();
    peer.finishAll();
    expect(await first).toBe(1);
    expect(await second).toBe(0);
    expect(clock.now()).toBe(T0 + 2_000);
    await expect(third).rejects.toMatchObject({ status: 400 });
  });

  it('refuses a target in the past with the clock\'s own error', () => {
    const { advancer } = setup();
    expect(() => advancer.advance(() => T0 - 1)).toThrow(/cannot move backwards/);
  });
});
