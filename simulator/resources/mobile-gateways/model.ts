// Mobile gateways: enrollment tokens (one use, 24 h, kept as SHA-256 only), gateways enrolled with
// a WireGuard public key (one tunnel address each from 10.9.0.0/16, in order), and the number
// verification each enrollment opens (30 min; verified by a text from the box's phone, which the
// control plane delivers). Status is read from the virtual clock; refusals change nothing.
import { createHash } from '../../core/node-crypto.ts';
import { Table } from '../../core/store.ts';
import { iso } from '../../core/clock.ts';
import { freshId } from '../../core/ids.ts';
import { normalizePhone } from '../../core/phone.ts';
import type { ModelScope } from '../../core/scope.ts';
import { mobileGatewayErrors as E } from './errors.ts';
import {
  MOBILE_GATEWAY_IDS,
  RECEIVE_NUMBER,
  TOKEN_LIFETIME_MS,
  TUNNEL,
  VERIFICATION_LIFETIME_MS,
  type GatewayRow,
  type SessionRow,
  type TokenRow,
} from './schema.ts';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
/** The simulated WireGuard gateway's public key (documented; derived, not a real key pair's), made at its first use. */
let gatewayPubkey: string | undefined;
const wgGatewayPubkey = () => (gatewayPubkey ??= createHash('sha256').update('platform-simulator-wireguard-gateway').digest('base64'));
/** Host addresses of 10.9.0.0/16 handed out, from 10.9.0.2 (10.9.0.1 is the gateway's own). */
const POOL_SIZE = 65_533;

export class MobileGatewaysModel {
  readonly tokens = new Table<TokenRow>(); // maps a token id to the hash of a one-time enroll token
  readonly gateways = new Table<GatewayRow>(); // maps a gateway id to its key and tunnel address
  readonly sessions = new Table<SessionRow>(); // maps a session id to a number verification (by its nonce's hash)

  constructor(private readonly scope: ModelScope) {}

  issueToken(accountId: string, didNumber: string | undefined): { token: string; expiresAt: string } {
    const did = didNumber === undefined ? null : normalizePhone(didNumber, 'didNumber');
    const token = Buffer.from(this.scope.random.hex(64), 'hex').toString('base64url');
    const now = this.scope.clock.now();
    const id = freshId(this.scope.random, MOBILE_GATEWAY_IDS.enrollmentToken, (x) => this.tokens.has(x));
    const row = this.tokens.insert({ id, accountId, tokenHash: sha256(token), didNumber: did, createdAt: iso(now), expiresAt: iso(now + TOKEN_LIFETIME_MS), usedAt: null });
    return { token, expiresAt: row.expiresAt };
  }

  enroll(bearer: string | undefined, wgPubkey: string, msisdn: string | undefined) {
    const now = this.scope.clock.now();
    const hash = bearer === undefined ? undefined : sha256(bearer);
    const token = hash === undefined ? undefined : this.tokens.find((t) => t.tokenHash === hash);
    if (!token || token.usedAt !== null || Date.parse(token.expiresAt) <= now) {
      throw E.ENROLL_TOKEN_INVALID('the enroll token is missing, unknown, expired or already used');
    }
    if (!/^[A-Za-z0-9+/]{43}=$/.test(wgPubkey) || Buffer.from(wgPubkey, 'base64').length !== 32) {
      throw E.INVALID_WG_PUBKEY('wgPubkey must be 44 characters of base64 decoding to 32 bytes', { errors: [{ path: 'wgPubkey', message: 'not a WireGuard public key' }] });
    }
    const phone = msisdn === undefined ? null : normalizePhone(msisdn, 'msisdn');
    if (this.gateways.find((g) => g.wgPubkey === wgPubkey)) throw E.GATEWAY_EXISTS('a gateway with this wgPubkey is already enrolled');
    if (this.gateways.size >= POOL_SIZE) throw E.TUNNEL_POOL_EXHAUSTED('no tunnel address is left in 10.9.0.0/16');
    const offset = this.gateways.size + 2;
    const tunnelIp = `10.9.${Math.floor(offset / 256)}.${offset % 256}`;
    this.tokens.replace({ ...token, usedAt: iso(now) });
    const id = freshId(this.scope.random, MOBILE_GATEWAY_IDS.mobileGateway, (x) => this.gateways.has(x));
    this.gateways.insert({ id, accountId: token.accountId, wgPubkey, msisdn: phone, didNumber: token.didNumber, tunnelIp, status: 'active', enrolledAt: iso(now) });
    const nonce = this.scope.random.hex(32);
    const sessionId = freshId(this.scope.random, MOBILE_GATEWAY_IDS.verificationSession, (x) => this.sessions.has(x));
    this.sessions.insert({ id: sessionId, gatewayId: id, nonceHash: sha256(nonce), msisdn: phone, receiveNumber: RECEIVE_NUMBER, verifiedNumber: null, createdAt: iso(now), expiresAt: iso(now + VERIFICATION_LIFETIME_MS) });
    return { tunnelIp, ...TUNNEL, wgGwPubkey: wgGatewayPubkey(), nonce, receiveNumber: RECEIVE_NUMBER };
  }

  private status(s: SessionRow): 'pending' | 'verified' | 'expired' {
    if (s.verifiedNumber !== null) return 'verified';
    return Date.parse(s.expiresAt) <= this.scope.clock.now() ? 'expired' : 'pending';
  }

  verificationStatus(nonce: string | undefined) {
    if (nonce === undefined || nonce === '') throw E.NONCE_MISSING('send the verification nonce as Authorization: Bearer <nonce>');
    const hash = sha256(nonce);
    const s = this.sessions.find((r) => r.nonceHash === hash);
    if (!s) throw E.SESSION_NOT_FOUND('no verification session has this nonce');
    return { status: this.status(s), verifiedNumber: s.verifiedNumber, receiveNumber: s.receiveNumber, expiresAt: s.expiresAt };
  }

  /**
   * A text reaches the receive number (the control plane's stand-in for the carrier): it verifies
   * the pending sessions to that number whose box declared this sender as its msisdn, or else the
   * oldest pending one whose box declared none. Returns the sessions verified.
   */
  deliverText(from: string, to: string): string[] {
    const sender = normalizePhone(from, 'from');
    const receiver = normalizePhone(to, 'to');
    const pending = this.sessions.all().filter((s) => s.receiveNumber === receiver && this.status(s) === 'pending');
    const matched = pending.filter((s) => s.msisdn === sender);
    const chosen = matched.length > 0 ? matched : pending.filter((s) => s.msisdn === null).slice(0, 1);
    for (const s of chosen) this.sessions.replace({ ...s, verifiedNumber: sender });
    return chosen.map((s) => s.id);
  }
}
