// Documents the simulator serves about itself: the OpenAPI document at /openapi.json, which the
// runtime builds from the registry (operations.ts) when first asked.
import { Type } from '@sinclair/typebox';
import { defineOperation, reply } from './core/operation.ts';

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
    handler: ({ rt }) => reply.json(200, rt.openApiJson()),
  }),
];
