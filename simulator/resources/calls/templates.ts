// `{{name}}` templates of call flows (spec "Call flow"): the names a template refers to, and the
// template rendered with a call's variables. A template is split into its texts and names once
// and kept (a batch's flow says the same greeting at every one of its million calls).

const VAR_REF = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

/** The names of the `{{name}}` references render() fills, each once, in order of appearance. */
export function variableNames(template: string): string[] {
  return [...new Set([...template.matchAll(VAR_REF)].map((m) => m[1]!))];
}

/** `{{name}}` replaced by the variable's value; an unsupplied variable renders as "" (spec "Call flow"). */
export function render(template: string, vars: Readonly<Record<string, string>>): string {
  const parts = partsOf(template);
  let out = parts[0]!;
  for (let i = 1; i < parts.length; i += 2) out += (Object.hasOwn(vars, parts[i]!) ? vars[parts[i]!]! : '') + parts[i + 1]!;
  return out;
}

/** Templates split once (a flow's blocks say the same template at every call): texts at even places, the names between them at odd ones. */
const templateParts = new Map<string, string[]>();

function partsOf(template: string): string[] {
  let parts = templateParts.get(template);
  if (parts !== undefined) return parts;
  parts = [];
  let from = 0;
  for (const m of template.matchAll(VAR_REF)) {
    parts.push(template.slice(from, m.index), m[1]!);
    from = m.index! + m[0].length;
  }
  parts.push(template.slice(from));
  if (templateParts.size >= 1024) templateParts.clear();
  templateParts.set(template, parts);
  return parts;
}
