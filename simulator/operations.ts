// Every operation the simulator serves and the OpenAPI document describing them, generated from
// the list of families through the registry (registry.ts). A new family adds nothing here.
import type { Operation } from './core/operation.ts';
import { buildOpenApi } from './openapi.ts';
import { registry } from './registry.ts';

export function allOperations(): readonly Operation[] {
  return registry().operations;
}

/** The OpenAPI document of every operation, with the families' tag descriptions. */
export function openApiDocument(serverUrl = '/'): Record<string, unknown> {
  return buildOpenApi(registry().operations, registry().tags, serverUrl);
}

let cachedDocument: string | undefined;

/** The OpenAPI document as JSON text (operations are static, so it is built once). */
export function openApiJson(): string {
  cachedDocument ??= JSON.stringify(openApiDocument());
  return cachedDocument;
}
