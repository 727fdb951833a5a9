// Checks on a webhook the kit's receiver got: pure functions from one received request (and what
// the scenario knows) to a failure message or nothing, each naming the clauses it tests
// (conformance/clauses.yaml). Same shape as the kit's response checks; the receiver
// (conformance/webhook-receiver.ts) does the I/O.
import { SIGNATURE_HEADER, signatureMatches } from './signature.ts';

/** One request as the receiver got it. */
export interface ReceivedWebhook {
  method: string;
  /** Path and query as requested. */
  path: string;
  /** The public URL it was sent to (receiver's public base + path): what the signature covers. */
  url: string;
  /** Lowercase names. */
  headers: Record<string, string>;
  /** The raw body, unparsed. */
  body: string;
  /** How the fields came: a form body, the query string (GET), or JSON (a wrong sender). */
  format: 'form' | 'query' | 'json';
  /** Fields (from the body, or from the query string for GET), in order. */
  pairs: [string, string][];
  fields: Record<string, string>;
  /** The scope (a scenario run) whose URL it was sent to, if any: <public>/r/<scope>/... */
  scope: string | undefined;
  /** The path under the scope's URL (or the whole path), without the query: /events/callflow.ended. */
  route: string;
  /** The event: from the route it was registered under (/events/<name>), else the Event field. */
  event: string | undefined;
  /** Wall-clock receipt time (ms since the epoch). */
  receivedAt: number;
  /** The status the receiver answered with. */
  answered: number;
}

/** What the scenario knows beyond the request. */
export interface WebhookContext {
  /** The account's signing key (control plane); without it the signature is not verified. */
  signingKey?: string;
  /** Bytes of variables the scenario made the call collect, when it knows: decides VariablesTruncated. */
  collectedVariablesBytes?: number;
}

export interface WebhookCheck {
  id: string;
  /** spec: the interface says so; sim: the simulator's choice (an observation against other targets). */
  level: 'spec' | 'sim';
  clauses: string[];
  description: string;
  applies(w: ReceivedWebhook, ctx: WebhookContext): boolean;
  run(w: ReceivedWebhook, ctx: WebhookContext): string | undefined;
}

/** Limits table: collected variables of callflow.ended, 8 KB. */
export const VARIABLES_LIMIT_BYTES = 8 * 1024;

const FORM = 'application/x-www-form-urlencoded';
const REQUIRED = ['CallId', 'AccountId', 'From', 'To', 'Direction', 'Event', 'Timestamp', 'FlowId', 'Status', 'Variables'] as const;
const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

const isCallflowEnded = (w: ReceivedWebhook) => w.event === 'callflow.ended';
const contentTypeOf = (w: ReceivedWebhook) => (w.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();

function variablesObject(w: ReceivedWebhook): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(w.fields.Variables ?? '');
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export const WEBHOOK_CHECKS: WebhookCheck[] = [
  {
    id: 'webhook-form-encoded',
    level: 'spec',
    clauses: ['events.form-encoding'],
    description: 'A POST webhook carries a form-encoded body, not JSON.',
    applies: (w) => w.method === 'POST',
    run: (w) => (contentTypeOf(w) === FORM ? undefined : `Content-Type is "${w.headers['content-type'] ?? ''}", expected ${FORM}`),
  },
  {
    id: 'callflow-ended-post',
    level: 'spec',
    clauses: ['events.callflow-ended.form-post'],
    description: 'callflow.ended is an HTTP POST with Content-Type application/x-www-form-urlencoded.',
    applies: isCallflowEnded,
    run: (w) => {
      if (w.method !== 'POST') return `sent with ${w.method}, expected POST`;
      return contentTypeOf(w) === FORM ? undefined : `Content-Type is "${w.headers['content-type'] ?? ''}", expected ${FORM}`;
    },
  },
  {
    id: 'webhook-signature-present',
    level: 'spec',
    clauses: ['auth.webhook-signature'],
    description: 'Every webhook carries an X-Signature header.',
    applies: () => true,
    run: (w) => (w.headers[SIGNATURE_HEADER.toLowerCase()] ? undefined : `no ${SIGNATURE_HEADER} header`),
  },
  {
    // The scheme is "not shown" in the spec: the SDK's verifier is the simulator's choice. The kit
    // verifies with its own implementation (signature.ts), never the simulator's.
    id: 'webhook-signature-valid',
    level: 'sim',
    clauses: ['auth.webhook-signature'],
    description: 'X-Signature verifies with the account\'s signing key (URL and sorted form fields, as the official SDK checks).',
    applies: (w, ctx) => ctx.signingKey !== undefined && Boolean(w.headers[SIGNATURE_HEADER.toLowerCase()]),
    run: (w, ctx) =>
      signatureMatches(ctx.signingKey!, { url: w.url, method: w.method, body: w.body, signature: w.headers[SIGNATURE_HEADER.toLowerCase()] })
        ? undefined
        : `${SIGNATURE_HEADER} does not verify for ${w.url} with the account's signing key`,
  },
  {
    id: 'callflow-ended-required-fields',
    level: 'spec',
    clauses: ['events.callflow-ended.required-fields'],
    description: 'callflow.ended carries CallId, AccountId, From, To, Direction, Event, Timestamp, FlowId, Status and Variables.',
    applies: isCallflowEnded,
    run: (w) => {
      const missing = REQUIRED.filter((f) => !(f in w.fields));
      return missing.length === 0 ? undefined : `missing ${missing.join(', ')}`;
    },
  },
  {
    id: 'callflow-ended-direction',
    level: 'spec',
    clauses: ['events.callflow-ended.direction'],
    description: 'Direction is inbound or outbound.',
    applies: (w) => isCallflowEnded(w) && 'Direction' in w.fields,
    run: (w) => (['inbound', 'outbound'].includes(w.fields.Direction!) ? undefined : `Direction is "${w.fields.Direction}"`),
  },
  {
    id: 'callflow-ended-event',
    level: 'spec',
    clauses: ['events.callflow-ended.event-name'],
    description: 'Event is callflow.ended.',
    applies: (w) => isCallflowEnded(w) && 'Event' in w.fields,
    run: (w) => (w.fields.Event === 'callflow.ended' ? undefined : `Event is "${w.fields.Event}"`),
  },
  {
    id: 'callflow-ended-timestamp',
    level: 'spec',
    clauses: ['events.callflow-ended.timestamp'],
    description: 'Timestamp is an ISO 8601 time.',
    applies: (w) => isCallflowEnded(w) && 'Timestamp' in w.fields,
    run: (w) => {
      const t = w.fields.Timestamp!;
      return ISO_8601.test(t) && !Number.isNaN(Date.parse(t)) ? undefined : `Timestamp "${t}" is not ISO 8601`;
    },
  },
  {
    id: 'callflow-ended-status',
    level: 'spec',
    clauses: ['events.callflow-ended.status-string', 'events.callflow-ended.status-values'],
    description: 'Status is the string completed or abandoned (never a boolean or a number).',
    applies: (w) => isCallflowEnded(w) && 'Status' in w.fields,
    run: (w) => (['completed', 'abandoned'].includes(w.fields.Status!) ? undefined : `Status is "${w.fields.Status}", expected "completed" or "abandoned"`),
  },
  {
    id: 'callflow-ended-variables-json',
    level: 'spec',
    clauses: ['events.callflow-ended.variables-json'],
    description: 'Variables is a JSON object serialised as a string ({} when none).',
    applies: (w) => isCallflowEnded(w) && 'Variables' in w.fields,
    run: (w) => (variablesObject(w) ? undefined : `Variables is not a JSON object: ${JSON.stringify(w.fields.Variables!.slice(0, 80))}`),
  },
  {
    id: 'callflow-ended-caller-callee',
    level: 'spec',
    clauses: ['events.callflow-ended.variables.caller-callee'],
    description: 'Variables always holds caller and callee.',
    applies: (w) => isCallflowEnded(w) && variablesObject(w) !== undefined,
    run: (w) => {
      const v = variablesObject(w)!;
      const missing = ['caller', 'callee'].filter((k) => !(k in v));
      return missing.length === 0 ? undefined : `Variables lacks ${missing.join(' and ')}`;
    },
  },
  {
    id: 'callflow-ended-variables-truncated',
    level: 'spec',
    clauses: ['events.callflow-ended.variables-truncated', 'limits.collected-variables'],
    description: 'VariablesTruncated is "true" and present only past 8 KB of variables; what is sent stays within 8 KB.',
    applies: isCallflowEnded,
    run: (w, ctx) => {
      const flag = w.fields.VariablesTruncated;
      const sent = Buffer.byteLength(w.fields.Variables ?? '');
      if (flag !== undefined && flag !== 'true') return `VariablesTruncated is "${flag}", expected "true" or absent`;
      if (sent > VARIABLES_LIMIT_BYTES) return `Variables is ${sent} bytes, over the ${VARIABLES_LIMIT_BYTES}-byte limit, and was not cut`;
      const collected = ctx.collectedVariablesBytes;
      if (collected === undefined) return undefined;
      if (collected > VARIABLES_LIMIT_BYTES && flag === undefined) return `${collected} bytes of variables were collected but VariablesTruncated is absent`;
      if (collected <= VARIABLES_LIMIT_BYTES && flag !== undefined) return `VariablesTruncated is present although only ${collected} bytes of variables were collected`;
      return undefined;
    },
  },
];

export interface WebhookCheckResult {
  id: string;
  level: 'spec' | 'sim';
  clauses: string[];
  passed: boolean;
  message?: string;
}

/** Every check that applies to the webhook, passed or not. */
export function checkWebhook(w: ReceivedWebhook, ctx: WebhookContext = {}): WebhookCheckResult[] {
  return WEBHOOK_CHECKS.filter((c) => c.applies(w, ctx)).map((c) => {
    const message = c.run(w, ctx);
    return { id: c.id, level: c.level, clauses: c.clauses, passed: message === undefined, ...(message ? { message } : {}) };
  });
}
