// Utterances kept on disk between processes, in the folder PLATFORM_SIM_SPEECH_CACHE names (the
// test suite names one under node_modules/.cache; nothing is kept without it). A line costs the
// engine 50 to 200 ms of CPU, and every test worker and every kit run said the same lines again.
// An entry is found by a hash of the line's text and rate and of what makes its bytes: the speech
// peer's own sources and the engine package's version. So a changed resampler, encoder or engine
// never reads an old entry (docs/decisions.md "Speech synthesis").
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHash } from '../../core/node-crypto.ts';

export interface UtteranceStore {
  /** The audio kept for a key (the synthesizer's: text, with the rate when not the default), if any. */
  read(key: string): Buffer | undefined;
  /** Whether an entry is kept for the key (read may still find it damaged, and the engine is asked then). */
  has(key: string): boolean;
  write(key: string, audio: Buffer): void;
}

const FRAME_BYTES = 160;

/** What an entry's bytes depend on besides its text: this folder's sources and the engine's version. */
function speechVersion(): string | undefined {
  try {
    const here = dirname(fileURLToPath(import.meta.url));
    const hash = createHash('sha256');
    const sources = readdirSync(here).filter((f) => /\.(ts|js)$/.test(f)).sort();
    if (!sources.includes('espeak.ts')) return undefined; // not the sources (a bundle): keep nothing
    for (const f of sources) hash.update(f).update('\0').update(readFileSync(join(here, f))).update('\0');
    const require = createRequire(import.meta.url);
    const engineDir = dirname(require.resolve('@echogarden/espeak-ng-emscripten'));
    hash.update(readFileSync(join(engineDir, 'package.json')));
    return hash.digest('hex');
  } catch {
    return undefined;
  }
}

/** A store in `dir` for utterances made by the code as it is now. */
export function utteranceStore(dir: string, version = speechVersion()): UtteranceStore | undefined {
  if (version === undefined) return undefined;
  const fileOf = (key: string) => join(dir, `${createHash('sha256').update(version).update('\0').update(key).digest('base64url')}.ulaw`);
  return {
    has: (key) => existsSync(fileOf(key)),
    read(key) {
      try {
        const audio = readFileSync(fileOf(key));
        return audio.length % FRAME_BYTES === 0 ? audio : undefined;
      } catch {
        return undefined; // not kept yet
      }
    },
    write(key, audio) {
      try {
        mkdirSync(dir, { recursive: true });
        const file = fileOf(key);
        const tmp = `${file}.${process.pid}.tmp`;
        writeFileSync(tmp, audio);
        renameSync(tmp, file); // whole or not at all, for a reader in another process
      } catch {
        /* a read-only or full disk: synthesised again next time */
      }
    },
  };
}

/** The store PLATFORM_SIM_SPEECH_CACHE names, if it names one. */
export function storeFromEnvironment(): UtteranceStore | undefined {
  const dir = process.env.PLATFORM_SIM_SPEECH_CACHE;
  return dir ? utteranceStore(dir) : undefined;
}
