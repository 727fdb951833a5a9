// Options shared by every use of the official MCP SDK here. The SDK builds an Ajv instance per
// Client and Server by default (tens of milliseconds each); the runtime only lists tools and the
// servers never ask for elicitation, so nothing here validates tool outputs: a pass-through
// validator keeps each connection test fast.
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';

export const PASS_THROUGH_VALIDATOR: jsonSchemaValidator = {
  getValidator: () => (input) => ({ valid: true, data: input as never, errorMessage: undefined }),
};
