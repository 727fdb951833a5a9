// The request examples of a document, as the tools that read them (Dredd, Postman) send them: in
// document order, each example's parameters and body gathered by its name.
import type { DocOperation } from './operations.ts';
import type { GeneratedRequest } from './requests.ts';

export interface DocExample {
  op: DocOperation;
  name: string;
  summary: string;
  request: GeneratedRequest;
}

export function examplesOf(ops: DocOperation[]): DocExample[] {
  const out: DocExample[] = [];
  for (const op of ops) {
    const names = new Set<string>();
    for (const p of op.params) for (const n of Object.keys(p.examples)) names.add(n);
    for (const m of op.body?.media ?? []) for (const n of Object.keys(m.examples)) names.add(n);
    for (const name of names) {
      const params: Record<string, string> = {};
      const query: Record<string, unknown> = {};
      const headers: Record<string, string> = {};
      for (const p of op.params) {
        if (p.examples[name] === undefined) continue;
        if (p.in === 'path') params[p.name] = String(p.examples[name]);
        else if (p.in === 'header') headers[p.name] = String(p.examples[name]);
        else query[p.name] = p.examples[name];
      }
      const media = op.body?.media.find((m) => m.examples[name]);
      const summary = media?.examples[name]?.summary ?? name;
      const request: GeneratedRequest = { params, query, headers, ...(media ? { body: { media: media.type, value: media.examples[name]!.value } } : {}) };
      out.push({ op, name, summary, request });
    }
  }
  return out;
}
