// What an answer to a generated request must be, by the document: a request it calls valid is
// not refused for its shape, one it calls invalid is refused, and either way the answer is one
// the operation documents. Rules the document can only state in words are listed here, each
// with the words its operation's description must contain, so the list cannot drift from the
// document without this test noticing.
import type { DocOperation } from './operations.ts';
import type { GeneratedRequest } from './requests.ts';
import { tryNormalizePhone } from '../../core/phone.ts';
import { blockedAddressReason, literalAddress } from '../../peers/egress.ts';

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
  breaks: (req: GeneratedRequest, at: Context) => boolean;
}

/** What a predicate may know besides the request: the simulator's virtual now (ms). */
export interface Context {
  now: number;
}

const size = (q: Record<string, unknown>, k: string) => (q[k] === undefined ? undefined : Number(q[k]));

const has = (op: DocOperation, name: string) => op.params.some((p) => p.name === name);
const named = (...ids: string[]) => (op: DocOperation) => ids.includes(op.operationId);
type Json = Record<string, unknown>;
const bodyOf = (req: GeneratedRequest): Json => (req.body?.value && typeof req.body.value === 'object' ? (req.body.value as Json) : {});

/** A recipient as the block list compares it: a phone number normalised, an address lowercased. */
function recipientKey(v: unknown): string {
  const text = String(v).trim();
  if (text.includes('@')) return text.toLowerCase().replace(/\.$/, '');
  const phone = tryNormalizePhone(text);
  return phone.ok ? phone.number : text;
}

/** Whether an IPv4 CIDR names a host inside its network rather than the network itself. */
function hostBitsSet(cidr: string): boolean {
  const [addr, len] = cidr.split('/');
  const value = addr!.split('.').reduce((a, o) => a * 256 + Number(o), 0);
  return value % 2 ** (32 - Number(len)) !== 0;
}

/** The block ids a call-flow graph links to that are not blocks of it (start included). */
function danglingLinks(graph: unknown): boolean {
  if (!graph || typeof graph !== 'object') return false;
  const g = graph as { start?: unknown; nodes?: Record<string, Json> };
  const ids = new Set(Object.keys(g.nodes ?? {}));
  const links: unknown[] = [g.start];
  for (const node of Object.values(g.nodes ?? {})) {
    for (const [k, v] of Object.entries(node ?? {})) {
      if (k === 'next' || k.endsWith('Next')) links.push(v);
      if (k === 'branches' && v && typeof v === 'object') links.push(...Object.values(v));
      if (k === 'cases' && Array.isArray(v)) links.push(...v.map((c) => (c as Json)?.next));
    }
  }
  return links.some((l) => typeof l === 'string' && !ids.has(l));
}

function compiles(source: string): boolean {
  try {
    new RegExp(source, 'i');
    return true;
  } catch {
    return false;
  }
}

/** A quantified group holding a quantifier, e.g. (a+)+ or (\\w*){2,}: the pattern could run away. */
const nestsQuantifier = (p: string) => /\((?:[^()\\]|\\.)*(?:[+*]|\{\d+,?\d*\})(?:[^()\\]|\\.)*\)(?:[+*]|\{\d+,?\d*\})/.test(p);

/** Capture groups of a pattern that compiles (0 otherwise). */
const groupsOf = (p: string) => (compiles(p) ? new RegExp(`${p}|`).exec('')!.length - 1 : 0);

/** Whether a text holds a {{reference}} that `ok` does not accept. */
const refusedRef = (text: unknown, ok: (ref: string) => boolean) => typeof text === 'string' && [...text.matchAll(/\{\{\s*([^{}]*?)\s*\}\}/g)].some((m) => !ok(m[1]!));
const isVar = (ref: string) => /^var\.[A-Za-z_][A-Za-z0-9_]*$/.test(ref);
const strings = (v: unknown): unknown[] => (Array.isArray(v) ? v.flatMap(strings) : v && typeof v === 'object' ? Object.values(v).flatMap(strings) : [v]);

type BehaviourRule = { heard?: unknown; say?: unknown; tool?: { arguments?: unknown } };

/** An agent behaviour with a reference that names nothing where it stands (the say and fallback texts of simPutAgentBehaviour). */
function badTemplates(b: Json): boolean {
  if (refusedRef(b.greeting, isVar) || refusedRef(b.fallback, (r) => isVar(r) || r === 'knowledge')) return true;
  return ((b.rules as BehaviourRule[] | undefined) ?? []).some((rule) => {
    const groups = groupsOf(String(rule?.heard));
    const common = (r: string) => isVar(r) || r === 'knowledge' || (/^\d{1,2}$/.test(r) && groups > 0 && Number(r) <= groups);
    const withTool = (r: string) => common(r) || (rule?.tool !== undefined && (r === 'tool' || /^tool(?:\.|(?=\[))./.test(r)));
    return refusedRef(rule?.say, withTool) || strings(rule?.tool?.arguments).some((v) => refusedRef(v, common));
  });
}

const rulesOf = (req: GeneratedRequest) => ((bodyOf(req).rules as BehaviourRule[] | undefined) ?? []);

/** Bytes of a text in EUC-KR as the sms limit counts them: ASCII 1, anything else 2. */
const eucKrBytes = (text: string) => [...text].reduce((n, c) => n + (c.codePointAt(0)! < 0x80 ? 1 : 2), 0);
const DAY = 86_400_000;

export const PROSE_RULES: readonly ProseRule[] = [
  {
    applies: (op) => has(op, 'page_size') || has(op, 'limit'),
    stated: /Given together with pageSize or the other alias, the values must be equal/,
    codes: ['VALIDATION'],
    breaks: (req) => new Set(['pageSize', 'page_size', 'limit'].map((k) => size(req.query, k)).filter((v) => v !== undefined)).size > 1,
  },
  {
    applies: named('getUsage'),
    stated: /Give both from and to, or neither/,
    codes: ['VALIDATION'],
    breaks: (req) => (req.query.from === undefined) !== (req.query.to === undefined),
  },
  {
    applies: named('getUsage'),
    stated: /after from, at most 92 days after it/,
    codes: ['VALIDATION'],
    breaks: (req) => {
      if (req.query.from === undefined || req.query.to === undefined) return false;
      const span = Date.parse(String(req.query.to)) - Date.parse(String(req.query.from));
      return !(span > 0 && span <= 92 * DAY);
    },
  },
  {
    applies: named('createBlockedRecipient', 'listBlockedRecipients'),
    stated: /when both are sent they must agree/,
    codes: ['VALIDATION'],
    breaks: (req) => {
      const source = req.body ? bodyOf(req) : req.query;
      return source.number !== undefined && source.recipient !== undefined && recipientKey(source.number) !== recipientKey(source.recipient);
    },
  },
  {
    applies: named('createBlockedRecipient', 'listBlockedRecipients'),
    stated: /local part at most 64 characters, the address at most 254/,
    codes: ['VALIDATION'],
    breaks: (req) => [bodyOf(req).number, bodyOf(req).recipient, req.query.number, req.query.recipient].some((v) => typeof v === 'string' && v.includes('@') && v.trim().length > 254),
  },
  {
    applies: named('createSipIpAcl', 'updateSipIpAcl'),
    stated: /without host bits set/,
    codes: ['VALIDATION'],
    breaks: (req) => ((bodyOf(req).cidrs as string[] | undefined) ?? []).some(hostBitsSet),
  },
  {
    applies: named('createCallFlow', 'replaceCallFlow', 'updateCallFlow'),
    stated: /every link names a block, `start` exists/,
    codes: ['call_flow_invalid_graph'],
    breaks: (req) => danglingLinks(bodyOf(req).graph),
  },
  {
    applies: named('listVerifications'),
    stated: /not later than createdBefore/,
    codes: ['VALIDATION'],
    breaks: (req) => req.query.createdAfter !== undefined && req.query.createdBefore !== undefined && Date.parse(String(req.query.createdAfter)) > Date.parse(String(req.query.createdBefore)),
  },
  {
    applies: named('listBlockedRecipients'),
    stated: /with channel=email it must be an address/,
    codes: ['VALIDATION'],
    breaks: (req) => req.query.channel === 'email' && [req.query.number, req.query.recipient].some((v) => v !== undefined && !String(v).includes('@')),
  },
  {
    applies: named('simSetImage'),
    stated: /given with base64, it must equal its decoded length/,
    codes: ['VALIDATION'],
    breaks: (req) => {
      const b = bodyOf(req);
      return typeof b.base64 === 'string' && b.sizeBytes !== undefined && b.sizeBytes !== Buffer.from(b.base64, 'base64').length;
    },
  },
  {
    applies: named('simStartMcpServer'),
    stated: /public as strict egress classifies addresses/,
    codes: ['VALIDATION'],
    breaks: (req) => typeof bodyOf(req).publicAddress === 'string' && blockedAddressReason(literalAddress(bodyOf(req).publicAddress as string) ?? '') !== undefined,
  },
  {
    applies: named('simAdvanceClock'),
    stated: /not before now/,
    codes: ['VALIDATION'],
    breaks: (req, at) => typeof bodyOf(req).to === 'string' && Date.parse(bodyOf(req).to as string) < at.now,
  },
  {
    // No issuing-page domain is registered in the state the requests start from.
    applies: named('createAssignmentLink'),
    stated: /must equal a registered issuing-page domain/,
    codes: ['VALIDATION'],
    breaks: (req) => bodyOf(req).returnUrl !== undefined,
  },
  {
    applies: named('createCallBatch'),
    stated: /exclusive; after Start/,
    codes: ['invalid_window'],
    breaks: (req) => ((bodyOf(req).Rounds as { Windows?: { Start?: string; End?: string }[] }[] | undefined) ?? []).some((r) => (r?.Windows ?? []).some((w) => String(w?.Start) >= String(w?.End))),
  },
  {
    applies: named('simRecordUsage'),
    stated: /not after now/,
    codes: ['VALIDATION'],
    breaks: (req, at) => typeof bodyOf(req).at === 'string' && Date.parse(bodyOf(req).at as string) > at.now,
  },
  {
    applies: named('simAddForeignIp'),
    stated: /a dotted IPv4 tail only as ::ffff:a\.b\.c\.d/,
    codes: ['VALIDATION'],
    breaks: (req) => {
      const ip = String(bodyOf(req).ip).trim();
      return ip.includes(':') && ip.includes('.') && !/^::ffff:/i.test(ip);
    },
  },
  {
    applies: named('simAddCarrierScript', 'simInjectInboundCall'),
    stated: /JavaScript syntax, which must compile/,
    codes: ['VALIDATION'],
    breaks: (req) => ((bodyOf(req).replies as { heard?: unknown }[] | null | undefined) ?? []).some((r) => !compiles(String(r?.heard))),
  },
  {
    // Each family's state has its own schema and cross-references: a snapshot that restores can
    // only come from GET /_sim/state, so every snapshot generated from the document breaks this.
    applies: named('simPutState'),
    stated: /Only a snapshot GET \/_sim\/state wrote restores/,
    codes: ['VALIDATION'],
    breaks: () => true,
  },
  {
    applies: named('simPutAgentBehaviour'),
    stated: /JavaScript syntax, which must compile, with no quantifier inside a quantified group/,
    codes: ['VALIDATION'],
    breaks: (req) => rulesOf(req).some((r) => !compiles(String(r?.heard)) || nestsQuantifier(String(r?.heard))),
  },
  {
    // No agent has an MCP binding in the state the requests start from (the examples detach the only one).
    applies: named('simPutAgentBehaviour'),
    stated: /a tool not among the agent's allowedTools/,
    codes: ['VALIDATION'],
    breaks: (req) => rulesOf(req).some((r) => r?.tool !== undefined),
  },
  {
    applies: named('simPutAgentBehaviour'),
    stated: /a template reference that names nothing/,
    codes: ['VALIDATION'],
    breaks: (req) => badTemplates(bodyOf(req)),
  },
  {
    applies: named('simPutAgentBehaviour'),
    stated: /At most 8 KB as JSON/,
    codes: ['VALIDATION'],
    breaks: (req) => rulesOf(req).some((r) => r?.tool?.arguments !== undefined && Buffer.byteLength(JSON.stringify(r.tool.arguments)) > 8192),
  },
  {
    // The only tested connection in the state the requests start from lists the fake MCP server's default tool, echo.
    applies: named('setAgentMcpConnection'),
    stated: /each allowed tool must be in its last test's snapshot/,
    codes: ['VALIDATION'],
    breaks: (req) => ((bodyOf(req).allowedTools as unknown[] | undefined) ?? []).some((t) => t !== 'echo'),
  },
  {
    // The account's only dictionary in the state the requests start from is its default.
    applies: named('updateDictionary'),
    stated: /`isDefault: false` on the default is refused/,
    codes: ['VALIDATION'],
    breaks: (req) => bodyOf(req).isDefault === false,
  },
  {
    applies: named('sendMessage'),
    stated: /An sms body is at most 90 EUC-KR bytes/,
    codes: ['body_too_long'],
    breaks: (req) => bodyOf(req).Type === 'sms' && typeof bodyOf(req).Body === 'string' && eucKrBytes(bodyOf(req).Body as string) > 90,
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
export function brokenProse(op: DocOperation, req: GeneratedRequest, at: Context): ProseRule[] {
  return PROSE_RULES.filter((r) => r.applies(op) && r.breaks(req, at));
}

function documented(op: DocOperation, a: Answer): string | undefined {
  const doc = op.responses.get(a.status);
  if (!doc) return `status ${a.status} is not documented`;
  if (a.status >= 400 && !doc.codes.includes(a.code ?? '')) return `code ${a.code} is not documented for ${a.status}`;
  return undefined;
}

export function judgeValid(op: DocOperation, req: GeneratedRequest, a: Answer, at: Context): Verdict {
  if (a.status >= 500) return { ok: false, why: `a ${a.status}` };
  const undocumented = documented(op, a);
  if (undocumented) return { ok: false, why: undocumented };
  // Breaking a rule the description states makes the request invalid after all: any documented refusal will do.
  const prose = brokenProse(op, req, at);
  if (prose.length > 0) {
    const codes = prose.flatMap((r) => r.codes);
    return a.status >= 400 ? { ok: true } : { ok: false, why: `breaks a rule stated in the description (${codes.join(', ')}) but got ${a.status}` };
  }
  if (a.status === 400 && !(a.code && a.code in STATE_CODES)) return { ok: false, why: `refused with 400 ${a.code}` };
  return { ok: true };
}

export function judgeInvalid(op: DocOperation, a: Answer): Verdict {
  if (a.status < 400 || a.status >= 500) return { ok: false, why: `accepted with ${a.status}` };
  const undocumented = documented(op, a);
  return undocumented ? { ok: false, why: undocumented } : { ok: true };
}
