// External MCP connections: registration rules, the write-only secret, the test that speaks
// real MCP to the server (through the runner port, peers/mcp/runner.ts) and the state table:
// a passing test -> tested with the tool snapshot; an authentication failure -> credential_error;
// any other failure keeps the status and records lastErrorCode (docs/decisions.md "MCP
// connections"). Every check runs before the first write: a refused request changes nothing.
import { Table } from '../../core/store.ts';
import { ApiError } from '../../core/errors.ts';
import { mcpConnectionErrors } from './errors.ts';
import { freshId } from '../../core/ids.ts';
import type { AgentBindingsPort, McpConnectionsModelScope } from './ports.ts';
import { blockedHostReason } from '../../peers/egress.ts';
import { receiverErrors } from '../../peers/webhooks/receiver-policy.ts';
import { openSecret, sealSecret } from './secret.ts';
import {
  MCP_CONNECTION_IDS,
  type AuthType,
  type CreateMcpConnectionInput,
  type LastErrorCode,
  type McpConnectionRow,
  type RotateMcpCredentialInput,
  type Transport,
  type UpdateMcpConnectionInput,
} from './schema.ts';

const NO_AGENTS: AgentBindingsPort = { agentsUsing: () => [], unbind: () => undefined };

/** Statuses of failed tests, after the API document: 422 for too many tools, else 502. */
const FAILURE_STATUS: Record<LastErrorCode, number> = {
  URL_BLOCKED: 502,
  AUTH_FAILED: 502,
  TIMEOUT: 502,
  TLS_ERROR: 502,
  PROTOCOL_ERROR: 502,
  TOO_MANY_TOOLS: 422,
};

/**
 * A failed test or verification as an error body `{ error, code }` with the lastErrorCode as
 * code. Not a catalogue code: URL_BLOCKED already means 400 at registration, and the same code
 * answers 502 here; routes.ts documents these statuses.
 */
export function probeFailure(code: LastErrorCode, message: string, status = FAILURE_STATUS[code]): ApiError {
  return new ApiError(status, code, message);
}

export { mcpConnectionErrors };

/** Header names the platform sets itself or that would change the request's meaning. */
export const RESERVED_HEADERS = new Set([
  'authorization', 'proxy-authorization', 'host', 'cookie', 'set-cookie', 'content-type', 'content-length',
  'content-encoding', 'transfer-encoding', 'te', 'trailer', 'connection', 'keep-alive', 'upgrade', 'expect',
  'accept', 'accept-encoding', 'user-agent', 'origin', 'referer', 'forwarded', 'via', 'x-forwarded-for',
  'x-forwarded-host', 'x-forwarded-proto', 'x-real-ip', 'mcp-session-id', 'mcp-protocol-version', 'last-event-id',
]);
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const PRINTABLE = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

function refuse(path: string, message: string): ApiError {
  return ApiError.validation(`${path} ${message}`, [{ path, message }]);
}

/** The credential a request sets, checked: which header carries it and its value. */
interface CredentialInput {
  authType: AuthType;
  headerName: string | null;
  secret: string | null;
}

function checkCredential(input: { authType?: AuthType; headerName?: string; secret?: string }): CredentialInput {
  const authType = input.authType ?? 'none';
  if (input.headerName !== undefined && authType !== 'api_key') throw refuse('headerName', 'is only used with authType=api_key (bearer always uses Authorization)');
  if (authType === 'none') {
    if (input.secret !== undefined) throw refuse('secret', 'must be absent with authType=none');
    return { authType, headerName: null, secret: null };
  }
  if (input.secret === undefined) throw refuse('secret', `is required with authType=${authType}`);
  if (!PRINTABLE.test(input.secret)) throw refuse('secret', 'must be printable ASCII without leading or trailing spaces');
  if (authType === 'bearer') return { authType, headerName: null, secret: input.secret };
  const name = input.headerName;
  if (name === undefined) throw refuse('headerName', 'is required with authType=api_key');
  if (!TOKEN.test(name)) throw refuse('headerName', 'must be an HTTP header name (letters, digits and !#$%&\'*+.^_`|~-)');
  if (RESERVED_HEADERS.has(name.toLowerCase())) throw refuse('headerName', `"${name}" is a reserved header name (use authType=bearer for Authorization)`);
  return { authType, headerName: name, secret: input.secret };
}

/** The auth header a credential sends. */
function authHeaders(c: { authType: AuthType; headerName: string | null; secret: string | null }): Record<string, string> {
  if (c.authType === 'bearer' && c.secret !== null) return { authorization: `Bearer ${c.secret}` };
  if (c.authType === 'api_key' && c.secret !== null && c.headerName) return { [c.headerName]: c.secret };
  return {};
}

export class McpConnectionsModel {
  readonly connections = new Table<McpConnectionRow>(); // maps a connection id to its settings, sealed secret and last test
  /** Answers are not cached: agentCount follows the agents' bindings, not the row. */
  readonly wire = {
    json: (r: McpConnectionRow) => JSON.stringify(this.toWire(r)),
    dataOnly: (rows: readonly McpConnectionRow[]) => `{"data":[${rows.map((r) => JSON.stringify(this.toWire(r))).join(',')}]}`,
  };
  private agents: AgentBindingsPort = NO_AGENTS;

  constructor(private readonly rt: McpConnectionsModelScope) {}

  private get runner() {
    return this.rt.mcpRunner;
  }

  /** The agents family registers the bindings here (agentCount, affectedAgents, unbinding). */
  useAgents(port: AgentBindingsPort): void {
    this.agents = port;
  }

  private toWire(r: McpConnectionRow) {
    return {
      connectionId: r.id,
      name: r.name,
      url: r.url,
      host: r.host,
      transport: r.transport,
      authType: r.authType,
      authHeaderName: r.authHeaderName,
      hasSecret: r.sealedSecret !== null,
      enabled: r.enabled,
      status: r.status,
      toolCount: r.tools.length,
      tools: r.tools,
      lastTestedAt: r.lastTestedAt,
      lastErrorCode: r.lastErrorCode,
      agentCount: this.agents.agentsUsing(r.accountId, r.id).length,
      dateCreated: r.dateCreated,
      dateUpdated: r.dateUpdated,
    };
  }

  /** Newest first (reference: "newest registration first"). */
  list(accountId: string): McpConnectionRow[] {
    return this.connections.all().filter((r) => r.accountId === accountId).reverse();
  }

  get(accountId: string, id: string): McpConnectionRow {
    const row = this.connections.get(id);
    if (!row || row.accountId !== accountId) throw mcpConnectionErrors.MCP_CONNECTION_NOT_FOUND(`no MCP connection ${id}`);
    return row;
  }

  /**
   * Checks a URL against the request rules and returns it normalised with its host. https and
   * port 443 as the API document says; in the default (lenient) egress mode, local hosts
   * (localhost names, loopback and private literals) may use http and any port.
   */
  checkUrl(value: string, field = 'url'): { url: string; host: string } {
    let u: URL;
    try {
      u = new URL(value);
    } catch {
      throw refuse(field, `is not a valid URL: "${value.slice(0, 200)}"`);
    }
    if (u.protocol !== 'https:' && u.protocol !== 'http:') throw refuse(field, 'must be an https URL');
    if (u.hostname === '') throw refuse(field, 'must name a host');
    if (u.username !== '' || u.password !== '') throw refuse(field, 'must not carry a user name or password (use authType and secret)');
    if (u.hash !== '') throw refuse(field, 'must not carry a #fragment');
    const strict = this.rt.egress.strict;
    const local = blockedHostReason(u.hostname) !== undefined;
    if (strict || !local) {
      if (u.protocol !== 'https:') throw refuse(field, 'must use https');
      if (u.port !== '' && u.port !== '443') throw refuse(field, `must use port 443, got ${u.port}`);
    }
    const blocked = this.rt.egress.hostReason(u.hostname);
    if (blocked) {
      throw urlBlocked(`${field} points at ${blocked}; private and internal addresses are refused`, field);
    }
    return { url: u.href, host: u.hostname };
  }

  create(accountId: string, input: CreateMcpConnectionInput): McpConnectionRow {
    const { url, host } = this.checkUrl(input.url);
    const cred = checkCredential(input);
    const id = freshId(this.rt.random, MCP_CONNECTION_IDS.mcpConnection, (x) => this.connections.has(x));
    const now = this.rt.clock.nowIso();
    return this.connections.insert({
      id,
      accountId,
      name: input.name,
      url,
      host,
      transport: input.transport ?? 'streamable_http',
      authType: cred.authType,
      authHeaderName: cred.headerName,
      sealedSecret: this.seal(cred.secret, id),
      enabled: true,
      status: 'untested',
      tools: [],
      lastTestedAt: null,
      lastErrorCode: null,
      dateCreated: now,
      dateUpdated: now,
    });
  }

  /** A new url or transport discards the tool snapshot and goes back to untested (reference). */
  update(accountId: string, id: string, input: UpdateMcpConnectionInput): McpConnectionRow {
    const row = this.get(accountId, id);
    const target = input.url !== undefined ? this.checkUrl(input.url) : { url: row.url, host: row.host };
    const transport = input.transport ?? row.transport;
    const moved = target.url !== row.url || transport !== row.transport;
    const next: McpConnectionRow = {
      ...row,
      name: input.name ?? row.name,
      url: target.url,
      host: target.host,
      transport,
      enabled: input.enabled ?? row.enabled,
      dateUpdated: this.rt.clock.nowIso(),
    };
    if (moved) Object.assign(next, { status: 'untested', tools: [], lastErrorCode: null });
    return this.connections.replace(next);
  }

  delete(accountId: string, id: string): { deleted: true; affectedAgents: { agentId: string; name: string }[] } {
    const row = this.get(accountId, id);
    const affectedAgents = this.agents.agentsUsing(accountId, row.id);
    this.connections.delete(row.id);
    this.agents.unbind(accountId, row.id);
    return { deleted: true, affectedAgents };
  }

  /**
   * testMcpConnection: connects with the stored credential and lists the tools. Refusals (404,
   * 503) are thrown at once, before any I/O; the promise carries the test's outcome.
   */
  test(accountId: string, id: string): Promise<McpConnectionRow> {
    const row = this.get(accountId, id);
    this.requireRunner();
    const secret = this.open(row);
    return this.runner.probe({ url: row.url, transport: row.transport, headers: authHeaders({ ...row, headerName: row.authHeaderName, secret }) }).then((outcome) => {
      // The connection may have changed or gone while the test ran: apply to what is there now.
      const current = this.get(accountId, id);
      const now = this.rt.clock.nowIso();
      if (outcome.ok) {
        return this.connections.replace({ ...current, status: 'tested', tools: outcome.tools, lastTestedAt: now, lastErrorCode: null, dateUpdated: now });
      }
      const status = outcome.code === 'AUTH_FAILED' ? 'credential_error' : current.status;
      this.connections.replace({ ...current, status, lastErrorCode: outcome.code, dateUpdated: now });
      throw probeFailure(outcome.code, `the MCP connection test failed: ${outcome.detail}`);
    });
  }

  /**
   * rotateMcpCredential: by default the new credential is stored only once a real connection
   * with it succeeded (then the connection is tested, with a fresh tool snapshot); a failure
   * answers 502 with the reason as code and changes nothing. force=true stores it untested.
   * Refusals are thrown at once; a forced rotation answers without I/O.
   */
  rotate(accountId: string, id: string, input: RotateMcpCredentialInput): McpConnectionRow | Promise<McpConnectionRow> {
    const row = this.get(accountId, id);
    const cred = checkCredential(input);
    if (input.force === true) {
      return this.connections.replace(this.withCredential(row, cred, { status: 'untested', lastErrorCode: null }));
    }
    this.requireRunner();
    return this.runner.probe({ url: row.url, transport: row.transport, headers: authHeaders(cred) }).then((outcome) => {
      if (!outcome.ok) throw probeFailure(outcome.code, `the new credential was not stored: ${outcome.detail}`, 502);
      const current = this.get(accountId, id);
      const now = this.rt.clock.nowIso();
      return this.connections.replace(this.withCredential(current, cred, { status: 'tested', tools: outcome.tools, lastTestedAt: now, lastErrorCode: null }));
    });
  }

  private withCredential(row: McpConnectionRow, cred: CredentialInput, changes: Partial<McpConnectionRow>): McpConnectionRow {
    return {
      ...row,
      ...changes,
      authType: cred.authType,
      authHeaderName: cred.headerName,
      sealedSecret: this.seal(cred.secret, row.id),
      dateUpdated: this.rt.clock.nowIso(),
    };
  }

  /** Where an agent's tool calls through this connection go, with the credential in clear (call runtime only). */
  toolTarget(accountId: string, id: string): { url: string; transport: Transport; headers: Record<string, string> } | undefined {
    const row = this.connections.get(id);
    if (!row || row.accountId !== accountId) return undefined;
    return { url: row.url, transport: row.transport, headers: authHeaders({ ...row, headerName: row.authHeaderName, secret: this.open(row) }) };
  }

  private requireRunner(): void {
    if (!this.runner.available()) throw mcpConnectionErrors.MCP_RUNNER_UNAVAILABLE('the MCP connection test cannot run right now; retry later');
  }

  private seal(secret: string | null, id: string): string | null {
    return secret === null ? null : sealSecret(secret, id, this.rt.seed, this.rt.random.hex(24));
  }

  /** The stored secret in clear (only to build the auth header); null when none or unopenable. */
  private open(row: McpConnectionRow): string | null {
    return row.sealedSecret === null ? null : (openSecret(row.sealedSecret, row.id, this.rt.seed) ?? null);
  }
}

/** 400 URL_BLOCKED at registration: the same code the webhook registration uses. */
function urlBlocked(message: string, field: string): ApiError {
  return receiverErrors.URL_BLOCKED(message, { errors: [{ path: field, message: 'internal address' }] });
}

