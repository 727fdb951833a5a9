// Mobile gateways (the reference's MobileGateways operations): a box with a Bluetooth-paired phone
// enrolls with a one-time token, gets its WireGuard tunnel settings, and proves its number by a
// text whose sender is polled with a nonce. Simulated: no tunnel or box exists; the state is the
// tokens (hashes only), the gateways and the verification sessions.
import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Nullable, PhoneNumber, StringEnum } from '../../core/schema.ts';
import type { IdFormat } from '../../core/ids.ts';

export const MOBILE_GATEWAY_IDS = {
  enrollmentToken: { prefix: 'ET', hex: 32 },
  mobileGateway: { prefix: 'MB', hex: 32 },
  verificationSession: { prefix: 'MV', hex: 32 },
} as const satisfies Record<string, IdFormat>;

/** Reference: tokens live 24 hours, verification nonces 30 minutes. */
export const TOKEN_LIFETIME_MS = 24 * 3600_000;
export const VERIFICATION_LIFETIME_MS = 30 * 60_000;

/** The tunnel settings every gateway gets (documented simulator values; TEST-NET addresses for the public endpoint). */
export const TUNNEL = {
  tunnelCidr: '10.9.0.0/16',
  kamailioIp: '10.0.1.3',
  rtpengineIp: '10.0.1.4',
  rtpPortRange: '10000-20000',
  wgGwEndpoint: '203.0.113.10:51820',
  keepalive: 25,
} as const;
/** The number a box texts to prove its phone's number (the reference's example). */
export const RECEIVE_NUMBER = '07052358010';

export const EnrollmentTokenBody = Type.Object(
  { didNumber: Type.Optional(PhoneNumber({ description: 'The outbound DID the gateway will use (optional); normalised.' })) },
  { $id: 'MobileGatewayEnrollmentTokenRequest', additionalProperties: false },
);

export const EnrollmentTokenResponse = Type.Object(
  {
    token: Type.String({ description: 'The one-time enroll token, shown only here (kept as its SHA-256).' }),
    expiresAt: DateTime({ description: '24 hours after issue.' }),
  },
  { $id: 'MobileGatewayEnrollmentTokenResponse', additionalProperties: false },
);

export const EnrollBody = Type.Object(
  {
    wgPubkey: Type.String({ description: 'The box\'s WireGuard public key: 44 characters of base64 (32 bytes).' }),
    msisdn: Type.Optional(PhoneNumber({ description: 'The box phone\'s number (shown, not trusted); when given, the verifying text must come from it.' })),
  },
  { $id: 'MobileGatewayEnrollRequest', additionalProperties: false },
);

export const EnrollResponse = Type.Object(
  {
    tunnelIp: Type.String(),
    tunnelCidr: Type.String(),
    kamailioIp: Type.String(),
    rtpengineIp: Type.String(),
    rtpPortRange: Type.String(),
    wgGwEndpoint: Type.String(),
    wgGwPubkey: Type.String(),
    keepalive: Type.Integer(),
    nonce: Type.String({ description: 'The verification session\'s secret, for getMobileGatewayVerificationStatus (Bearer).' }),
    receiveNumber: Type.String({ description: 'Where the box\'s phone texts to prove its number.' }),
  },
  { $id: 'MobileGatewayEnrollResponse', additionalProperties: false },
);

export const VerificationStatus = Type.Object(
  {
    status: StringEnum(['pending', 'verified', 'expired'] as const),
    verifiedNumber: Nullable(Type.String()),
    receiveNumber: Type.String(),
    expiresAt: DateTime(),
  },
  { $id: 'MobileGatewayVerificationStatus', additionalProperties: false },
);

// --- stored state ---

const TokenRow = Type.Object(
  { id: Type.String(), accountId: Type.String(), tokenHash: Type.String(), didNumber: Nullable(Type.String()), createdAt: DateTime(), expiresAt: DateTime(), usedAt: Nullable(DateTime()) },
  { additionalProperties: false },
);
const GatewayRow = Type.Object(
  { id: Type.String(), accountId: Type.String(), wgPubkey: Type.String(), msisdn: Nullable(Type.String()), didNumber: Nullable(Type.String()), tunnelIp: Type.String(), status: Type.Literal('active'), enrolledAt: DateTime() },
  { additionalProperties: false },
);
const SessionRow = Type.Object(
  {
    id: Type.String(),
    gatewayId: Type.String(),
    nonceHash: Type.String(),
    msisdn: Nullable(Type.String()),
    receiveNumber: Type.String(),
    verifiedNumber: Nullable(Type.String()),
    createdAt: DateTime(),
    expiresAt: DateTime(),
  },
  { additionalProperties: false },
);
export type TokenRow = Static<typeof TokenRow>;
export type GatewayRow = Static<typeof GatewayRow>;
export type SessionRow = Static<typeof SessionRow>;

export const MobileGatewaysStateSchema = Type.Object(
  { tokens: Type.Array(TokenRow), gateways: Type.Array(GatewayRow), sessions: Type.Array(SessionRow) },
  { additionalProperties: false },
);

export const VerificationTextBody = Type.Object(
  {
    from: PhoneNumber({ description: 'The sender\'s number (the box phone\'s CLI).' }),
    to: Type.Optional(PhoneNumber({ description: `The receive number; default ${RECEIVE_NUMBER}.` })),
  },
  { additionalProperties: false },
);
