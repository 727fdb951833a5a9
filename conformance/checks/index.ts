// Every check and probe the runner applies to API responses, in report order.
import { contentTypeJson, responseSchema, responseSchemaStrict } from './content.ts';
import { errorBodyShape, errorCodeDocumented } from './errors.ts';
import { listEnvelope, pageRowsMatchTotal, pagingMetaEcho } from './lists.ts';
import { deletedIsGone, invalidKey, missingKey, otherAccountKey, otherAccountResource } from './probes.ts';
import { noSecretEchoed } from './secrets.ts';
import { noServerError, statusDocumented } from './status.ts';
import { transferBillableOnce, transferChainOrder, transferRepresentative } from './transfers.ts';
import type { Check, Probe } from './types.ts';

export const CHECKS: readonly Check[] = [
  noServerError,
  statusDocumented,
  contentTypeJson,
  responseSchema,
  responseSchemaStrict,
  errorBodyShape,
  errorCodeDocumented,
  listEnvelope,
  pagingMetaEcho,
  pageRowsMatchTotal,
  noSecretEchoed,
  transferChainOrder,
  transferRepresentative,
  transferBillableOnce,
];

/** A HEAD answer carries no body (RFC 9110 §9.3.2): only the checks of its status apply. */
export const HEAD_CHECKS: readonly Check[] = [noServerError, statusDocumented];

export const PROBES: readonly Probe[] = [missingKey, invalidKey, otherAccountKey, otherAccountResource, deletedIsGone];

export type { Check, Exchange, Probe } from './types.ts';
