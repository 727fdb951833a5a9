// The reference model of the verification state machine (spec "States and transitions /
// Verification"), written once: the kit's model-based property (verifications-model.ts) drives a
// target through the API with it, and the simulator's own model test
// (simulator/test/verifications.model.test.ts) drives the simulator in process with it. Pure: no
// I/O, times in seconds from any origin the caller picks.
//
// Where the spec is silent the model follows the simulator's documented carrier (texts report after
// 2 s, answered or failed calls after 5 s, unanswered calls after 30 s; docs/control-plane.md)
// and its choice that expiry wins a tie with a failed delivery; callers that judge a target by the
// spec alone weigh those facts at level sim.

export type VerificationStatus = 'pending' | 'verified' | 'expired' | 'max_attempts' | 'canceled' | 'failed';
export type VerificationChannel = 'sms' | 'call';
/** What the carrier does with a delivery to a destination. */
export type DeliveryOutcome = 'delivered' | 'failed' | 'no-answer';

/** Attempts a new verification has (spec "Limits": five checks). */
export const MAX_ATTEMPTS = 5;

/** The documented magic numbers the models use beside ordinary phones (docs/control-plane.md). */
export const FAILING_NUMBER = '01000000400'; // every delivery fails
export const UNANSWERED_NUMBER = '01000000480'; // texts arrive, calls are never answered
export const MAGIC_OUTCOMES: Readonly<Record<string, Record<VerificationChannel, DeliveryOutcome>>> = {
  [FAILING_NUMBER]: { sms: 'failed', call: 'failed' },
  [UNANSWERED_NUMBER]: { sms: 'delivered', call: 'no-answer' },
};
export const ORDINARY_OUTCOME: Record<VerificationChannel, DeliveryOutcome> = { sms: 'delivered', call: 'delivered' };

/** Seconds until the simulator's carrier reports a delivery's outcome. */
export function outcomeDelaySeconds(channel: VerificationChannel, outcome: DeliveryOutcome): number {
  if (channel === 'sms') return 2;
  return outcome === 'no-answer' ? 30 : 5;
}

export interface ModelVerification {
  to: string;
  channel: VerificationChannel;
  status: VerificationStatus;
  remaining: number;
  /** Seconds on the model's clock. */
  expiresAt: number;
  /** When the carrier reports the delivery. */
  outcomeAt: number;
  /** Whether the phone gets the code. */
  delivered: boolean;
}

/** A new verification at `now`: pending with every attempt left. */
export function createVerification(now: number, to: string, channel: VerificationChannel, ttlSeconds: number, outcome: DeliveryOutcome): ModelVerification {
  return {
    to,
    channel,
    status: 'pending',
    remaining: MAX_ATTEMPTS,
    expiresAt: now + ttlSeconds,
    outcomeAt: now + outcomeDelaySeconds(channel, outcome),
    delivered: outcome === 'delivered',
  };
}

/** Time moves to `to`: each pending verification fails at its outcome or expires, whichever is first (expiry wins ties). */
export function advanceVerifications(vs: readonly ModelVerification[], to: number): void {
  for (const v of vs) {
    if (v.status !== 'pending') continue;
    const failAt = v.delivered ? Infinity : v.outcomeAt;
    if (v.expiresAt <= to && v.expiresAt <= failAt) v.status = 'expired';
    else if (failAt <= to) v.status = 'failed';
  }
}

/** Whether the phone has received the code by `now`. */
export function codeArrived(v: ModelVerification, now: number): boolean {
  return v.delivered && now >= v.outcomeAt;
}

/**
 * A well-formed code checked against a pending verification: one attempt used; the right code
 * verifies it and cancels the other pending verifications of the same number (returned); the
 * last wrong attempt ends it in max_attempts. A finished verification refuses any check (409)
 * and a code of the wrong length is refused (400) without using an attempt: neither changes the model.
 */
export function checkVerification(vs: readonly ModelVerification[], v: ModelVerification, right: boolean): { siblings: ModelVerification[] } {
  if (v.status !== 'pending') throw new Error('checkVerification: only a pending verification takes an attempt');
  v.remaining -= 1;
  const siblings: ModelVerification[] = [];
  if (right) {
    v.status = 'verified';
    for (const other of vs) {
      if (other === v || other.to !== v.to || other.status !== 'pending') continue;
      other.status = 'canceled';
      siblings.push(other);
    }
  } else if (v.remaining === 0) {
    v.status = 'max_attempts';
  }
  return { siblings };
}

/** Cancelling: a pending verification becomes canceled (true); any other is refused with 409 and stays (false). */
export function cancelVerification(v: ModelVerification): boolean {
  if (v.status !== 'pending') return false;
  v.status = 'canceled';
  return true;
}
