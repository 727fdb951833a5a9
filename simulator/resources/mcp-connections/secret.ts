// Sealing of MCP connection secrets: the stored row (and so every snapshot) holds the secret
// encrypted with AES-256-GCM under a key derived from the simulator's seed, bound to the
// connection id, with a nonce from the seeded random (deterministic snapshots). This keeps the
// clear value out of GET /_sim/state, logs and journals; it is not protection against someone
// who holds the seed and this code (docs/decisions.md "MCP connections").
import { nodeCrypto } from '../../core/node-crypto.ts';

const VERSION = 'v1';

function keyFor(seed: number): Buffer {
  return Buffer.from(nodeCrypto().hkdfSync('sha256', Buffer.from(`platform-simulator:${seed}`), 'mcp-connection-secret', 'aes-256-gcm key', 32));
}

/** Seals `secret` for the connection; `nonceHex` is 24 hex digits from the seeded random. */
export function sealSecret(secret: string, connectionId: string, seed: number, nonceHex: string): string {
  const iv = Buffer.from(nonceHex, 'hex');
  const cipher = nodeCrypto().createCipheriv('aes-256-gcm', keyFor(seed), iv);
  cipher.setAAD(Buffer.from(connectionId));
  const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return `${VERSION}:${iv.toString('hex')}:${body.toString('base64')}`;
}

/** The clear secret, or undefined when the sealed value does not open (another seed, tampering). */
export function openSecret(sealed: string, connectionId: string, seed: number): string | undefined {
  const [version, ivHex, b64] = sealed.split(':');
  if (version !== VERSION || !ivHex || !b64) return undefined;
  try {
    const data = Buffer.from(b64, 'base64');
    const decipher = nodeCrypto().createDecipheriv('aes-256-gcm', keyFor(seed), Buffer.from(ivHex, 'hex'));
    decipher.setAAD(Buffer.from(connectionId));
    decipher.setAuthTag(data.subarray(data.length - 16));
    return Buffer.concat([decipher.update(data.subarray(0, data.length - 16)), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}
