// The end user's issuing session behind a link (public API document, AssignmentSessions), driven
// by the link token without an API key: choose a subscriber type, agree to the clauses, verify
// identity at the provider (start, then resume after the redirect back), finalize. Finalize
// issues the number through the numbers family, marks the link consumed and announces
// assignment.completed. Every refusal leaves the session as it was.
import { iso } from '../../core/clock.ts';
import { newId } from '../../core/ids.ts';
import { numberErrors } from '../numbers/errors.ts';
import { outboundErrors } from '../../rules/outbound.ts';
import type { AssignmentLinksModel } from './model.ts';
import type { AssignmentLinksModelScope } from './ports.ts';
import { sessionErrors as E } from './errors.ts';
import { ASSIGNMENT_IDS, SUBSCRIBER_TYPES, type AssignmentSessionWire, type LinkRow, type SessionStep } from './schema.ts';
import { ApiError } from '../../core/errors.ts';

/** Clauses the person must agree to; others (management.marketing) are optional. */
export const REQUIRED_CLAUSES = ['management.terms', 'management.account', 'management.privacy', 'management.thirdParty'] as const;
export const OPTIONAL_CLAUSES = ['management.marketing'] as const;
/** Identity verifications one link may start. */
export const MAX_VERIFICATIONS = 5;

export class AssignmentSessions {
  constructor(
    private readonly rt: AssignmentLinksModelScope,
    private readonly links: AssignmentLinksModel,
  ) {}

  /** getAssignmentSession: a consumed link still answers (step done); expired and revoked are 410. */
  get(token: string): AssignmentSessionWire {
    const row = this.open(token, { allowConsumed: true });
    const brand = this.links.issuingPageOf(row.accountId);
    return {
      status: row.status === 'consumed' ? 'consumed' : 'pending',
      step: row.step,
      orgName: this.links.ports.orgName(row.accountId),
      brandLogoUrl: brand.brandLogoUrl,
      brandServiceName: brand.brandServiceName,
      brandColor: brand.brandColor,
      returnUrl: row.returnUrl,
      subscriberType: row.subscriberType,
      assignedNumber: row.number,
    };
  }

  /** setAssignmentSessionSubscriberType: at selectType, or again before the clauses are agreed. */
  setSubscriberType(token: string, subscriberType: string): void {
    const row = this.open(token);
    this.atStep(row, ['selectType', 'consents']);
    if (!(SUBSCRIBER_TYPES as readonly string[]).includes(subscriberType)) {
      throw E.INVALID_SUBSCRIBER_TYPE(`subscriberType must be individual or corporate, got "${subscriberType}"`, { errors: [{ path: 'subscriberType', message: 'individual or corporate' }] });
    }
    this.links.links.replace({ ...row, subscriberType: subscriberType as LinkRow['subscriberType'], step: 'consents' });
  }

  /** recordAssignmentSessionConsents: every required clause agreed, or 422 and nothing recorded. */
  recordConsents(token: string, items: { clauseKey: string; agreed: boolean }[]): void {
    const row = this.open(token);
    this.atStep(row, ['consents']);
    const keys = items.map((i) => i.clauseKey);
    const duplicate = keys.find((k, i) => keys.indexOf(k) !== i);
    if (duplicate !== undefined) throw ApiError.validation(`clause ${duplicate} is listed twice`, [{ path: 'items', message: `duplicate clauseKey ${duplicate}` }]);
    const missing = missingClauses(items);
    if (missing.length > 0) throw E.CONSENT_REQUIRED(`required clauses not agreed: ${missing.join(', ')}`, { missing });
    this.links.links.replace({ ...row, consents: items.map((i) => ({ clauseKey: i.clauseKey, agreed: i.agreed })), step: 'verify' });
  }

  /** startAssignmentSessionIdentityVerification: a new verification at the provider, bound to the link. */
  startVerification(token: string): string {
    const row = this.open(token);
    this.atStep(row, ['verify']);
    this.requireConsents(row);
    if (this.rt.kyc.available() === 'rate_limited') throw E.VERIFICATION_RATE_LIMITED('the identity provider limits requests for now; try again shortly');
    if (row.verificationIds.length >= MAX_VERIFICATIONS) {
      throw E.VERIFICATION_RATE_LIMITED(`this link already started ${MAX_VERIFICATIONS} identity verifications; ask the sender for a new link`);
    }
    const v = this.rt.kyc.start(row.id);
    this.links.links.replace({ ...row, verificationIds: [...row.verificationIds, v.id] });
    return v.id;
  }

  /** resumeAssignmentSessionIdentityVerification: asks the provider for the newest verification's result. */
  resumeVerification(token: string): string {
    const row = this.open(token);
    this.atStep(row, ['verify']);
    const id = row.verificationIds.at(-1);
    if (id === undefined) throw E.STEP_OUT_OF_ORDER('no identity verification was started for this link', { step: row.step });
    if (this.rt.kyc.available() === 'provider_error') throw E.IDENTITY_PROVIDER_ERROR('the identity provider did not answer; retry');
    const v = this.rt.kyc.require(id);
    if (v.status === 'pending' || v.status === 'abandoned') throw E.IDENTITY_NOT_VERIFIED(`the identity verification is ${v.status === 'pending' ? 'not completed' : 'cancelled'}; start another`);
    if (v.status === 'name_mismatch') throw E.IDENTITY_NAME_MISMATCH('the name does not match the phone\'s subscriber; start another verification');
    if (v.status === 'age_mismatch') throw E.IDENTITY_AGE_RESTRICTED('the person is too young to hold a line');
    const kyc = { id: newId(this.rt.random, ASSIGNMENT_IDS.kycSnapshot), name: v.name!, birthDate: v.birthDate!, verifiedAt: iso(this.rt.clock.now()) };
    this.links.links.replace({ ...row, kyc, step: 'ready' });
    return kyc.id;
  }

  /** finalizeAssignmentSession: issues the number, consumes the link, sends assignment.completed. */
  finalize(token: string): string {
    const row = this.open(token);
    this.atStep(row, ['ready']);
    this.requireConsents(row);
    let number: string;
    try {
      number = this.links.ports.issueNumber(row.accountId, row, row.id);
    } catch (e) {
      if (e instanceof ApiError && e.code === numberErrors.NUMBER_POOL_EMPTY.info.code) throw E.NUMBER_STOCK_EXHAUSTED('no number is free in the pool; nothing was issued');
      if (e instanceof ApiError && e.code === numberErrors.QUOTA_EXCEEDED.info.code) throw E.LINE_LIMIT_REACHED(`${e.message}; nothing was issued`);
      if (e instanceof ApiError && e.code === numberErrors.NO_ACTIVE_SUBSCRIPTION.info.code) throw outboundErrors.NO_SUBSCRIPTION('the organisation has no active subscription; nothing was issued');
      throw e;
    }
    const done = this.links.consume(row, number);
    const at = this.rt.clock.now();
    this.rt.events.emit('assignment.completed', {
      accountId: done.accountId,
      resourceId: done.id,
      at,
      payload: {
        Event: 'assignment.completed',
        AccountId: done.accountId,
        LinkId: done.id,
        Note: done.note ?? '',
        PhoneNumber: number,
        Timestamp: iso(at),
      },
    });
    return number;
  }

  /** The link behind a token, refused in the reference's order: 404, 403, 410, 409. */
  private open(token: string, opts: { allowConsumed?: boolean } = {}): LinkRow {
    const row = this.links.links.get(token);
    if (!row) throw E.SESSION_NOT_FOUND('no issuing session has this token; check the address');
    if (!this.links.ports.hasAddon(row.accountId)) throw E.ADDON_INACTIVE('issuing numbers through links is turned off for this organisation');
    if (row.status === 'expired' || row.status === 'revoked') throw E.SESSION_GONE(`this link was ${row.status === 'expired' ? 'not used in time' : 'cancelled by the sender'}`, { status: row.status });
    if (row.status === 'consumed' && !opts.allowConsumed) throw E.SESSION_USED('this link was already used to issue a number', { status: row.status });
    return row;
  }

  private atStep(row: LinkRow, steps: SessionStep[]): void {
    if (!steps.includes(row.step)) throw E.STEP_OUT_OF_ORDER(`the session is at step ${row.step}, not ${steps.join(' or ')}`, { step: row.step });
  }

  private requireConsents(row: LinkRow): void {
    const missing = missingClauses(row.consents);
    if (missing.length > 0) throw E.CONSENT_REQUIRED(`required clauses not agreed: ${missing.join(', ')}`, { missing });
  }
}

function missingClauses(items: readonly { clauseKey: string; agreed: boolean }[]): string[] {
  return REQUIRED_CLAUSES.filter((k) => !items.some((i) => i.clauseKey === k && i.agreed));
}
