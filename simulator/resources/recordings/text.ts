// The words of transcripts and summaries: Korean text from a seeded faker (ko locale), made when
// read from the recording's stored seed and pieces, so the same seed and call give the same text
// and nothing but lengths and seeds is stored. Faker is loaded on first use: it is only needed
// once a transcript is read, and loading it costs the simulator's start ~40 ms.
import { createRequire } from 'node:module';
import type { Faker } from '@faker-js/faker';
import { SeededRandom } from '../../core/random.ts';
import { seedOf } from './wav.ts';

let korean: Faker | undefined;
function faker(seed: number): Faker {
  korean ??= (createRequire(import.meta.url)('@faker-js/faker/locale/ko') as { faker: Faker }).faker;
  korean.seed(seed);
  return korean;
}

export interface Segment {
  speaker: string;
  start: number;
  end: number;
  text: string;
}

/** Each piece cut into turns of 2 to 5 seconds: where each turn starts (seconds into the recording) and how long it is. */
function turns(seed: number, callId: string, pieces: readonly { seconds: number }[]): { start: number; seconds: number }[] {
  const out: { start: number; seconds: number }[] = [];
  const random = new SeededRandom(seedOf(seed, callId, 'turns'));
  let offset = 0;
  for (const piece of pieces) {
    let left = piece.seconds;
    while (left > 0) {
      const len = Math.min(left, random.int(2, 5));
      out.push({ start: offset, seconds: len });
      offset += len;
      left -= len;
    }
  }
  return out;
}

/** How many segments transcriptSegments gives, without making their text. */
export function segmentCount(seed: number, callId: string, pieces: readonly { seconds: number }[]): number {
  return turns(seed, callId, pieces).length;
}

/**
 * The segments of a recording made of `pieces` (seconds each, in order): each piece is cut into
 * turns of 2 to 5 seconds that the speakers take in turn; times are seconds into the recording.
 */
export function transcriptSegments(seed: number, callId: string, pieces: readonly { seconds: number }[], speakers: readonly string[]): Segment[] {
  const f = faker(seedOf(seed, callId, 'text')); // seeded once: reseeding per turn costs ~1 ms each
  return turns(seed, callId, pieces).map((t, i) => ({
    speaker: speakers[i % speakers.length]!,
    start: t.start,
    // Speech ends a little before the turn does: doubles, as the spec's table types them.
    end: t.start + t.seconds - 0.25,
    text: f.lorem.sentence({ min: 2, max: 2 + t.seconds }),
  }));
}

/** Speaker labels: AGENT/CUSTOMER before 2026-08; speaker_0.. with one more per transfer party after. */
export function speakerLabels(legacy: boolean, transferParties: number): string[] {
  if (legacy) return ['AGENT', 'CUSTOMER'];
  return Array.from({ length: 2 + transferParties }, (_, i) => `speaker_${i}`);
}

/** The default schema's guaranteed fields (default:v1); their types are ours (docs/decisions.md). */
export function defaultSummary(seed: number, callId: string): Record<string, unknown> {
  const f = faker(seedOf(seed, callId, 'summary'));
  return {
    coreSummary: f.lorem.sentences(2),
    decisions: Array.from({ length: f.number.int({ min: 1, max: 3 }) }, () => f.lorem.sentence()),
    followUps: Array.from({ length: f.number.int({ min: 0, max: 2 }) }, () => f.lorem.sentence()),
    sentiment: f.helpers.arrayElement(['positive', 'neutral', 'negative']),
  };
}

/**
 * A value conforming to an organisation's output schema (a JSON Schema object): every property
 * (required or not) filled by its type; enums take one of their values, constants their value.
 */
export function summaryFor(schema: unknown, seed: number, callId: string): Record<string, unknown> {
  const f = faker(seedOf(seed, callId, 'summary'));
  const value = fill(schema, f, 0);
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : { value };
}

/** Longest array a schema can ask for here: a summary is small whatever minItems says. */
const MAX_ITEMS = 20;

function fill(schema: unknown, f: Faker, depth: number): unknown {
  if (schema === null || typeof schema !== 'object' || depth > 8) return f.lorem.sentence();
  const s = schema as Record<string, unknown>;
  const num = (k: string) => (typeof s[k] === 'number' && Number.isFinite(s[k]) ? (s[k] as number) : undefined);
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum) && s.enum.length > 0) return f.helpers.arrayElement(s.enum);
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  switch (type) {
    case 'string': {
      const text = f.lorem.sentence();
      const max = num('maxLength');
      return max === undefined ? text : [...text].slice(0, Math.max(0, Math.floor(max))).join('');
    }
    case 'integer': {
      const min = Math.ceil(num('minimum') ?? 0);
      return f.number.int({ min, max: Math.max(min, Math.floor(num('maximum') ?? min + 10)) });
    }
    case 'number': {
      const min = num('minimum') ?? 0;
      return f.number.float({ min, max: Math.max(min, num('maximum') ?? min + 1), fractionDigits: 2 });
    }
    case 'boolean':
      return f.datatype.boolean();
    case 'array': {
      const min = Math.min(MAX_ITEMS, Math.max(0, Math.ceil(num('minItems') ?? 1)));
      const max = Math.min(MAX_ITEMS, Math.max(min, Math.floor(num('maxItems') ?? Math.max(min, 3))));
      return Array.from({ length: f.number.int({ min, max }) }, () => fill(s.items, f, depth + 1));
    }
    case 'object':
    default: {
      const props = s.properties !== null && typeof s.properties === 'object' && !Array.isArray(s.properties) ? (s.properties as Record<string, unknown>) : {};
      if (type !== 'object' && Object.keys(props).length === 0) return f.lorem.sentence();
      return Object.fromEntries(Object.entries(props).map(([k, v]) => [k, fill(v, f, depth + 1)]));
    }
  }
}
