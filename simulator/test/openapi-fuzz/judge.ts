// What an answer to a generated request must be, by the document: a request it calls valid is
// not refused for its shape, one it calls invalid is refused, and either way the answer is one
// the operation documents. Rules the document can only state in words are listed here, each
// with the words its operation's description must contain, so the list cannot drift from the
// document without this test noticing.
import type { DocOperation } from './operations.ts';
import type { GeneratedRequest } from './requests.ts';

/**
 * 400 codes that depend on state, not on the request's shape: a valid request may get them
 * (an id that names nothing of the account, the clock, the fixture's plans, strict egress).
 */
export const STATE_CODES: Readonly<Record<string, string>> = {
  CREDENTIAL_INACTIVE: 'the parent credential\'s state',
  from_not_registered: 'which numbers the account owns',
  INVALID_ACL: 'which ACLs the account has',
  INVALID_AGENT: 'which agents the account has',
  INVALID_CALL_FLOW: 'which call flows the account has',
  INVALID_CREDENTIAL: 'which credentials the account has',
  INVALID_DICTIONARY: 'which dictionaries the account has',
  INVALID_ENDPOINT: 'which endpoints the account has',
  INVALID_FORWARD_TO: 'which numbers the account owns',
  KAKAO_CATEGORY_NOT_FOUND: 'the messenger\'s category list',
  KAKAO_CHANNEL_NOT_FOUND: 'the messenger\'s channels',
  KAKAO_MANAGER_NOT_REGISTERED: 'the channel\'s managers',
  kakao_brand_image_not_found: 'which images the account uploaded',
  kakao_brand_template_not_found: 'which brand templates exist',
  kakao_template_not_found: 'which templates exist',
  kakao_variable_missing: 'the template\'s variables',
  kakao_variable_unknown: 'the template\'s variables',
  media_download_failed: 'the image host',
  no_recording: 'whether the call recorded',
  end_in_past: 'the virtual clock',
  PLAN_NOT_FOUND: 'the fixture\'s plans',
  REPRESENTATIVE_FORWARD_ONLY: 'the number\'s type',
  ROUTING_FIELD_MISMATCH: 'the number\'s current routing type',
  ROUTING_TARGET_MISSING: 'the number\'s current routing targets',
  URL_BLOCKED: 'strict egress',
  tasks_required: 'the batch\'s state',
};

/** A rule an operation states only in its description, and how to tell a request that breaks it. */
export interface ProseRule {
  /** The operations it binds (by what the document shows of them). */
  applies: (op: DocOperation) => boolean;
  /** Words the description of each of those operations (or of a parameter) contains. */
  stated: RegExp;
  /** The codes a request that breaks it gets. */
  codes: readonly string[];
  breaks: (req: GeneratedRequest) => boolean;
}

const size = (q: Record<string, unknown>, k: string) => (q[k] === undefined ? undefined : Number(q[k]));

const has = (op: DocOperation, name: string) => op.params.some((p) => p.name === name);

export const PROSE_RULES: readonly ProseRule[] = [
  {
    applies: (op) => has(op, 'page_size') || has(op, 'limit'),
    stated: /aliases? (of pageSize )?.*must be equal|must equal pageSize/i,
    codes: ['VALIDATION'],
    breaks: (req) => new Set(['pageSize', 'page_size', 'limit'].map((k) => size(req.query, k)).filter((v) => v !== undefined)).size > 1,
  },
];

export interface Verdict {
  ok: boolean;
  why?: string;
}

interface Answer {
  status: number;
  code?: string;
}

/** The prose rules of `op` that `req` breaks. */
export function brokenProse(op: DocOperation, req: GeneratedRequest): ProseRule[] {
  return PROSE_RULES.filter((r) => r.applies(op) && r.breaks(req));
}

function documented(op: DocOperation, a: Answer): string | undefined {
  const doc = op.responses.get(a.status);
  if (!doc) return `status ${a.status} is not documented`;
  if (a.status >= 400 && !doc.codes.includes(a.code ?? '')) return `code ${a.code} is not documented for ${a.status}`;
  return undefined;
}

export function judgeValid(op: DocOperation, req: GeneratedRequest, a: Answer): Verdict {
  if (a.status >= 500) return { ok: false, why: `a ${a.status}` };
  const prose = brokenProse(op, req);
  if (prose.length > 0) {
    const codes = prose.flatMap((r) => r.codes);
    return a.status >= 400 && codes.includes(a.code ?? '') ? { ok: true } : { ok: false, why: `breaks a rule stated in the description (${codes.join(', ')}) but got ${a.status} ${a.code ?? ''}` };
  }
  const undocumented = documented(op, a);
  if (undocumented) return { ok: false, why: undocumented };
  if (a.status === 400 && !(a.code && a.code in STATE_CODES)) return { ok: false, why: `refused with 400 ${a.code}` };
  return { ok: true };
}

export function judgeInvalid(op: DocOperation, a: Answer): Verdict {
  if (a.status < 400 || a.status >= 500) return { ok: false, why: `accepted with ${a.status}` };
  const undocumented = documented(op, a);
  return undocumented ? { ok: false, why: undocumented } : { ok: true };
}
