// Credential cryptography of SIP auth: the account's digest realm, the stored HA1s (MD5 and
// SHA-256), and the HS256 JWTs handed out as WebRTC tokens. Pure functions, no state.
import { createHash, createHmac } from '../../core/node-crypto.ts';

/** SIP-over-WebSocket gateway URL handed out with tokens (the reference's example). */
export const WS_URL = 'wss://sip.claw-ops.com:5063';
/** Key the simulator signs WebRTC JWTs with (HS256). Clients only decode them; documented, not secret. */
export const WEBRTC_JWT_KEY = 'platform-simulator-webrtc-jwt-key';

const b64url = (s: string | Buffer) => Buffer.from(s).toString('base64url');

/** A compact HS256 JWT. */
export function signJwt(claims: Record<string, unknown>, key = WEBRTC_JWT_KEY): string {
  const head = `${b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${b64url(JSON.stringify(claims))}`;
  return `${head}.${createHmac('sha256', key).update(head).digest('base64url')}`;
}

/** The account's digest realm, as the reference documents it. */
export function realmOf(accountId: string): string {
  return `${accountId.toLowerCase()}.sip.claw-ops.com`;
}

/** The digest algorithms the SIP server challenges with (RFC 8760): SHA-256 preferred, MD5 for older clients. */
export type DigestAlgorithm = 'MD5' | 'SHA-256';

const HASH_OF: Record<DigestAlgorithm, string> = { MD5: 'md5', 'SHA-256': 'sha256' };

/** The digest hash H() of an algorithm, lowercase hex (RFC 7616 §3.4). */
export function digestHash(algorithm: DigestAlgorithm, text: string): string {
  return createHash(HASH_OF[algorithm]).update(text, 'latin1').digest('hex');
}

/** SIP digest HA1 = md5(username:realm:password), lowercase hex (RFC 2617 / RFC 7616 with MD5). */
export function digestHa1(username: string, realm: string, password: string): string {
  return digestHash('MD5', `${username}:${realm}:${password}`);
}

/** The same HA1 with SHA-256 (RFC 8760), kept beside the MD5 one so either challenge can be checked. */
export function digestHa1Sha256(username: string, realm: string, password: string): string {
  return digestHash('SHA-256', `${username}:${realm}:${password}`);
}
