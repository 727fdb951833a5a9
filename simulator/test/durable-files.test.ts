// Durable state on disk (docs/decisions.md "Durable state"): a torn last journal line is dropped
// with a warning; a damaged snapshot or journal refuses to start with a message naming the file,
// never a silent empty state; one process per dir; the dir keeps its fixture, seed and live
// settings, options given at a restart apply after the replay; the realtime driver's moves are
// journaled; without a state dir nothing is gated or written.
import { closeSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ACME } from './helpers.ts';
import { closeDurableTests, crash, crashAndReopen, files, journalLines, onDir, stateDir } from './durable-helpers.ts';
import { createSimulator, StateDirError } from '../index.ts';
import { runtimeOf } from '../internal.ts';
import { JournalWriter } from '../durable/journal.ts';

afterEach(closeDurableTests);

const a = (p: string) => `/v1/accounts/${ACME.accountId}${p}`;
const block = (h: Awaited<ReturnType<typeof onDir>>, n: number) => h.call('POST', a('/blocked-callers'), { number: `010-3300-${String(n).padStart(4, '0')}` });
const refusal = (dir: string): Error => {
  try {
    createSimulator({ stateDir: dir, onWarning: () => {} });
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected the start to be refused');
};

describe('durable state: files', () => {
  it('journals what may write: not reads, but a GET that declares writesOnRead (not a static route beside it)', async () => {
    const dir = stateDir();
    const h = await onDir(dir);
    await h.call('GET', a('/blocked-callers'));
    await h.call('GET', a('/kakao/channels/token')); // the pattern {channelId} would take it; the static route (POST only) wins
    await h.call('GET', a('/kakao/channels/KA0000000000000000000000'));
    await block(h, 9);
    expect(journalLines(dir).filter((e) => e.t === 'q').map((e) => `${e.m} ${e.u}`)).toEqual([`GET ${a('/kakao/channels/KA0000000000000000000000')}`, `POST ${a('/blocked-callers')}`]);
  });

  it('drops a torn last journal line with a warning and cuts it from the file; the state is the last whole entry', async () => {
    const dir = stateDir();
    const h = await onDir(dir);
    await block(h, 1);
    const one = h.sim.snapshot();
    await block(h, 2);
    await crash(h.sim);
    // Cut the last line in its middle, as a process dying inside the write would leave it.
    const file = path.join(dir, 'journal-000001.ndjson');
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.slice(0, text.length - 20));
    const torn = await onDir(dir);
    expect(torn.warnings.join('\n')).toMatch(/journal-000001\.ndjson ends with a torn line \(\d+ bytes .*never acknowledged\); dropped/);
    expect(torn.sim.snapshot()).toEqual(one);
    expect(readFileSync(file, 'utf8')).toBe(text.slice(0, text.lastIndexOf('\n', text.length - 2) + 1));
  });

  it('refuses to start on a damaged snapshot, naming it, and leaves the dir as it is', async () => {
    const dir = stateDir();
    const h = await onDir(dir);
    await block(h, 1);
    await h.sim.close();
    const [snapshot] = files(dir).filter((n) => n.startsWith('snapshot-'));
    const file = path.join(dir, snapshot!);
    const good = readFileSync(file, 'utf8');

    const at = good.lastIndexOf('01033000001');
    writeFileSync(file, `${good.slice(0, at)}01933000001${good.slice(at + 11)}`); // one digit of the state
    const e = refusal(dir);
    expect(e).toBeInstanceOf(StateDirError);
    expect(e.message).toMatch(new RegExp(`${snapshot} is damaged \\(its content does not match its checksum\\); refusing to start`));
    writeFileSync(file, good.replace('"initialSeed":1', '"initialSeed":2')); // the header (fixture, seed) is sealed too
    expect(refusal(dir).message).toMatch(/does not match its checksum/);
    writeFileSync(file, good.slice(0, good.indexOf('\n') + 1 + 50)); // cut short
    expect(refusal(dir).message).toMatch(/is damaged \(it has 50 bytes after its first line, which says \d+\)/);
    writeFileSync(file, good.slice(0, 20));
    expect(refusal(dir).message).toMatch(/is damaged \(no first line\)/);
    writeFileSync(file, `{"format":"x"}\n${good.slice(good.indexOf('\n') + 1)}`);
    expect(refusal(dir).message).toMatch(/format is not "platform-simulator-state-dir"/);
    expect(readFileSync(file, 'utf8')).not.toBe(good); // nothing was overwritten by the refusals
    writeFileSync(file, good);
    const back = await onDir(dir);
    expect((await back.call('GET', a('/blocked-callers'))).json.meta.total).toBe(2);
  });

  it('refuses a journal damaged before its last line, and a dir with journals but no snapshot', async () => {
    const dir = stateDir();
    const h = await onDir(dir);
    await block(h, 1);
    await block(h, 2);
    await crash(h.sim);
    const file = path.join(dir, 'journal-000001.ndjson');
    const lines = readFileSync(file, 'utf8').split('\n');
    writeFileSync(file, [lines[0]!.slice(0, 30), ...lines.slice(1)].join('\n'));
    expect(refusal(dir).message).toMatch(/journal-000001\.ndjson line 1 is damaged \(not JSON/);
    writeFileSync(file, ['{"t":"z"}', ...lines.slice(1)].join('\n'));
    expect(refusal(dir).message).toMatch(/line 1 is damaged \(an entry of unknown type "z"\)/);
    const bare = stateDir();
    writeFileSync(path.join(bare, 'journal-000004.ndjson'), '');
    expect(refusal(bare).message).toMatch(/holds journals but no snapshot/);
  });

  it('one process per dir: a second simulator is refused, a lock left by a dead process is taken over', async () => {
    const dir = stateDir();
    const h = await onDir(dir);
    expect(refusal(dir).message).toMatch(/already open in this process/);
    await h.sim.close();
    writeFileSync(path.join(dir, 'LOCK'), '2147480000\n'); // no such process
    const again = await onDir(dir);
    expect(again.warnings.join()).toMatch(/process 2147480000 ended without closing it; taking over/);
    expect(readFileSync(path.join(dir, 'LOCK'), 'utf8').trim()).toBe(String(process.pid));
  });

  it('keeps its fixture, seed and live settings; options given at a restart apply after the replay, journaled', async () => {
    const dir = stateDir();
    const h = await onDir(dir, { seed: 7 });
    await h.sim.control.request('PUT', '/egress', { strict: true });
    await h.sim.control.request('PUT', '/mcp/runner', { available: false });
    const created = (await block(h, 1)).json;
    await h.sim.close(); // compacts: the settings ride in the snapshot's header

    const again = await onDir(dir, { seed: 99 });
    expect(again.warnings.join()).toMatch(/keeps the fixture and seed it began with/);
    expect((await again.sim.control.health()).seed).toBe(7);
    expect(await again.sim.control.request('GET', '/egress')).toEqual({ strict: true });
    expect(await again.sim.control.request('GET', '/mcp/runner')).toMatchObject({ available: false });
    await again.sim.control.reset();
    expect((await again.sim.control.health()).seed).toBe(7);
    expect((await block(again, 1)).json.id).toBe(created.id); // the same seed draws the same id
    await again.sim.close();

    const told = await onDir(dir, { strictEgress: false });
    expect(await told.sim.control.request('GET', '/egress')).toEqual({ strict: false });
    expect(journalLines(dir).filter((e) => e.t === 's')).toHaveLength(1);
    const last = await crashAndReopen(told.sim, dir);
    expect(await last.sim.control.request('GET', '/egress')).toEqual({ strict: false });
  });

  it('journals the realtime driver\'s moves: a restart (even with a manual clock) stands at the same instant', async () => {
    const dir = stateDir();
    const h = await onDir(dir, { clock: 'realtime:1000' });
    await block(h, 1);
    await new Promise((r) => setTimeout(r, 30));
    await block(h, 2);
    const before = h.sim.snapshot();
    expect(journalLines(dir).filter((e) => e.t === 'c').length).toBeGreaterThan(0);
    const again = await crashAndReopen(h.sim, dir, { clock: 'manual' });
    expect(again.sim.snapshot()).toEqual(before);
  });

  it('without a state dir, nothing is gated or written: the I/O barrier runs the work itself', async () => {
    const sim = createSimulator();
    const io = runtimeOf(sim).io;
    let ran = 0;
    await io.outcome('test', async () => ++ran);
    expect(ran).toBe(1);
    expect(io.busy).toBe(false);
    await sim.close();
  });

  it('a journal that cannot be written reports it once and says so on every later flush', () => {
    const dir = stateDir();
    const failures: Error[] = [];
    const w = new JournalWriter(path.join(dir, 'journal-000001.ndjson'), { entries: 0, bytes: 0 }, () => {}, (e) => failures.push(e));
    w.append({ t: 'c', to: 1 });
    expect(w.flush()).toBe(true);
    closeSync((w as unknown as { fd: number }).fd); // the disk goes away under it
    w.append({ t: 'c', to: 2 });
    expect(w.flush()).toBe(false);
    expect(w.flush()).toBe(false);
    expect(failures).toHaveLength(1);
    expect(readFileSync(path.join(dir, 'journal-000001.ndjson'), 'utf8')).toBe('{"t":"c","to":1}\n');
  });
});
