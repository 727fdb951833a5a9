// Digest authentication as a SIP server runs it (RFC 3261 §22, RFC 7616, RFC 8760): the
// challenges it sends (SHA-256 first, then MD5, one nonce, qop "auth"), the credentials a
// client answers with (the Authorization header's auth-params, which the SIP grammar leaves
// unparsed), and the response each algorithm expects. Pure functions.
import { timingSafeEqual } from '../../core/node-crypto.ts';
import { digestHash, type DigestAlgorithm } from '../sip-auth/digest.ts';

/** In order of preference: a client uses the topmost challenge it supports (RFC 8760 §2.4). */
export const CHALLENGE_ALGORITHMS: readonly DigestAlgorithm[] = ['SHA-256', 'MD5'];

export interface DigestCredentials {
  username: string;
  realm: string;
  nonce: string;
  uri: string;
  response: string;
  /** As sent; MD5 when absent (RFC 7616 §3.4). */
  algorithm: string;
  qop: string | undefined;
  nc: string | undefined;
  cnonce: string | undefined;
}

/**
 * The WWW-Authenticate values of one challenge: one per algorithm offered, in that order, sharing
 * the nonce. `MD5` alone (or first) serves clients that read only the topmost challenge and know
 * no SHA-256 (SIPp 3.6, older phones): `sim.listenSip(port, host, { digest })`, `--sip-digest`.
 */
export function challengeHeaders(realm: string, nonce: string, stale: boolean, algorithms: readonly DigestAlgorithm[] = CHALLENGE_ALGORITHMS): string[] {
  return algorithms.map((a) => `Digest realm="${realm}", nonce="${nonce}", algorithm=${a}, qop="auth"${stale ? ', stale=true' : ''}`);
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+/;

/** The auth-params of `Digest k=v, k="v", ...` (lowercase names), or the reason it is not one. */
export function parseAuthParams(value: string): { scheme: string; params: Map<string, string> } | string {
  let rest = value.trim();
  const scheme = TOKEN.exec(rest)?.[0];
  if (!scheme) return 'no auth scheme';
  rest = rest.slice(scheme.length);
  const params = new Map<string, string>();
  let first = true;
  while (rest.trim() !== '') {
    rest = rest.replace(/^[ \t]*/, '');
    if (!first) {
      if (!rest.startsWith(',')) return 'auth-params must be separated by commas';
      rest = rest.slice(1).replace(/^[ \t]*/, '');
    }
    first = false;
    const name = TOKEN.exec(rest)?.[0];
    if (!name) return 'an auth-param has no name';
    rest = rest.slice(name.length).replace(/^[ \t]*/, '');
    if (!rest.startsWith('=')) return `auth-param ${name} has no value`;
    rest = rest.slice(1).replace(/^[ \t]*/, '');
    let v: string;
    if (rest.startsWith('"')) {
      const m = /^"((?:[^"\\]|\\.)*)"/.exec(rest);
      if (!m) return `auth-param ${name} has an unterminated quoted string`;
      v = m[1]!.replace(/\\(.)/g, '$1');
      rest = rest.slice(m[0].length);
    } else {
      const t = TOKEN.exec(rest)?.[0];
      if (!t) return `auth-param ${name} has no value`;
      v = t;
      rest = rest.slice(t.length);
    }
    const key = name.toLowerCase();
    if (params.has(key)) return `auth-param ${name} is repeated`;
    params.set(key, v);
  }
  return { scheme, params };
}

/** The Digest credentials of an Authorization header, or the reason they are not usable. */
export function parseDigestCredentials(value: string): DigestCredentials | string {
  const parsed = parseAuthParams(value);
  if (typeof parsed === 'string') return parsed;
  if (parsed.scheme.toLowerCase() !== 'digest') return `scheme ${parsed.scheme} is not Digest`;
  const p = parsed.params;
  for (const k of ['username', 'realm', 'nonce', 'uri', 'response']) if (!p.has(k)) return `Digest credentials lack ${k}`;
  const qop = p.get('qop');
  if (qop !== undefined && (!p.has('nc') || !p.has('cnonce'))) return 'qop needs nc and cnonce';
  if (p.has('nc') && !/^[0-9a-fA-F]{8}$/.test(p.get('nc')!)) return 'nc must be 8 hexadecimal digits';
  return {
    username: p.get('username')!,
    realm: p.get('realm')!,
    nonce: p.get('nonce')!,
    uri: p.get('uri')!,
    response: p.get('response')!.toLowerCase(),
    algorithm: p.get('algorithm') ?? 'MD5',
    qop,
    nc: p.get('nc'),
    cnonce: p.get('cnonce'),
  };
}

/** The algorithm of credentials the server can check, or undefined (MD5-sess, auth-int and others are not offered). */
export function supportedAlgorithm(c: DigestCredentials): DigestAlgorithm | undefined {
  if (c.qop !== undefined && c.qop.toLowerCase() !== 'auth') return undefined;
  const a = c.algorithm.toUpperCase();
  return a === 'MD5' ? 'MD5' : a === 'SHA-256' ? 'SHA-256' : undefined;
}

/** The response the client must send for this HA1 (RFC 7616 §3.4.1; without qop, RFC 2069's form). */
export function expectedResponse(algorithm: DigestAlgorithm, ha1: string, method: string, c: DigestCredentials): string {
  const ha2 = digestHash(algorithm, `${method}:${c.uri}`);
  const text = c.qop !== undefined ? `${ha1}:${c.nonce}:${c.nc}:${c.cnonce}:${c.qop}:${ha2}` : `${ha1}:${c.nonce}:${ha2}`;
  return digestHash(algorithm, text);
}

/** Whether the client's response is the expected one (compared in constant time). */
export function responseMatches(algorithm: DigestAlgorithm, ha1: string, method: string, c: DigestCredentials): boolean {
  const want = Buffer.from(expectedResponse(algorithm, ha1, method, c), 'latin1');
  const got = Buffer.from(c.response, 'latin1');
  return want.length === got.length && timingSafeEqual(want, got);
}
