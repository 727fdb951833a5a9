// Durable state (--state-dir, createSimulator({ stateDir })): a snapshot and the journal of
// everything that changed the state since, where it entered the deterministic core: requests
// (public and control plane), the realtime driver's clock moves, the outcomes of wall-clock I/O
// (through the outcome gate, core/outcome-gate.ts) and live settings given at a restart. Entries
// are written before each answer is sent; on start the newest whole snapshot is restored and the
// journals after it replayed (replay.ts), so state, ids, pending clock jobs and the seeded random
// stream are exactly as before. Now and then, at a quiet moment (no request under way, no I/O in
// flight), the state is written as a new snapshot and a new journal begins (compaction).
// docs/decisions.md "Durable state" has the rules; files.ts the layout on disk.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Runtime } from '../runtime.ts';
import { dispatch, errorResponse, router, upgrade } from '../app.ts';
import type { UpgradeAnswer } from '../core/live-socket.ts';
import { SocketJournal } from './live-sockets.ts';
import { errorCodes } from '../core/errors.ts';
import { OutcomeGate } from '../core/outcome-gate.ts';
import type { Operation, SimRequest, SimResponse } from '../core/operation.ts';
import { Router, type Method } from '../core/router.ts';
import { allOperations } from '../operations.ts';
import { outcomeEntry, requestEntry, type Entry } from './entries.ts';
import { JournalWriter, readJournal } from './journal.ts';
import { generations, journalName, lockDir, readSnapshot, removeBefore, StateDirError, writeSnapshot, writeSnapshotSync, type SnapshotHeader } from './files.ts';
import { replay, type Segment } from './replay.ts';
import { applySettings, overridden, readSettings, type SettingOverrides } from './settings.ts';

/** Compact once the journal holds this many entries... */
export const DEFAULT_COMPACT_ENTRIES = 50_000;
/** ...or this many bytes, whichever comes first. */
export const DEFAULT_COMPACT_BYTES = 64 * 1024 * 1024;

export interface DurableOptions {
  dir: string;
  /** Entries after which the journal is compacted into a new snapshot (at the next quiet moment). */
  compactEvery?: number;
  warn(message: string): void;
  onDefect(error: unknown): void;
}

/** What a dir that already holds state gives back. */
export interface Stored {
  header: SnapshotHeader;
  state: unknown;
  segments: Segment[];
}

const defer = (fn: () => void) => void setImmediate(fn);
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

export class DurableState {
  /** Set when the dir already holds state: the fixture and seed to build the runtime from, then what start() restores. */
  readonly stored: Stored | undefined;
  /** Resolves once the journal is replayed (at once for a new dir); rejects with a StateDirError. */
  ready: Promise<void> = Promise.resolve();
  private rt!: Runtime;
  private gate!: OutcomeGate;
  private sockets!: SocketJournal;
  private writer!: JournalWriter;
  private generation: number;
  private replaying = false;
  private inProgress = 0; // journaled requests not yet answered
  private compacting = false;
  private compactQueued = false;
  private compactNext = false; // the whole state was replaced (reset, PUT /_sim/state): the journal before it is worth nothing
  private closed = false;
  private readonly compactEvery: number;
  private readonly releaseLock: () => void;

  constructor(private readonly options: DurableOptions) {
    this.compactEvery = options.compactEvery ?? DEFAULT_COMPACT_ENTRIES;
    if (!(this.compactEvery >= 1)) throw new Error(`compactEvery must be at least 1, got ${this.compactEvery}`);
    this.releaseLock = lockDir(options.dir, options.warn);
    try {
      const { snapshots, journals } = generations(options.dir);
      const newest = snapshots[snapshots.length - 1];
      this.generation = Math.max(newest ?? 0, journals[journals.length - 1] ?? 0);
      if (newest === undefined) {
        if (journals.length > 0) throw new StateDirError(`state dir ${options.dir} holds journals but no snapshot; it is damaged. Restore it from a backup, or move it aside to start empty.`);
        this.stored = undefined;
        return;
      }
      const { header, state } = readSnapshot(options.dir, newest);
      const after = journals.filter((g) => g >= newest);
      const segments = after.map((g, i) => ({ generation: g, entries: readJournal(options.dir, g, i === after.length - 1, options.warn).entries }));
      this.stored = { header, state, segments };
    } catch (e) {
      this.releaseLock();
      throw e;
    }
  }

  /** Restores what the dir holds (or writes the first snapshot), attaches the outcome gate and starts the replay. */
  start(rt: Runtime, overrides: SettingOverrides, onDefect: (e: unknown) => void): void {
    this.rt = rt;
    const dir = this.options.dir;
    this.gate = new OutcomeGate(
      {
        record: (id, kind, settled) => this.append(outcomeEntry(id, kind, settled)),
        recordEffect: (k, a) => this.append({ t: 'e', k, a }),
      },
      defer,
    );
    rt.io.attach(this.gate);
    this.sockets = new SocketJournal((e) => this.append(e), () => this.writer.flush(), this.options.warn);
    if (!this.stored) {
      this.generation = 1;
      writeSnapshotSync(dir, this.header(1), JSON.stringify(rt.snapshot()));
      this.openWriter();
      this.gate.goLive();
      return;
    }
    try {
      rt.restore(this.stored.state);
    } catch (e) {
      throw new StateDirError(`state dir ${dir}: the state in its snapshot is refused by this simulator (${(e as Error).message}); refusing to start rather than lose it. Start the version that wrote it, or move the dir aside to start empty.`);
    }
    applySettings(rt, this.stored.header.settings);
    removeBefore(dir, this.stored.header.generation);
    this.openWriter();
    this.replaying = true;
    const pipeline = { maxBodyBytes: Infinity, maxSnapshotBytes: Infinity, onDefect: (e: unknown) => onDefect(e) };
    const segments = this.stored.segments;
    (this.stored as { state: unknown }).state = undefined; // restored: let it go
    this.ready = replay(dir, segments, {
      dispatch: (req) => dispatch(rt, pipeline, req),
      gate: this.gate,
      replayEffect: (kind, arg) => rt.io.replayEffect(kind, arg),
      socket: (e) => this.sockets.replay(e, (req) => upgrade(rt, pipeline, req)),
      moveClock: (to) => {
        try {
          if (to > rt.clock.now()) rt.clock.advanceTo(to);
        } catch {
          // The driver's move failed the same way when it was live (a runaway); the state is what it left.
        }
      },
      applySettings: (s) => applySettings(rt, s),
      turn,
      busy: () => rt.io.busy,
    }).then(() => {
      this.replaying = false;
      this.sockets.closeReplayed(); // they died with the process
      this.gate.goLive();
      const now = readSettings(rt);
      const wanted = overridden(now, overrides);
      if (JSON.stringify(wanted) !== JSON.stringify(now)) {
        this.append({ t: 's', v: wanted });
        applySettings(rt, wanted);
      }
      segments.length = 0;
    });
    this.ready.catch(() => undefined);
  }

  /** The pipeline with the journal around it: each request that may change state is written before its answer is sent. */
  wrap(run: (req: SimRequest) => SimResponse | Promise<SimResponse>): (req: SimRequest) => SimResponse | Promise<SimResponse> {
    const handle = (req: SimRequest): SimResponse | Promise<SimResponse> => {
      if (this.writer.failure) return this.unwritable();
      const out = run(req);
      if (!mayWrite(req)) return out instanceof Promise ? out.then((res) => this.answered(res)) : this.answered(out); // a read: what it shows is written too
      if (out instanceof Promise) {
        // Only a handler answers later: it ran, so the request is journaled.
        this.append(requestEntry(req));
        this.inProgress++;
        return out.then((res) => {
          this.inProgress--;
          return this.answered(res);
        });
      }
      if (journaled(req, out)) {
        this.append(requestEntry(req));
        if (replacesState(req, out)) this.compactNext = true;
      }
      return this.answered(out);
    };
    return (req) => (this.replaying ? this.ready.then(() => handle(req)) : handle(req));
  }

  /** The upgrade handler (server.ts) with the journal around the sockets it opens. */
  wrapUpgrade(inner: (req: SimRequest) => UpgradeAnswer | Promise<UpgradeAnswer>): (req: SimRequest) => UpgradeAnswer | Promise<UpgradeAnswer> {
    return this.sockets.wrap(inner);
  }

  /** The realtime driver is about to move virtual time (core/realtime.ts). */
  clockMoving(to: number): void {
    this.append({ t: 'c', to });
  }

  /** Flushes and writes a last snapshot when nothing is under way, so the next start replays nothing. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      if (!this.writer.failure && !this.replaying && this.quiet()) {
        this.writer.flush();
        const next = this.generation + 1;
        writeSnapshotSync(this.options.dir, this.header(next), JSON.stringify(this.rt.snapshot()));
        this.writer.close();
        removeBefore(this.options.dir, next);
      } else {
        this.writer.close();
      }
    } finally {
      this.releaseLock();
    }
  }

  /** Stops writing and lets the dir go without a last snapshot: what a crash leaves (tests). */
  abandon(): void {
    this.closed = true;
    this.writer.failure ??= new Error('abandoned');
    this.releaseLock();
  }

  private openWriter(): void {
    const file = path.join(this.options.dir, journalName(this.generation));
    const existed = existsSync(file);
    const entries = existed ? (this.stored?.segments.find((s) => s.generation === this.generation)?.entries.length ?? 0) : 0;
    this.writer = new JournalWriter(file, { entries, bytes: 0 }, defer, (e) => {
      this.options.onDefect(new Error(`state dir ${this.options.dir}: the journal cannot be written (${e.message}); answering 503 from now on`));
    });
  }

  private header(generation: number): SnapshotHeader {
    return {
      generation,
      fixture: this.rt.fixture,
      initialSeed: this.rt.initialSeed,
      settings: readSettings(this.rt),
    };
  }

  private append(entry: Entry): void {
    if (this.closed) return;
    this.writer.append(entry);
    if (entry.t !== 'q') this.compactSoon();
  }

  /** Before an answer goes out: what it acknowledges is written. */
  private answered(res: SimResponse): SimResponse {
    if (!this.writer.flush() && !this.closed) return this.unwritable();
    this.compactSoon();
    return res;
  }

  private unwritable(): SimResponse {
    return errorResponse(errorCodes.STATE_DIR_UNWRITABLE(`the state dir's journal cannot be written (${this.writer.failure?.message}); restart the simulator once the disk is writable`));
  }

  /** Nothing under way that a snapshot would miss: no request, no I/O, no socket, no live work a snapshot cannot hold (a live SDK call). */
  private quiet(): boolean {
    return this.inProgress === 0 && !this.rt.io.busy && this.sockets.open === 0 && this.rt.liveWork().length === 0;
  }

  /** Compaction runs in a turn of its own, once the work the last entry set off is done. */
  private compactSoon(): void {
    if (this.compactQueued || this.compacting || this.replaying) return;
    if (!this.compactNext && this.writer.entries < this.compactEvery && this.writer.bytes < DEFAULT_COMPACT_BYTES) return;
    this.compactQueued = true;
    defer(() => {
      this.compactQueued = false;
      if (this.closed || this.compacting || this.writer.failure || !this.quiet()) return;
      this.compact();
    });
  }

  private compact(): void {
    this.compacting = true;
    this.compactNext = false;
    this.writer.flush();
    const next = this.generation + 1;
    const stateText = JSON.stringify(this.rt.snapshot());
    const header = this.header(next);
    this.writer.switchTo(path.join(this.options.dir, journalName(next)));
    this.gate.restartNumbering();
    this.sockets.restartNumbering();
    this.generation = next;
    // Until the snapshot is whole on disk, the previous one and both journals restore the same state.
    writeSnapshot(this.options.dir, header, stateText)
      .then(() => removeBefore(this.options.dir, next))
      .catch((e: Error) => this.options.warn(`state dir ${this.options.dir}: compaction failed (${e.message}); the journals are kept and replayed on the next start`))
      .finally(() => {
        this.compacting = false;
        this.compactSoon(); // entries may have piled up meanwhile
      });
  }
}

/**
 * Whether a request answered at once goes into the journal: not when a check that options decide
 * refused it before any handler ran (a body over the limit, a wrong control token: they change
 * nothing, and a restart may run with other options), nor when it only touches live peers.
 */
function journaled(req: SimRequest, res: SimResponse): boolean {
  if (res.status === 413) return false;
  return !(res.status === 401 && req.url.startsWith('/_sim/'));
}

/** The few operations that break the method's rule (writesOnRead GETs, liveOnly others): matching only them keeps a read's cost near nothing. */
let exceptions: Router<Operation> | undefined;
function exceptionRoutes(): Router<Operation> {
  if (!exceptions) {
    exceptions = new Router<Operation>();
    for (const op of allOperations()) if (op.writesOnRead || op.liveOnly) exceptions.add(op.method as Method, op.path, op);
  }
  return exceptions;
}

/**
 * Whether the request may change state, so the journal must hold it: not a GET or HEAD (reads,
 * unless the operation declares writesOnRead), nor an operation that changes only live peers
 * (liveOnly). simulator/test/durable-reads.test.ts holds every GET of the kit to the first rule.
 */
function mayWrite(req: SimRequest): boolean {
  const method = req.method.toUpperCase();
  const read = method === 'GET' || method === 'HEAD';
  if (!read && !req.url.startsWith('/_sim/')) return true;
  const q = req.url.indexOf('?');
  const path = q === -1 ? req.url : req.url.slice(0, q);
  const routed = read ? 'GET' : method;
  // Most requests match no exception; one that does is confirmed against every route (a static route may win over its pattern).
  if (exceptionRoutes().match(routed, path).kind !== 'found') return !read;
  const m = router().match(routed, path);
  if (m.kind !== 'found') return !read;
  return read ? m.value.writesOnRead === true : m.value.liveOnly !== true;
}

/** A reset or a state import that succeeded. */
function replacesState(req: SimRequest, res: SimResponse): boolean {
  if (res.status !== 200) return false;
  const m = req.method.toUpperCase();
  const p = req.url.split('?')[0];
  return (m === 'POST' && p === '/_sim/reset') || (m === 'PUT' && p === '/_sim/state');
}
