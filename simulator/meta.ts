// Documents the simulator serves about itself: the OpenAPI document at /openapi.json, which the
// runtime builds from the registry (operations.ts) when first asked.
import { Type } from '@sinclair/typebox';
import { reply, scopedOperations } from './core/operation.ts';

/** What the documents read: the OpenAPI document as JSON text (the runtime offers it). */
export interface MetaScope {
  openApiJson(): string;
}

const operation = scopedOperations<MetaScope>();

export const operations = [
  operation({
    operationId: 'getOpenApiDocument',
    method: 'GET',
    path: '/openapi.json',
    tag: 'Meta',
    summary: 'This API as an OpenAPI 3.1 document',
    description: 'Generated from the same schemas that validate requests. Needs no key.',
    origin: 'simulator',
    auth: 'none',
    responses: { 200: { description: 'The document.', schema: Type.Object({}, { additionalProperties: true }) } },
    handler: ({ scope }) => reply.json(200, scope.openApiJson()),
  }),
];
