// Request examples of MCP connections (shown in /openapi.json; sent in document order against
// the default fixture by openapi-examples.test.ts). Nothing listens on 127.0.0.1 port 9, so
// the connection tests fail fast: point the URL at your own MCP server.
import type { OperationExample } from '../../core/operation.ts';
import { ref } from '../example-refs.ts';

const acme = { accountId: 'AC1a2b3c4d' };
const CRM = ref('createMcpConnection.crm.connectionId');
const SPARE = ref('createMcpConnection.spare.connectionId');

export const examples: Record<string, OperationExample[]> = {
  listMcpConnections: [{ name: 'acme', summary: 'Every connection of the account', params: acme }],
  createMcpConnection: [
    { name: 'crm', summary: 'A CRM\'s MCP server behind a bearer token', params: acme, body: { name: 'CRM', url: 'http://127.0.0.1:9/mcp', transport: 'streamable_http', authType: 'bearer', secret: 'crm-token-123' } },
    { name: 'spare', summary: 'A second connection without authentication', params: acme, body: { name: 'Spare', url: 'http://127.0.0.1:9/spare' } },
  ],
  getMcpConnection: [{ name: 'crm', summary: 'One connection and its tools', params: { ...acme, connectionId: CRM } }],
  updateMcpConnection: [{ name: 'disable', summary: 'Keep it out of calls', params: { ...acme, connectionId: CRM }, body: { enabled: false } }],
  deleteMcpConnection: [{ name: 'spare', summary: 'Delete the second connection', params: { ...acme, connectionId: SPARE } }],
  rotateMcpCredential: [{ name: 'apiKey', summary: 'Switch to an API key header, stored without a check', params: { ...acme, connectionId: CRM }, body: { authType: 'api_key', headerName: 'X-Api-Key', secret: 'new-key-456', force: true } }],
  testMcpConnection: [{ name: 'crm', summary: 'Connect and list its tools now', params: { ...acme, connectionId: CRM } }],
};
