// What the call runtime's MCP connection test takes and gives back (runner.ts): where to connect
// and with which headers, and either the tools the server lists or why it failed, as one of the
// codes the MCP connections family records as lastErrorCode. The family names these types in its
// port on the runner, so the runner needs nothing from the family.

/** Why a test failed (the MCP connections' lastErrorCode). */
export const PROBE_FAILURES = ['URL_BLOCKED', 'AUTH_FAILED', 'TIMEOUT', 'TLS_ERROR', 'PROTOCOL_ERROR', 'TOO_MANY_TOOLS'] as const;
export type ProbeFailure = (typeof PROBE_FAILURES)[number];

/** Tools a server may list before the test fails TOO_MANY_TOOLS (reference: testMcpConnection 422 "at most 50 tools"). */
export const MAX_TOOLS = 50;

/** A tool as the server listed it. */
export interface ProbedTool {
  name: string;
  description: string | null;
  inputSchema: Record<string, unknown>;
}

/** Where the runner connects: the URL, transport and the auth header in clear. */
export interface ProbeRequest {
  url: string;
  transport: 'streamable_http' | 'sse';
  headers: Record<string, string>;
}

export type ProbeOutcome = { ok: true; tools: ProbedTool[] } | { ok: false; code: ProbeFailure; detail: string };
