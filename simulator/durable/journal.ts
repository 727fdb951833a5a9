// The append-only journal of one generation (files.ts): entries are buffered as they happen and
// written to the file (one write for all that is buffered) before each answer is sent, and soon
// after any entry when no answer follows (an outcome landing while nobody asks). A write goes to
// the operating system, so it survives the death of the process; it is not synced to the disk
// per entry (snapshots are). Reading keeps every whole line: a last line without its newline is a
// write the process died in the middle of, never acknowledged, and is dropped with a warning and
// cut from the file; any other line that is not an entry means the file is damaged.
import { closeSync, openSync, readFileSync, truncateSync, writeSync } from 'node:fs';
import path from 'node:path';
import { entryProblem, type Entry } from './entries.ts';
import { journalName, StateDirError } from './files.ts';

export class JournalWriter {
  private fd: number;
  private buffered: string[] = [];
  private flushQueued = false;
  /** Entries and bytes in the current file (compaction reads them). */
  entries = 0;
  bytes = 0;
  /** Set once a write failed: the state in memory is ahead of the disk from then on. */
  failure: Error | undefined;

  constructor(
    file: string,
    existing: { entries: number; bytes: number },
    private readonly defer: (fn: () => void) => void,
    private readonly onFailure: (e: Error) => void,
  ) {
    this.fd = openSync(file, 'a', 0o600);
    this.entries = existing.entries;
    this.bytes = existing.bytes;
  }

  append(entry: Entry): void {
    this.buffered.push(`${JSON.stringify(entry)}\n`);
    this.entries++;
    if (!this.flushQueued) {
      this.flushQueued = true;
      this.defer(() => {
        this.flushQueued = false;
        this.flush();
      });
    }
  }

  /** Writes what is buffered; false when the journal cannot be written (the failure is reported once). */
  flush(): boolean {
    if (this.failure) return false;
    if (this.buffered.length === 0) return true;
    const data = Buffer.from(this.buffered.length === 1 ? this.buffered[0]! : this.buffered.join(''));
    this.buffered = [];
    try {
      for (let off = 0; off < data.length; ) off += writeSync(this.fd, data, off, data.length - off);
      this.bytes += data.length;
      return true;
    } catch (e) {
      this.failure = e as Error;
      this.onFailure(this.failure);
      return false;
    }
  }

  /** Continues in another file (a new generation); everything buffered goes to the old one first. */
  switchTo(file: string): void {
    this.flush();
    closeSync(this.fd);
    this.fd = openSync(file, 'a', 0o600);
    this.entries = 0;
    this.bytes = 0;
  }

  close(): void {
    this.flush();
    closeSync(this.fd);
  }
}

/** The entries of generation `generation`; `last`: the newest journal, whose last line may be torn. */
export function readJournal(dir: string, generation: number, last: boolean, warn: (message: string) => void): { entries: Entry[]; bytes: number } {
  const name = journalName(generation);
  const file = path.join(dir, name);
  const data = readFileSync(file);
  let end = data.length;
  if (end > 0 && data[end - 1] !== 0x0a) {
    const cut = data.lastIndexOf(0x0a) + 1;
    if (!last) throw new StateDirError(`state dir ${dir}: ${name} ends in the middle of a line but a newer journal follows it; the dir is damaged. Restore it from a backup, or move it aside to start empty.`);
    warn(`state dir ${dir}: ${name} ends with a torn line (${end - cut} bytes written when the process died, never acknowledged); dropped`);
    truncateSync(file, cut);
    end = cut;
  }
  const entries: Entry[] = [];
  const text = data.subarray(0, end).toString('utf8');
  let start = 0;
  for (let line = 1; start < text.length; line++) {
    const nl = text.indexOf('\n', start);
    const raw = text.slice(start, nl);
    start = nl + 1;
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch (e) {
      throw damagedLine(dir, name, line, `not JSON: ${(e as Error).message}`);
    }
    const problem = entryProblem(parsed);
    if (problem) throw damagedLine(dir, name, line, problem);
    entries.push(parsed as Entry);
  }
  return { entries, bytes: end };
}

function damagedLine(dir: string, name: string, line: number, why: string): StateDirError {
  return new StateDirError(`state dir ${dir}: ${name} line ${line} is damaged (${why}); refusing to start rather than lose what follows it. Restore the dir from a backup, or move it aside to start empty.`);
}
