// Opaque identifiers (spec Conventions 3), drawn from the seeded generator so that the same
// seed and the same requests give the same ids. Each kind has its own prefix; the families
// declare their formats (resources/<name>/schema.ts) and resources/index.ts lists them all.
import type { SeededRandom } from './random.ts';

/** An id is `prefix` followed by `hex` lowercase hex digits. */
export interface IdFormat {
  readonly prefix: string;
  readonly hex: number;
}

export function newId(random: SeededRandom, format: IdFormat): string {
  return random.hex(format.hex, format.prefix);
}

/** A new id of `format` that `taken` does not already hold (collisions are rare, but cheap to rule out). */
export function freshId(random: SeededRandom, format: IdFormat, taken: (id: string) => boolean): string {
  for (;;) {
    const id = newId(random, format);
    if (!taken(id)) return id;
  }
}
