// docs/compatibility.md "Not served yet" names the operations of the public API document that the
// simulator does not serve: each one below is absent from /openapi.json and named in the doc.
// Where the shared reference folder sits beside the project (../shared, as on developers'
// machines and in CI), the list is also checked to be complete against the document itself.
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { openApiJson } from '../operations.ts';

const REFERENCE = fileURLToPath(new URL('../../../shared/reference/public-openapi.json', import.meta.url));
const DOC = fileURLToPath(new URL('../../docs/compatibility.md', import.meta.url));

/** The public document's operations the simulator does not serve (facts from its operationIds). */
const NOT_SERVED = [
  'getIceServers',
  'createMobileGatewayEnrollmentToken', 'enrollMobileGateway', 'getMobileGatewayVerificationStatus',
];

type Doc = { paths: Record<string, Record<string, { operationId?: string }>> };

function operations(doc: Doc): Map<string, string> {
  const out = new Map<string, string>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) if (op && typeof op === 'object' && op.operationId) out.set(op.operationId, `${method.toUpperCase()} ${path}`);
  }
  return out;
}

const served = operations(JSON.parse(openApiJson()) as Doc);

describe('docs/compatibility.md, "Not served yet"', () => {
  it('names every operation the simulator does not serve yet, and none that it serves', () => {
    const text = readFileSync(DOC, 'utf8');
    const section = text.slice(text.indexOf('## Not served yet'), text.indexOf('## What the conformance kit'));
    expect(NOT_SERVED.filter((id) => served.has(id))).toEqual([]); // served now: move it out of the doc and this list
    expect(NOT_SERVED.filter((id) => !section.includes(`\`${id}\``))).toEqual([]);
  });

  it.skipIf(!existsSync(REFERENCE))('the list is every operation of the public document the simulator lacks', () => {
    const servedAt = new Set(served.values());
    const reference = operations(JSON.parse(readFileSync(REFERENCE, 'utf8')) as Doc);
    const missing = [...reference].filter(([id, at]) => !served.has(id) && !servedAt.has(at)).map(([id]) => id);
    expect(missing.sort()).toEqual([...NOT_SERVED].sort());
  });
});
