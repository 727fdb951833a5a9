// A differential run: the same scenarios against two targets (the simulator and a vendor's
// build, or two builds), compared step by step. Every difference in status, in an assertion's
// verdict, in the body's fields and in the order of listed records is reported; a difference
// in a spec-level verdict is a failure (exit 1), everything else an observation. The result is
// a run report, so the console, JSON, JUnit and Markdown writers all apply.
import { summarize, type AssertionResult, type RunReport, type StepResult, type UnitResult } from '../result.ts';

type Json = unknown;

function typeOf(v: Json): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

/** Values each implementation makes up (ids, keys, instants): compared by type only. */
function volatile(path: string, v: Json): boolean {
  if (typeof v !== 'string') return false;
  if (/(^|[.\]])(id|\w+Id|createdAt|updatedAt|\w+At|date\w*|url|\w+Url|key|token|signature)$/i.test(path)) return true;
  if (/^\d{4}-\d{2}-\d{2}T/.test(v)) return true;
  return /\d/.test(v) && /^[\w-]{10,}$/.test(v) && !/^0\d{8,10}$/.test(v);
}

function recordKey(v: Json): string | undefined {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return undefined;
  const o = v as Record<string, unknown>;
  // Values the client chose first (the same in both runs: the seed made them), then ids.
  for (const k of ['number', 'domain', 'id', 'messageId', 'verificationId']) if (typeof o[k] === 'string') return `${k}=${o[k]}`;
  return undefined;
}

/** Field, type, presence, length, order and (for values that are not made up) value differences. */
export function bodyDifferences(a: Json, b: Json, path = 'body', out: string[] = [], limit = 50): string[] {
  if (out.length >= limit) return out;
  const ta = typeOf(a);
  const tb = typeOf(b);
  if (ta !== tb) {
    out.push(`${path}: ${ta} in A, ${tb} in B`);
    return out;
  }
  if (ta === 'array') {
    const xa = a as Json[];
    const xb = b as Json[];
    if (xa.length !== xb.length) out.push(`${path}: ${xa.length} element(s) in A, ${xb.length} in B`);
    const ka = xa.map(recordKey);
    const kb = xb.map(recordKey);
    if (ka.every(Boolean) && kb.every(Boolean) && [...ka].sort().join() === [...kb].sort().join() && ka.join() !== kb.join()) {
      out.push(`${path}: the same records in another order (A: ${ka.join(', ')}; B: ${kb.join(', ')})`);
    }
    for (let i = 0; i < Math.min(xa.length, xb.length); i++) bodyDifferences(xa[i], xb[i], `${path}[${i}]`, out, limit);
    return out;
  }
  if (ta === 'object') {
    const oa = a as Record<string, Json>;
    const ob = b as Record<string, Json>;
    for (const k of Object.keys(oa)) if (!(k in ob)) out.push(`${path}.${k}: only in A`);
    for (const k of Object.keys(ob)) if (!(k in oa)) out.push(`${path}.${k}: only in B`);
    for (const k of Object.keys(oa)) if (k in ob) bodyDifferences(oa[k], ob[k], `${path}.${k}`, out, limit);
    return out;
  }
  if (a !== b && !volatile(path, a) && !volatile(path, b)) out.push(`${path}: ${JSON.stringify(a)} in A, ${JSON.stringify(b)} in B`);
  return out;
}

function outcomes(step: StepResult): Map<string, AssertionResult> {
  const m = new Map<string, AssertionResult>();
  for (const a of step.assertions) if (!m.has(a.id)) m.set(a.id, a);
  return m;
}

function diffStep(sa: StepResult | undefined, sb: StepResult | undefined): AssertionResult[] {
  const out: AssertionResult[] = [];
  const add = (id: string, level: 'spec' | 'sim', clauses: string[], message: string) => out.push({ id, level, clauses, outcome: level === 'spec' ? 'fail' : 'observation', message });
  if (!sa || !sb) {
    add('diff.step', 'sim', [], `the step ran only against ${sa ? 'A' : 'B'}`);
    return out;
  }
  if (sa.status === 'skipped' || sb.status === 'skipped') {
    if (sa.status !== sb.status) add('diff.skipped', 'sim', [], `skipped against ${sa.status === 'skipped' ? `A (${sa.skipReason})` : `B (${sb.skipReason})`} only`);
    return out;
  }
  const oa = outcomes(sa);
  const ob = outcomes(sb);
  let specVerdictDiffers = false;
  for (const id of new Set([...oa.keys(), ...ob.keys()])) {
    const a = oa.get(id);
    const b = ob.get(id);
    if (a && b && a.outcome === b.outcome) continue;
    // Probes run once per operation per run, after whichever read came first: absent on one side is no difference.
    if ((!a || !b) && id.startsWith('probe:')) continue;
    // Observations and failures are the same verdict seen at two sim levels: a verdict differs when one passed.
    if (a && b && a.outcome !== 'pass' && b.outcome !== 'pass') continue;
    const level = (a ?? b)!.level;
    if (level === 'spec' && a && b) specVerdictDiffers = true;
    const show = (x: AssertionResult | undefined) => (x ? `${x.outcome}${x.message ? ` (${x.message})` : ''}` : 'not asserted');
    add(`diff:${id}`, a && b ? level : 'sim', (a ?? b)!.clauses, `A: ${show(a)}; B: ${show(b)}`);
  }
  if (sa.responseStatus !== sb.responseStatus) add('diff.status', specVerdictDiffers ? 'spec' : 'sim', [], `status ${sa.responseStatus} in A, ${sb.responseStatus} in B`);
  else if (sa.responseBody !== undefined || sb.responseBody !== undefined) {
    const fields = bodyDifferences(sa.responseBody, sb.responseBody);
    if (fields.length) add('diff.body', 'sim', [], fields.join('; '));
  }
  return out;
}

export function diffRuns(a: RunReport, b: RunReport): RunReport {
  const byId = new Map(b.units.map((u) => [u.id, u]));
  const units: UnitResult[] = a.units.map((ua) => {
    const ub = byId.get(ua.id);
    const steps: StepResult[] = [];
    const count = Math.max(ua.steps.length, ub?.steps.length ?? 0);
    for (let i = 0; i < count; i++) {
      const sa = ua.steps[i];
      const sb = ub?.steps[i];
      const assertions = ub ? diffStep(sa, sb) : [{ id: 'diff.unit', level: 'sim' as const, clauses: [], outcome: 'observation' as const, message: 'ran only against A' }];
      if (assertions.length) steps.push({ index: i, name: (sa ?? sb)!.name, line: (sa ?? sb)!.line, status: assertions.some((x) => x.outcome === 'fail') ? 'failed' : 'passed', request: sa?.request ?? sb?.request, ms: 0, assertions });
      if (!ub) break;
    }
    const status: UnitResult['status'] = steps.some((s) => s.status === 'failed') ? 'failed' : 'passed';
    return { ...ua, status, skipReason: undefined, steps, ms: ua.ms + (ub?.ms ?? 0) };
  });
  return {
    ...a,
    target: { ...a.target, label: `A ${a.target.label} vs B ${b.target.label}`, capabilities: a.target.capabilities.filter((c) => b.target.capabilities.includes(c)) },
    ms: a.ms + b.ms,
    units,
    summary: summarize(units),
  };
}
