// ICE servers for WebRTC clients (the reference's getIceServers): a STUN URL and TURN URLs with a
// short-lived credential in the TURN REST API form (username `<expiry unix seconds>:<accountId>`,
// credential base64(HMAC-SHA1(secret, username))). Simulated: no STUN or TURN server runs here;
// the secret is documented, so a test can check the credential. Time from the virtual clock.
import { createHmac } from '../../core/node-crypto.ts';
import { iso } from '../../core/clock.ts';
import type { ModelScope } from '../../core/scope.ts';

/** The simulator's TURN shared secret (documented, not secret). */
export const TURN_SECRET = 'platform-simulator-turn-secret';
export const STUN_URL = 'stun:turn.claw-ops.com:3478';
export const TURN_URLS = ['turn:turn.claw-ops.com:3478?transport=udp', 'turn:turn.claw-ops.com:3478?transport=tcp', 'turns:turn.claw-ops.com:5349?transport=tcp'];

export function turnCredential(username: string, secret = TURN_SECRET): string {
  return createHmac('sha1', secret).update(username).digest('base64');
}

export class IceServersModel {
  constructor(private readonly scope: ModelScope) {}

  /** The servers for `accountId`, the TURN credential good for `ttlSeconds` from now. */
  issue(accountId: string, ttlSeconds: number) {
    const expiresMs = this.scope.clock.now() + ttlSeconds * 1000;
    const username = `${Math.floor(expiresMs / 1000)}:${accountId}`;
    return {
      ice_servers: [{ urls: STUN_URL }, { urls: TURN_URLS, username, credential: turnCredential(username), credential_type: 'password' as const }],
      expires_at: iso(expiresMs),
    };
  }
}
