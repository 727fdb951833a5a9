// No secret the run knows (API keys, passwords and secrets it sent) ever comes back in a
// response (spec Authentication 5, SIP credential: write-only secrets, passwords never returned).
import type { Check } from './types.ts';
import { isApiCall } from './types.ts';

export const noSecretEchoed: Check = {
  id: 'no-secret-echoed',
  level: 'spec',
  // Keys are not a spec clause; write-only secrets of MCP connections and SIP credentials have
  // their own clauses, counted by the scenarios of those resources.
  clauses: [],
  description: 'No API key, password or secret appears in a response body or header.',
  applies: isApiCall,
  run(ex) {
    const inBody = ex.secrets.foundIn(ex.response.text);
    if (inBody) return 'the response body contains a secret the client sent (redacted here)';
    const inHeaders = ex.secrets.foundIn(Object.values(ex.response.headers).join('\n'));
    if (inHeaders) return 'a response header contains a secret the client sent (redacted here)';
    return undefined;
  },
};
