// One exchange's differences: what the target answered against what the recording says the
// recorded implementation answered. Status and error `code` first; then the JSON body's shape and
// values, where ids must be consistent (the same recorded id, the same target id: values.ts),
// instants need only be instants, secrets are not compared and random hex inside a string only
// has to have the same form. A field the target adds is an observation, not a difference.
import { isDatetime, show } from '../scenario/matchers.ts';
import { bodyJson, type RecordedResponse } from '../recording/format.ts';
import type { WireResponse } from '../target.ts';
import { hexPattern, isIdLike, isPlaceholder, ValueMap } from './values.ts';

export type DifferenceKind = 'status' | 'code' | 'content-type' | 'missing' | 'extra' | 'type' | 'value' | 'length';

export interface Difference {
  kind: DifferenceKind;
  /** "status", "code", or where in the body (body.data[0].number). */
  at: string;
  recorded: unknown;
  got: unknown;
  /** An observation (a field only the target has): reported, not counted. */
  observation?: true;
}

const typeName = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
const mainType = (ct: string | undefined) => (ct ?? '').split(';')[0]!.trim().toLowerCase();

function codeOf(json: unknown): unknown {
  return json && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>).code : undefined;
}

function compareValue(rec: unknown, got: unknown, at: string, key: string | undefined, values: ValueMap, out: Difference[]): void {
  if (isPlaceholder(rec)) return; // a secret: its value is the target's own
  if (isIdLike(key, rec)) {
    if (typeof got !== 'string') return void out.push({ kind: 'type', at, recorded: rec, got });
    const expected = values.get(rec);
    if (expected !== undefined && expected !== got) out.push({ kind: 'value', at, recorded: `${rec} (the target's ${expected})`, got });
    return;
  }
  if (isDatetime(rec)) {
    if (!isDatetime(got)) out.push({ kind: 'type', at, recorded: 'an ISO 8601 instant', got });
    return;
  }
  if (typeof rec === 'string' && hexPattern(rec)) {
    const pattern = new RegExp(hexPattern(rec)!);
    if (typeof got !== 'string' || !pattern.test(got)) out.push({ kind: typeof got === 'string' ? 'value' : 'type', at, recorded: rec, got });
    return;
  }
  if (typeName(rec) !== typeName(got)) return void out.push({ kind: got === undefined ? 'missing' : 'type', at, recorded: rec, got });
  if (Array.isArray(rec)) {
    const g = got as unknown[];
    if (g.length !== rec.length) out.push({ kind: 'length', at, recorded: rec.length, got: g.length });
    rec.forEach((r, i) => i < g.length && compareValue(r, g[i], `${at}[${i}]`, key, values, out));
    return;
  }
  if (rec && typeof rec === 'object') {
    const g = got as Record<string, unknown>;
    for (const [k, r] of Object.entries(rec)) {
      if (!(k in g)) out.push({ kind: 'missing', at: `${at}.${k}`, recorded: r, got: undefined });
      else compareValue(r, g[k], `${at}.${k}`, k, values, out);
    }
    for (const k of Object.keys(g)) if (!(k in rec)) out.push({ kind: 'extra', at: `${at}.${k}`, recorded: undefined, got: g[k], observation: true });
    return;
  }
  if (rec !== got) out.push({ kind: 'value', at, recorded: rec, got });
}

/** The differences of one exchange (before the target's ids are learnt from it). */
export function compareExchange(recorded: RecordedResponse, got: WireResponse, values: ValueMap): Difference[] {
  const out: Difference[] = [];
  if (recorded.status !== got.status) out.push({ kind: 'status', at: 'status', recorded: recorded.status, got: got.status });
  const recJson = bodyJson(recorded);
  if (recorded.status >= 400 || got.status >= 400) {
    const a = codeOf(recJson);
    const b = codeOf(got.json);
    if (a !== b) out.push({ kind: 'code', at: 'code', recorded: a, got: b });
    return out; // an error's message is free text; its code is what clients read
  }
  const recType = mainType(recorded.headers['content-type']);
  const gotType = mainType(got.headers['content-type']);
  if (recType !== gotType) out.push({ kind: 'content-type', at: 'content-type', recorded: recType || null, got: gotType || null });
  if (recJson !== undefined) compareValue(recJson, got.json, 'body', undefined, values, out);
  return out;
}

/** One line per difference: "body.number: "01012345678" recorded, "010-1234-5678" from the target". */
export function describe(d: Difference): string {
  switch (d.kind) {
    case 'status':
      return `status ${d.recorded} recorded, ${d.got} from the target`;
    case 'code':
      return `error code ${show(d.recorded)} recorded, ${show(d.got)} from the target`;
    case 'missing':
      return `${d.at}: missing (recorded ${show(d.recorded)})`;
    case 'extra':
      return `${d.at}: only the target has it (${show(d.got)})`;
    case 'length':
      return `${d.at}: ${d.recorded} items recorded, ${d.got} from the target`;
    case 'type':
      return `${d.at}: ${show(d.recorded)} recorded, ${show(d.got)} from the target (another type)`;
    default:
      return `${d.at}: ${show(d.recorded)} recorded, ${show(d.got)} from the target`;
  }
}
