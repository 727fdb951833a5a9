// A multipart/form-data request to an in-process simulator (uploads of knowledge files and
// voice clips): the form encoded by the platform's own FormData, sent as bytes.
import type { Simulator } from '../index.ts';
import { ACME } from './helpers.ts';

/** A multipart request (the body as bytes, with its boundary). */
export async function multipart(sim: Simulator, url: string, parts: Record<string, string | { fileName: string; bytes: Uint8Array | string }>, key = ACME.key) {
  const form = new FormData();
  for (const [name, v] of Object.entries(parts)) {
    if (typeof v === 'string') form.append(name, v);
    else form.append(name, new Blob([typeof v.bytes === 'string' ? new TextEncoder().encode(v.bytes) : v.bytes]), v.fileName);
  }
  const req = new Request('http://sim.test/', { method: 'POST', body: form });
  const res = await sim.handle({ method: 'POST', url, headers: { authorization: `Bearer ${key}`, 'content-type': req.headers.get('content-type')! }, body: new Uint8Array(await req.arrayBuffer()) });
  return { status: res.status, json: res.body ? JSON.parse(res.body) : undefined };
}

