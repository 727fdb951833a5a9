// Values the request examples take from what earlier examples created: ids are drawn from the
// seed, so in document order against the default fixture they are always the same, and the
// document shows them literally. The literals live in example-values.json, written by
// `EXAMPLES_WRITE=1 npx vitest run simulator/test/openapi-examples.test.ts`, which runs the
// examples and reads each value off the answer that made it; the same test fails when a
// literal no longer matches (an example or the id drawing changed).
//   Keys: `<operationId>.<example name>.<field>` (a field of that example's answer; `#claim`
//   after it reads a claim of the JSON Web Token the field holds),
//   `code:<phone>` (the verification code the phone last received),
//   `kakaoToken:<phone>` (the messenger token the manager's phone last received).
import values from './example-values.json' with { type: 'json' };

const known: Readonly<Record<string, string>> = values;
const keyOfLiteral = new Map<string, string>();

/** The literal the examples show for `key` (a placeholder until the values are written). */
export function ref(key: string): string {
  const literal = known[key] ?? `{{${key}}}`;
  keyOfLiteral.set(literal, key);
  return literal;
}

/** Every literal an example shows through ref(), with its key. */
export function exampleRefs(): ReadonlyMap<string, string> {
  return keyOfLiteral;
}
