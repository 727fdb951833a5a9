// The fake MCP servers the control plane runs (POST /_sim/mcp/servers): start, rescript, stop,
// and the fake internet's routing (a server's publicAddress reached through names the fake DNS
// resolves). Live peers with sockets, so not part of snapshots; /_sim/reset stops them all
// (docs/decisions.md "MCP connections").
import { ApiError, defineError } from '../../core/errors.ts';
import { FakeMcpServer } from './fake-server.ts';
import { withDefaults, type FakeServerScriptInput } from './fake-script.ts';
import { BudgetRegistry } from './budget.ts';
import { blockedAddressReason, literalAddress } from '../egress.ts';

export const MAX_FAKE_SERVERS = 50;

export const fakeServerErrors = {
  MCP_SERVER_NOT_FOUND: defineError({
    code: 'mcp_server_not_found', status: 404, origin: 'simulator',
    description: 'Control plane: no fake MCP server with this id (never started, or stopped).',
  }),
  TOO_MANY_FAKE_SERVERS: defineError({
    code: 'TOO_MANY_FAKE_SERVERS', status: 409, origin: 'simulator',
    description: `Control plane: at most ${MAX_FAKE_SERVERS} fake MCP servers run at once; stop some first.`,
  }),
};

export class FakeMcpServers {
  readonly budgets = new BudgetRegistry();
  private servers = new Map<string, FakeMcpServer>(); // maps a server id to the running server
  private next = 1;

  list(): FakeMcpServer[] {
    return [...this.servers.values()];
  }

  get(id: string): FakeMcpServer {
    const s = this.servers.get(id);
    if (!s) throw fakeServerErrors.MCP_SERVER_NOT_FOUND(`no fake MCP server ${id}`);
    return s;
  }

  /** Refusals are thrown at once; the promise resolves once the server listens. */
  start(input: FakeServerScriptInput): Promise<FakeMcpServer> {
    if (this.servers.size >= MAX_FAKE_SERVERS) throw fakeServerErrors.TOO_MANY_FAKE_SERVERS(`${MAX_FAKE_SERVERS} fake MCP servers are running`);
    const script = withDefaults(input);
    checkScript(script);
    const server = new FakeMcpServer(`mcps_${String(this.next++).padStart(4, '0')}`, script, this.budgets);
    this.servers.set(server.id, server);
    return server.start().then(
      () => server,
      (e) => {
        this.servers.delete(server.id);
        throw e;
      },
    );
  }

  /** Changes the script; transport and tls need a new socket, so they cannot change. */
  update(id: string, input: FakeServerScriptInput): FakeMcpServer {
    const server = this.get(id);
    if ((input.transport !== undefined && input.transport !== server.script.transport) || (input.tls !== undefined && input.tls !== server.script.tls)) {
      throw ApiError.validation('transport and tls cannot change on a running server; start another one', [{ path: 'transport', message: 'cannot change' }]);
    }
    const script = withDefaults(input, server.script);
    checkScript(script);
    server.script = script;
    return server;
  }

  stop(id: string): Promise<void> {
    const server = this.get(id);
    this.servers.delete(id);
    return server.stop();
  }

  async stopAll(): Promise<void> {
    const all = [...this.servers.values()];
    this.servers.clear();
    await Promise.all(all.map((s) => s.stop()));
  }

  /** Where a connection to a fake-internet address goes: a fake server's loopback port, or nowhere. */
  route(address: string): { host: string; port: number } | undefined {
    for (const s of this.servers.values()) if (s.script.publicAddress === address) return { host: '127.0.0.1', port: s.port };
    return undefined;
  }
}

function checkScript(s: ReturnType<typeof withDefaults>): void {
  const bad = (path: string, message: string) => ApiError.validation(`${path} ${message}`, [{ path, message }]);
  if (s.auth.type !== 'none' && s.auth.secret === null) throw bad('auth.secret', `is required with auth.type=${s.auth.type}`);
  if (s.auth.type === 'api_key' && s.auth.headerName === null) throw bad('auth.headerName', 'is required with auth.type=api_key');
  if (s.publicAddress !== null) {
    const ip = literalAddress(s.publicAddress);
    if (ip === undefined) throw bad('publicAddress', 'must be an IP address');
    if (blockedAddressReason(ip)) throw bad('publicAddress', 'must be a public address (the fake internet has no private ranges)');
  }
  const names = new Set<string>();
  for (const t of s.tools) {
    if (names.has(t.name)) throw bad('tools', `lists "${t.name}" twice`);
    names.add(t.name);
  }
}
