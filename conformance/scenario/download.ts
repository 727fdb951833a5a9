// Downloads that may redirect (recordings: "needs the bearer header and may redirect"): a 3xx
// with a Location is followed once. A path on the target is asked with the same headers; a URL
// elsewhere (a signed storage link) is fetched without the key, which must not leave the target.
import { request } from 'undici';
import { lowerCaseHeaders, readCapped, type Target, type WireRequest, type WireResponse } from '../target.ts';

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_DOWNLOAD_BYTES = 16 * 1024 * 1024;
/** A storage host that never answers fails the step rather than hanging the run (the remote target's own limit). */
const DOWNLOAD_TIMEOUT_MS = 30_000;

export async function followRedirect(target: Target, sent: WireRequest, res: WireResponse): Promise<WireResponse> {
  const location = res.headers.location;
  if (!REDIRECTS.has(res.status) || !location) return res;
  if (location.startsWith('/')) return target.send({ method: 'GET', path: location, headers: sent.headers });
  const started = performance.now();
  const answer = await request(location, { method: 'GET', signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS) });
  const bytes = await readCapped(answer.body, MAX_DOWNLOAD_BYTES);
  const headers = lowerCaseHeaders(answer.headers);
  return { status: answer.statusCode, headers, text: '', json: undefined, bytes, ms: performance.now() - started };
}
