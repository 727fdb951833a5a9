// Request examples of getIceServers (shown in /openapi.json; sent in document order against the
// default fixture by openapi-examples.test.ts).
import type { OperationExample } from '../../core/operation.ts';

export const examples: Record<string, OperationExample[]> = {
  getIceServers: [{ name: 'ten-minutes', summary: 'TURN credentials good for ten minutes', params: { accountId: 'AC1a2b3c4d' }, query: { ttl_seconds: 600 } }],
};
