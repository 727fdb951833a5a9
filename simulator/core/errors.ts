// One error type for every refusal, and one catalogue of wire codes. Models throw ApiError;
// only the HTTP layer turns it into the spec's error body ({ error, code, ...extra }).

/** Where a code comes from: the spec's error table, the public API reference, or our choice. */
export type Origin = 'spec' | 'reference' | 'simulator';

export interface FieldError {
  path: string; // dotted path of the offending field ('' for the whole body)
  message: string;
}

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly extra: Record<string, unknown>;

  constructor(status: number, code: string, message: string, extra: Record<string, unknown> = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.extra = extra;
  }

  static validation(message: string, errors?: FieldError[]): ApiError {
    return errorCodes.VALIDATION(message, errors ? { errors } : {});
  }
}

export interface ErrorCodeInfo {
  code: string;
  status: number;
  origin: Origin;
  description: string;
}

const catalogue = new Map<string, ErrorCodeInfo>();

export type ErrorFactory = ((message: string, extra?: Record<string, unknown>) => ApiError) & { info: ErrorCodeInfo };

/** Declares a wire error code once; the returned factory is the only way to raise it. */
export function defineError(info: ErrorCodeInfo): ErrorFactory {
  // A code means one thing everywhere: declaring it twice (even with another description) is a
  // defect, because the documents list each code once and must not depend on import order.
  const existing = catalogue.get(info.code);
  if (existing) throw new Error(`error code ${info.code} is declared twice; share one declaration`);
  catalogue.set(info.code, info);
  const factory = (message: string, extra: Record<string, unknown> = {}) => new ApiError(info.status, info.code, message, extra);
  return Object.assign(factory, { info });
}

export function errorCatalogue(): ErrorCodeInfo[] {
  return [...catalogue.values()].sort((a, b) => a.status - b.status || a.code.localeCompare(b.code));
}

/** Codes every part of the simulator can raise. Resource-specific codes live with their model. */
export const errorCodes = {
  VALIDATION: defineError({
    code: 'VALIDATION', status: 400, origin: 'reference',
    description: 'The request does not match the operation\'s schema; `errors` lists each offending field.',
  }),
  INVALID_JSON: defineError({
    code: 'INVALID_JSON', status: 400, origin: 'simulator',
    description: 'The body is not valid JSON.',
  }),
  INVALID_PHONE_NUMBER: defineError({
    code: 'INVALID_PHONE_NUMBER', status: 400, origin: 'spec',
    description: 'A phone number is not a valid domestic number.',
  }),
  IMMUTABLE_FIELD: defineError({
    code: 'IMMUTABLE_FIELD', status: 400, origin: 'simulator',
    description: 'The body tries to change a field that cannot change after creation (e.g. number and channel of a block entry).',
  }),
  UNSUPPORTED_COUNTRY: defineError({
    code: 'UNSUPPORTED_COUNTRY', status: 400, origin: 'spec',
    description: 'A phone number carries a country code other than +82.',
  }),
  UNAUTHORIZED: defineError({
    code: 'UNAUTHORIZED', status: 401, origin: 'simulator',
    description: 'The bearer API key is missing or unknown.',
  }),
  FORBIDDEN: defineError({
    code: 'FORBIDDEN', status: 403, origin: 'simulator',
    description: 'The API key belongs to another account than the one in the path.',
  }),
  OVERSEAS_IP_BLOCKED: defineError({
    code: 'overseas_ip_blocked', status: 403, origin: 'spec',
    description: 'The request comes from an address judged foreign; the body carries `ip`. (Status chosen by the simulator.)',
  }),
  FEATURE_DISABLED: defineError({
    code: 'FEATURE_DISABLED', status: 403, origin: 'spec',
    description: 'The managed-number add-on is off: assignment-link POST and DELETE only (the spec reserves this code for them).',
  }),
  IN_USE: defineError({
    code: 'IN_USE', status: 409, origin: 'reference',
    description: 'Something still uses the resource: numbers route to the SIP endpoint (`blockers` names each number), or a credential refers to the IP ACL. Remove the use first.',
  }),
  CLOCK_RUNAWAY: defineError({
    code: 'CLOCK_RUNAWAY', status: 409, origin: 'simulator',
    description: 'A clock advance ran more than 1,000,000 jobs: a job keeps rescheduling itself. The clock stops at the last job run.',
  }),
  NOT_FOUND: defineError({
    code: 'NOT_FOUND', status: 404, origin: 'simulator',
    description: 'No operation has this path.',
  }),
  METHOD_NOT_ALLOWED: defineError({
    code: 'METHOD_NOT_ALLOWED', status: 405, origin: 'simulator',
    description: 'The path exists but not with this method; the `Allow` header lists the methods.',
  }),
  PAYLOAD_TOO_LARGE: defineError({
    code: 'PAYLOAD_TOO_LARGE', status: 413, origin: 'simulator',
    description: 'The body exceeds the size limit.',
  }),
  BAD_REQUEST: defineError({
    code: 'BAD_REQUEST', status: 400, origin: 'simulator',
    description: 'The HTTP framing is malformed (bad Content-Length or chunk size, both Content-Length and Transfer-Encoding, bytes not allowed in the request line); the connection is closed.',
  }),
  URI_TOO_LONG: defineError({
    code: 'URI_TOO_LONG', status: 414, origin: 'simulator',
    description: 'The request line is longer than the header limit (16 KiB); the connection is closed.',
  }),
  HEADERS_TOO_LARGE: defineError({
    code: 'HEADERS_TOO_LARGE', status: 431, origin: 'simulator',
    description: 'The request headers together exceed 16 KiB; the connection is closed.',
  }),
  UPGRADE_REQUIRED: defineError({
    code: 'UPGRADE_REQUIRED', status: 426, origin: 'simulator',
    description: 'A plain request to a WebSocket endpoint (the Agent SDK\'s control and media sockets): connect with "Upgrade: websocket".',
  }),
  NOT_IMPLEMENTED: defineError({
    code: 'NOT_IMPLEMENTED', status: 501, origin: 'simulator',
    description: 'The HTTP method or transfer coding is one the server does not know; the connection is closed.',
  }),
  UNSUPPORTED_MEDIA_TYPE: defineError({
    code: 'UNSUPPORTED_MEDIA_TYPE', status: 415, origin: 'simulator',
    description: 'The body is not sent in an encoding the operation accepts (application/json; createCall also application/x-www-form-urlencoded).',
  }),
  STATE_DIR_UNWRITABLE: defineError({
    code: 'STATE_DIR_UNWRITABLE', status: 503, origin: 'simulator',
    description: 'The simulator keeps durable state (--state-dir) and could not write its journal (disk full, permissions): its state in memory is ahead of the disk, so it answers nothing more. Free the disk and restart it; it comes back at the last state written.',
  }),
  INTERNAL: defineError({
    code: 'INTERNAL', status: 500, origin: 'simulator',
    description: 'A defect in the simulator; please report it with the request that caused it.',
  }),
} as const;

/** The spec's error body for an ApiError. */
export function errorBody(e: ApiError): Record<string, unknown> {
  return { error: e.message, code: e.code, ...e.extra };
}
