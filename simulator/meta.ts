// Documents the simulator serves about itself: the OpenAPI document at /openapi.json.
import { Type } from '@sinclair/typebox';
import { defineOperation, reply } from './core/operation.ts';
import { openApiDocument } from './operations.ts';

let cachedDocument: string | undefined;

/** The OpenAPI document as JSON text (operations are static, so it is built once). */
export function openApiJson(): string {
  cachedDocument ??= JSON.stringify(openApiDocument());
  return cachedDocument;
}

export const operations = [
  defineOperation({
    operationId: 'getOpenApiDocument',
    method: 'GET',
    path: '/openapi.json',
    tag: 'Meta',
    summary: 'This API as an OpenAPI 3.1 document',
    description: 'Generated from the same schemas that validate requests. Needs no key.',
    origin: 'simulator',
    auth: 'none',
    responses: { 200: { description: 'The document.', schema: Type.Object({}, { additionalProperties: true }) } },
    handler: () => reply.json(200, openApiJson()),
  }),
];
