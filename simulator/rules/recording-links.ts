// Recording links (spec Limits: "Recording links issued before 2026-07-28 were signed links valid
// for 24 hours"). A link the simulator hands out before the cutoff (the call's recordingUrl, a
// record block's variable, RecordingUrl of the recording webhook and VoiceML action posts) is
// the download path plus `expires` (Unix seconds, 24 virtual hours after issue) and `signature`
// (hex HMAC-SHA256 of the path and expiry under a key derived from the simulator's seed, so runs
// are reproducible). It downloads without the bearer header until it expires; the bearer header
// works on the path as always. From the cutoff on, links are the plain path. Calls hand links
// out (recordingUrl, a record block's variable) and recordings check them and hand them out too
// (RecordingUrl), both synchronously: the rule is shared, the key is the seed's, read at each use
// (a reset or restore with another seed signs with that seed's key).
import { createHash, createHmac, timingSafeEqual } from '../core/node-crypto.ts';
import { defineError } from '../core/errors.ts';

export const SIGNED_LINKS_UNTIL = '2026-07-28T00:00:00Z';
const CUTOFF_MS = Date.parse(SIGNED_LINKS_UNTIL);
export const SIGNED_LINK_TTL_SECONDS = 24 * 3600;

export const linkErrors = {
  RECORDING_LINK_INVALID: defineError({
    code: 'recording_link_invalid', status: 401, origin: 'simulator',
    description: 'A recording link without the bearer header whose signature does not match its path and expiry (tampered, or another simulator\'s), or whose expires is missing or not a number. Send the bearer header, or use the link as issued.',
  }),
  RECORDING_LINK_EXPIRED: defineError({
    code: 'recording_link_expired', status: 401, origin: 'simulator',
    description: 'A signed recording link (issued before 2026-07-28) used without the bearer header after its 24 hours. The path with the bearer header still downloads the recording while it is kept.',
  }),
};

export class RecordingLinks {
  private key: Buffer | undefined;
  private keySeed: number | undefined;

  /** `seed`: the simulator's seed now (read at each use). */
  constructor(private readonly seed: () => number) {}

  private keyNow(): Buffer {
    const seed = this.seed();
    if (this.key === undefined || this.keySeed !== seed) {
      this.key = createHash('sha256').update(`recording-links:${seed}`).digest();
      this.keySeed = seed;
    }
    return this.key;
  }

  /** The link for `path` handed out at `nowMs`: signed before the cutoff, else the plain path. */
  issue(path: string, nowMs: number): string {
    if (nowMs >= CUTOFF_MS) return path;
    const expires = Math.floor(nowMs / 1000) + SIGNED_LINK_TTL_SECONDS;
    return `${path}?expires=${expires}&signature=${this.sign(path, expires)}`;
  }

  /**
   * A request without the bearer header: undefined when its URL carries no signature (the
   * ordinary 401 follows); otherwise throws unless the signature is this path's and unexpired.
   */
  check(url: string, nowMs: number): true | undefined {
    const q = url.indexOf('?');
    if (q < 0) return undefined;
    const query = new URLSearchParams(url.slice(q + 1));
    const signature = query.get('signature');
    if (signature === null) return undefined;
    const path = url.slice(0, q);
    const expiresText = query.get('expires') ?? '';
    if (!/^\d{1,12}$/.test(expiresText)) throw linkErrors.RECORDING_LINK_INVALID('the recording link needs expires (Unix seconds) beside its signature');
    const expires = Number(expiresText);
    const want = Buffer.from(this.sign(path, expires), 'utf8');
    const got = Buffer.from(signature, 'utf8');
    if (want.length !== got.length || !timingSafeEqual(want, got)) {
      throw linkErrors.RECORDING_LINK_INVALID('the recording link\'s signature does not match its path and expiry');
    }
    if (nowMs >= expires * 1000) {
      throw linkErrors.RECORDING_LINK_EXPIRED(`the recording link expired at ${new Date(expires * 1000).toISOString()}; signed links last 24 hours`);
    }
    return true;
  }

  private sign(path: string, expires: number): string {
    return createHmac('sha256', this.keyNow()).update(`${path}\n${expires}`, 'utf8').digest('hex');
  }
}

/** The download path of a link, signed or not. */
export function linkPath(link: string): string {
  const q = link.indexOf('?');
  return q < 0 ? link : link.slice(0, q);
}
