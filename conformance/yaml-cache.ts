// Parsed YAML kept between runs, in node_modules/.cache/platform-conformance/ under the working
// directory (where a project keeps such caches; none without a node_modules there, or with
// CONFORMANCE_CACHE=off). Parsing with source positions was most of the kit's loading: about
// 1.2 s of CPU for the ~160 scenarios of every run (docs/decisions.md "Conformance kit: run time").
// By the hash of a file's text it keeps the data (as JSON) and the positions asked of it (the
// line of each step); a position it lacks (a problem's place) parses the text then. Only a text
// that parses without error or warning, and whose data come back from JSON unchanged, is kept.
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { kitCachePath, textHash, writeCacheFile } from './cache-file.ts';

/** Bump when what a kept position means changes (YamlSource.position) or the data a text gives. */
const FORMAT = 1;
/** Entries kept at most (the kit's tests parse many small texts); the least recently used go first. */
const MAX_ENTRIES = 3000;

export type Position = { line: number; column: number };

/** One parsed text: its data as JSON and the positions known so far, by JSON pointer. */
export interface CachedYaml {
  json: string;
  positions: Record<string, [number, number]>;
  used: number;
}

interface CacheFile {
  format: number;
  entries: Record<string, CachedYaml>;
}

function readCache(file: string): Record<string, CachedYaml> {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as CacheFile;
    return parsed.format === FORMAT && parsed.entries && typeof parsed.entries === 'object' ? parsed.entries : {};
  } catch {
    return {}; // none yet, or unreadable: parse as if there were none
  }
}

export class YamlCache {
  private entries: Record<string, CachedYaml> | undefined;
  private file: string | undefined;
  private dirty = false;

  /** `fileOf`: where the cache lives (read at first use); undefined keeps nothing between runs. */
  constructor(private readonly fileOf: () => string | undefined = () => kitCachePath('yaml.json')) {}

  private load(): Record<string, CachedYaml> {
    if (!this.entries) {
      this.file = this.fileOf();
      this.entries = this.file ? readCache(this.file) : {};
      if (this.file) process.once('exit', () => this.flush());
    }
    return this.entries;
  }

  /** The kept entry and a fresh copy of its data, if this text was kept. */
  lookup(text: string): { entry: CachedYaml; data: unknown } | undefined {
    const entry = this.load()[textHash(text)];
    if (!entry) return undefined;
    entry.used = Date.now();
    return { entry, data: JSON.parse(entry.json) };
  }

  /** Keeps a text's data (when JSON carries it unchanged); the entry to note positions in. */
  keep(text: string, data: unknown): CachedYaml | undefined {
    const entries = this.load();
    if (!this.file) return undefined;
    const json = JSON.stringify(data);
    if (json === undefined || !isDeepStrictEqual(JSON.parse(json), data)) return undefined;
    const entry: CachedYaml = { json, positions: {}, used: Date.now() };
    entries[textHash(text)] = entry;
    this.dirty = true;
    return entry;
  }

  notePosition(entry: CachedYaml, pointer: string, pos: Position): void {
    entry.positions[pointer] = [pos.line, pos.column];
    this.dirty = true;
  }

  /** Writes what this process added, merged with what others wrote meanwhile (write, then rename). */
  flush(): void {
    if (!this.dirty || !this.file || !this.entries) return;
    this.dirty = false;
    try {
      const merged = { ...readCache(this.file), ...this.entries };
      const kept = Object.entries(merged)
        .sort((a, b) => b[1].used - a[1].used)
        .slice(0, MAX_ENTRIES);
      writeCacheFile(this.file, JSON.stringify({ format: FORMAT, entries: Object.fromEntries(kept) } satisfies CacheFile));
    } catch {
      /* a read-only or full disk: the next run parses again */
    }
  }
}

export const yamlCache = new YamlCache();
