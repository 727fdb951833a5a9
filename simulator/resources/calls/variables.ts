// A call's start variables (createCall `Variables`, and each call batch task's): strings, checked
// as createCall documents them, with a 400 naming the variable. Apart from the model so that
// call batches check their tasks the same way without importing it.
import { ApiError } from '../../core/errors.ts';
import { setMember } from '../../core/own-member.ts';
import { RESERVED_VARIABLES } from './schema.ts';

const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const MAX_START_VARIABLES = 50;
const MAX_START_VARIABLE_BYTES = 8192;

/** A refused start variable: 400 naming it. At module level: a named function made per call costs a property definition each time under a name-keeping build (tsx), a million times for a batch. */
function bad(path: string, message: string): never {
  throw ApiError.validation(`${path} ${message}`, [{ path, message }]);
}

/** Start variables as strings, checked as createCall documents them (400 naming the variable). */
export function startVariables(raw: Record<string, string | number | boolean>): Record<string, string> {
  const names = Object.keys(raw);
  if (names.length > MAX_START_VARIABLES) bad('Variables', `has ${names.length} entries; at most ${MAX_START_VARIABLES}`);
  const out: Record<string, string> = {};
  // Each UTF-16 unit of a name or value takes at most 6 bytes of JSON (an escape, or 3 UTF-8
  // bytes), each entry 6 more (quotes, colon, comma): variables under that bound are not
  // written out to be measured (a batch checks a million recipients' variables).
  let bound = 2;
  for (const name of names) {
    if (!VARIABLE_NAME.test(name)) bad(`Variables.${name}`, 'is not a valid name: letters, digits and _, not starting with a digit');
    if ((RESERVED_VARIABLES as readonly string[]).includes(name)) bad(`Variables.${name}`, 'is filled by the platform during the call and cannot be set');
    const value = String(raw[name]);
    setMember(out, name, value);
    bound += 6 * (name.length + value.length) + 6;
  }
  if (bound > MAX_START_VARIABLE_BYTES && Buffer.byteLength(JSON.stringify(out)) > MAX_START_VARIABLE_BYTES) bad('Variables', `is over ${MAX_START_VARIABLE_BYTES} bytes`);
  return out;
}

/** A flow call's variables at its start: the platform's `caller` and `callee`, then the caller's own, member by member (a spread after members copies through a generic path). */
export function callVariables(caller: string, callee: string, start: Readonly<Record<string, string>>): Record<string, string> {
  const vars: Record<string, string> = { caller, callee };
  for (const name in start) setMember(vars, name, start[name]!);
  return vars;
}
