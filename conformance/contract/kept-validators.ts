// Compiled JSON Schema validators kept between runs, as ajv's standalone code, in
// node_modules/.cache/platform-conformance/validators/ under the working directory (none without a
// node_modules there, or with CONFORMANCE_CACHE=off). Compiling was about 0.3 s of CPU for the
// contract's response schemas and as much for the scenario format, in every process that runs the
// kit (docs/decisions.md "Conformance kit: run time"). An entry is found by a hash of what makes
// its code: the caller's key (the schema's text), ajv's and ajv-formats' versions and the options
// (VERSION), so a changed schema or library never reads an old entry. The code is ajv's own
// output for the same schema: the same checks and the same errors as a validator compiled here.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Ajv2020, ValidateFunction } from 'ajv/dist/2020.js';
import standaloneCodeModule from 'ajv/dist/standalone/index.js';
import { kitCachePath, textHash, writeCacheFile } from '../cache-file.ts';

const require = createRequire(import.meta.url);
// ajv's standalone entry is CommonJS with a default export.
const standaloneCode = ((standaloneCodeModule as unknown as { default?: unknown }).default ?? standaloneCodeModule) as (ajv: Ajv2020, validate: ValidateFunction) => string;

/** Bump when what an entry holds changes (the options newAjv passes are part of the caller's ajv). */
const FORMAT = 1;
const VERSION = `${FORMAT}\0${(require('ajv/package.json') as { version: string }).version}\0${(require('ajv-formats/package.json') as { version: string }).version}`;

/** A validator from kept standalone code, if the code is there and loads. */
function load(file: string): ValidateFunction | undefined {
  let code: string;
  try {
    code = readFileSync(file, 'utf8');
  } catch {
    return undefined; // not kept yet
  }
  try {
    const module = { exports: {} as unknown };
    // The code requires ajv's runtime helpers and ajv-formats' formats, both dependencies of the kit.
    new Function('require', 'module', 'exports', code)(require, module, module.exports);
    const validate = module.exports as ValidateFunction;
    return typeof validate === 'function' ? validate : undefined;
  } catch {
    return undefined; // damaged: compiled again
  }
}

/**
 * The validator for `key` (what the schema is, e.g. a hash of its text and where in it): kept
 * code when there is some, else `compile` with the ajv it was made by (made with `code.source`),
 * whose standalone code is kept for the next run.
 */
export function keptValidator(key: string, compile: () => { ajv: Ajv2020; validate: ValidateFunction }, dir = kitCachePath('validators')): ValidateFunction {
  const file = dir && path.join(dir, `${textHash(`${VERSION}\0${key}`)}.cjs`);
  const kept = file ? load(file) : undefined;
  if (kept) return kept;
  const { ajv, validate } = compile();
  if (file) {
    try {
      writeCacheFile(file, standaloneCode(ajv, validate));
    } catch {
      /* a read-only or full disk, or code ajv cannot make standalone: compiled again next time */
    }
  }
  return validate;
}
