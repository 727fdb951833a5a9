// Request examples of the platform's MCP server (shown in /openapi.json; sent in document order
// against the default fixture by openapi-examples.test.ts, with the token of an app registered
// through the control plane as the bearer).
import type { OperationExample } from '../../core/operation.ts';

const ACCEPT = { Accept: 'application/json, text/event-stream' };

export const examples: Record<string, OperationExample[]> = {
  mcpServer: [
    {
      name: 'initialize',
      summary: 'Open an MCP session',
      headers: ACCEPT,
      body: { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'example-client', version: '1.0.0' } } },
    },
    { name: 'tools', summary: 'List the tools the app may call', headers: ACCEPT, body: { jsonrpc: '2.0', id: 2, method: 'tools/list' } },
  ],
};
