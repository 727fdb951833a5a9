// JUnit XML: one testsuite per run, one testcase per unit. Counted failures become <failure>;
// sim observations against a real target go to <system-out>; skipped units are <skipped>.
import type { RunReport, UnitResult } from '../result.ts';

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');
}

function lines(u: UnitResult, outcome: 'fail' | 'observation'): string[] {
  return u.steps.flatMap((s) =>
    s.assertions
      .filter((a) => a.outcome === outcome)
      .map((a) => `${a.level} ${a.id} [${a.clauses.join(', ')}] step ${s.index + 1} "${s.name}"${s.line ? ` (${u.file}:${s.line})` : ''}: ${a.message ?? ''}`),
  );
}

export function toJunit(report: RunReport): string {
  const s = report.summary;
  const cases = report.units.map((u) => {
    const classname = u.kind === 'property' ? 'properties' : (u.id.split('/')[0] ?? 'scenarios');
    const open = `    <testcase classname="${esc(classname)}" name="${esc(u.id)}" file="${esc(u.file ?? '')}" time="${(u.ms / 1000).toFixed(3)}">`;
    const body: string[] = [];
    if (u.status === 'skipped') body.push(`      <skipped message="${esc(u.skipReason ?? 'skipped')}"/>`);
    const failures = lines(u, 'fail');
    if (failures.length) body.push(`      <failure message="${esc(failures[0]!)}" type="conformance">${esc(failures.join('\n'))}</failure>`);
    const observations = lines(u, 'observation');
    if (observations.length) body.push(`      <system-out>${esc(observations.map((o) => `observation: ${o}`).join('\n'))}</system-out>`);
    return body.length ? `${open}\n${body.join('\n')}\n    </testcase>` : `${open}</testcase>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="conformance" tests="${report.units.length}" failures="${s.units.failed}" skipped="${s.units.skipped}" time="${(report.ms / 1000).toFixed(3)}">`,
    `  <testsuite name="conformance ${esc(report.target.label)}" tests="${report.units.length}" failures="${s.units.failed}" skipped="${s.units.skipped}" time="${(report.ms / 1000).toFixed(3)}" timestamp="${report.startedAt}">`,
    `    <properties><property name="seed" value="${report.seed}"/><property name="target" value="${esc(report.target.label)}"/></properties>`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
