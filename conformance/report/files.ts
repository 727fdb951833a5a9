// Report files: --report junit:PATH,json:PATH,md:PATH. Each writer is a pure function of the
// (already redacted) run report.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ClauseCatalogue } from '../clauses.ts';
import type { RunReport } from '../result.ts';
import { toJunit } from './junit.ts';
import { toMarkdown } from './markdown.ts';

export type ReportFormat = 'junit' | 'json' | 'md';

export interface ReportSpec {
  format: ReportFormat;
  path: string;
}

/** Parses "junit:out/a.xml,json:out/a.json,md:out/a.md". */
export function parseReportSpecs(text: string): ReportSpec[] {
  return text
    .split(',')
    .filter((s) => s.trim() !== '')
    .map((part) => {
      const m = /^(junit|json|md):(.+)$/.exec(part.trim());
      if (!m) throw new Error(`--report takes FORMAT:PATH pairs separated by commas (formats: junit, json, md), got "${part}"`);
      return { format: m[1] as ReportFormat, path: m[2]! };
    });
}

export function renderReport(format: ReportFormat, report: RunReport, catalogue?: ClauseCatalogue): string {
  switch (format) {
    case 'json':
      return `${JSON.stringify(report, null, 2)}\n`;
    case 'junit':
      return toJunit(report);
    case 'md':
      return toMarkdown(report, catalogue);
  }
}

export function writeReports(specs: readonly ReportSpec[], report: RunReport, catalogue?: ClauseCatalogue): void {
  for (const spec of specs) {
    mkdirSync(path.dirname(path.resolve(spec.path)), { recursive: true });
    writeFileSync(spec.path, renderReport(spec.format, report, catalogue));
  }
}
