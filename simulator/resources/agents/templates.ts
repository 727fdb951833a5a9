// Templates of an agent behaviour's lines and tool arguments: {{1}}.. (capture groups of the
// rule's pattern; {{0}} the whole match), {{tool}} (the tool result's text), {{tool.path}} (a
// JSON path into it, the flow http block's path syntax), {{var.name}} (the call's CallContext
// variables) and {{knowledge}} (the best knowledge chunk for the utterance). A reference with
// no value renders as the empty string, as a flow's unsupplied variable does.
import { atPath } from '../calls/interpreter.ts';

const REF = /\{\{\s*([^{}]*?)\s*\}\}/g;

export type TemplateRef =
  | { kind: 'group'; index: number; raw: string }
  | { kind: 'tool'; path: string | null; raw: string }
  | { kind: 'var'; name: string; raw: string }
  | { kind: 'knowledge'; raw: string }
  | { kind: 'unknown'; raw: string };

function classify(raw: string): TemplateRef {
  if (/^\d{1,2}$/.test(raw)) return { kind: 'group', index: Number(raw), raw };
  if (raw === 'tool') return { kind: 'tool', path: null, raw };
  const tool = /^tool(?:\.|(?=\[))(.+)$/.exec(raw);
  if (tool) return { kind: 'tool', path: tool[1]!, raw };
  const v = /^var\.([A-Za-z_][A-Za-z0-9_]*)$/.exec(raw);
  if (v) return { kind: 'var', name: v[1]!, raw };
  if (raw === 'knowledge') return { kind: 'knowledge', raw };
  return { kind: 'unknown', raw };
}

/** Every reference a text holds, in order. */
export function templateRefs(text: string): TemplateRef[] {
  return [...text.matchAll(REF)].map((m) => classify(m[1]!));
}

/** The tool result a template reads: its text, and that text parsed when it is JSON. */
export interface ToolValue {
  text: string;
  json: unknown;
}

export interface TemplateScope {
  /** The pattern's match: [whole, group 1, ...]; absent groups are undefined. */
  groups: readonly (string | undefined)[];
  tool: ToolValue | null;
  vars: Readonly<Record<string, string>>;
  /** The best knowledge chunk for the utterance; only called when a template asks. */
  knowledge: () => string;
}

export const EMPTY_SCOPE: TemplateScope = { groups: [], tool: null, vars: {}, knowledge: () => '' };

/** The tool's result as a template reads it: JSON when the text parses as JSON. */
export function toolValue(text: string): ToolValue {
  try {
    return { text, json: JSON.parse(text) };
  } catch {
    return { text, json: undefined };
  }
}

function valueOf(ref: TemplateRef, scope: TemplateScope): string {
  switch (ref.kind) {
    case 'group':
      return scope.groups[ref.index] ?? '';
    case 'tool':
      if (scope.tool === null) return '';
      return ref.path === null ? scope.tool.text : (atPath(scope.tool.json, ref.path) ?? '');
    case 'var':
      return Object.hasOwn(scope.vars, ref.name) ? scope.vars[ref.name]! : '';
    case 'knowledge':
      return scope.knowledge();
    case 'unknown':
      return '';
  }
}

export function render(text: string, scope: TemplateScope): string {
  if (!text.includes('{{')) return text;
  return text.replace(REF, (_, raw: string) => valueOf(classify(raw), scope));
}

/** Tool arguments with every string value (at any depth) rendered. */
export function renderArguments(value: unknown, scope: TemplateScope): unknown {
  if (typeof value === 'string') return render(value, scope);
  if (Array.isArray(value)) return value.map((v) => renderArguments(v, scope));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, renderArguments(v, scope)]));
  return value;
}
