// The MCP peers' /_sim routes (docs/control-plane.md, "MCP and egress"): fake MCP servers on
// loopback (start, rescript, inspect, stop), the call runtime's availability and limits, and the
// strict egress switch the runner, webhooks and flows share. (DNS rebinding rules are the fake
// DNS's routes; apps of the platform's own MCP server are the MCP apps'.)
import { Type } from '@sinclair/typebox';
import ipaddr from 'ipaddr.js';
import { reply } from '../../core/operation.ts';
import { FakeServerScriptSchema, FakeServerViewSchema } from './fake-script.ts';
import type { FakeMcpServer } from './fake-server.ts';
import { fakeServerErrors } from './fake-servers.ts';
import { runnerErrors } from './errors.ts';
import { operation } from './scope.ts';

const TAG = 'Control plane';
const serverParam = { serverId: Type.String({ description: 'Fake MCP server id.' }) };

function view(s: FakeMcpServer) {
  return {
    serverId: s.id,
    url: s.url,
    port: s.port,
    transport: s.script.transport,
    tls: s.script.tls,
    authType: s.script.auth.type,
    authHeaderName: s.script.auth.headerName,
    hasSecret: s.script.auth.secret !== null,
    toolCount: s.toolCount,
    handshake: s.script.handshake,
    publicAddress: s.script.publicAddress,
    requests: s.log.map((r) => ({ ...r })),
  };
}

const ServerList = Type.Object({ data: Type.Array(FakeServerViewSchema) }, { $id: 'SimMcpServerList', additionalProperties: false });
const RunnerView = Type.Object(
  {
    available: Type.Boolean({ description: 'false: tests and verified rotations answer 503.' }),
    timeoutMs: Type.Integer({ description: 'Wall-clock ceiling of one test against a real server.' }),
    budgetSeconds: Type.Number({ description: 'Virtual seconds a test may spend in fake servers\' delays.' }),
  },
  { $id: 'SimMcpRunner', additionalProperties: false },
);
const RunnerBody = Type.Object(
  {
    available: Type.Optional(Type.Boolean()),
    timeoutMs: Type.Optional(Type.Integer({ minimum: 1, maximum: 120_000 })),
    budgetSeconds: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 3600 })),
  },
  { $id: 'SimMcpRunnerRequest', additionalProperties: false, minProperties: 1 },
);
const EgressView = Type.Object(
  { strict: Type.Boolean({ description: 'Refuse what the real service refuses (non-https, ports other than 443, non-public addresses and names resolving to them).' }) },
  { $id: 'SimEgress', additionalProperties: false },
);
export const operations = [
  operation({
    operationId: 'simStartMcpServer',
    method: 'POST',
    path: '/_sim/mcp/servers',
    tag: TAG,
    summary: 'Start a fake MCP server on loopback',
    description: 'Built with the official MCP SDK server. Register its `url` as an MCP connection (or give it a publicAddress and a fake DNS name for strict egress). Defaults: streamable_http, no TLS, no auth, one tool "echo".',
    origin: 'simulator',
    liveOnly: true, // fake servers are sockets: not state (docs/decisions.md "Durable state")
    auth: 'control',
    body: FakeServerScriptSchema,
    responses: { 201: { description: 'The running server.', schema: FakeServerViewSchema } },
    errors: [fakeServerErrors.TOO_MANY_FAKE_SERVERS],
    handler: ({ scope, body }) => scope.mcpServers.start(normalized(body ?? {})).then((s) => reply.created(view(s))),
  }),
  operation({
    operationId: 'simListMcpServers',
    method: 'GET',
    path: '/_sim/mcp/servers',
    tag: TAG,
    summary: 'Running fake MCP servers',
    origin: 'simulator',
    auth: 'control',
    responses: { 200: { description: 'In start order.', schema: ServerList } },
    handler: ({ scope }) => reply.ok({ data: scope.mcpServers.list().map(view) }),
  }),
  operation({
    operationId: 'simGetMcpServer',
    method: 'GET',
    path: '/_sim/mcp/servers/{serverId}',
    tag: TAG,
    summary: 'One fake MCP server with the requests it received',
    origin: 'simulator',
    auth: 'control',
    params: serverParam,
    responses: { 200: { description: 'The server.', schema: FakeServerViewSchema } },
    errors: [fakeServerErrors.MCP_SERVER_NOT_FOUND],
    handler: ({ scope, params }) => reply.ok(view(scope.mcpServers.get(params.serverId))),
  }),
  operation({
    operationId: 'simUpdateMcpServer',
    method: 'PATCH',
    path: '/_sim/mcp/servers/{serverId}',
    tag: TAG,
    summary: 'Rescript a running fake MCP server',
    description: 'Fields given replace the script\'s; transport and tls cannot change.',
    origin: 'simulator',
    liveOnly: true, // fake servers are sockets: not state (docs/decisions.md "Durable state")
    auth: 'control',
    params: serverParam,
    body: FakeServerScriptSchema,
    bodyRequired: true,
    responses: { 200: { description: 'The server.', schema: FakeServerViewSchema } },
    errors: [fakeServerErrors.MCP_SERVER_NOT_FOUND],
    handler: ({ scope, params, body }) => reply.ok(view(scope.mcpServers.update(params.serverId, normalized(body)))),
  }),
  operation({
    operationId: 'simStopMcpServer',
    method: 'DELETE',
    path: '/_sim/mcp/servers/{serverId}',
    tag: TAG,
    summary: 'Stop a fake MCP server',
    origin: 'simulator',
    liveOnly: true, // fake servers are sockets: not state (docs/decisions.md "Durable state")
    auth: 'control',
    params: serverParam,
    responses: { 204: { description: 'Stopped.' } },
    errors: [fakeServerErrors.MCP_SERVER_NOT_FOUND],
    handler: ({ scope, params }) => scope.mcpServers.stop(params.serverId).then(() => reply.noContent()),
  }),
  operation({
    operationId: 'simGetMcpRunner',
    method: 'GET',
    path: '/_sim/mcp/runner',
    tag: TAG,
    summary: 'The call runtime that tests MCP connections',
    origin: 'simulator',
    auth: 'control',
    responses: { 200: { description: 'Its settings.', schema: RunnerView } },
    handler: ({ scope }) => reply.ok(runnerView(scope.mcpRunner)),
  }),
  operation({
    operationId: 'simSetMcpRunner',
    method: 'PUT',
    path: '/_sim/mcp/runner',
    tag: TAG,
    summary: 'Make the runtime unavailable (503), or change its limits',
    origin: 'simulator',
    auth: 'control',
    body: RunnerBody,
    bodyRequired: true,
    responses: { 200: { description: 'Its settings.', schema: RunnerView } },
    errors: [runnerErrors.MCP_RUNNER_UNAVAILABLE],
    handler: ({ scope, body }) => {
      const r = scope.mcpRunner;
      if (body.available !== undefined) r.isAvailable = body.available;
      if (body.timeoutMs !== undefined) r.timeoutMs = body.timeoutMs;
      if (body.budgetSeconds !== undefined) r.budgetMs = Math.round(body.budgetSeconds * 1000);
      return reply.ok(runnerView(r));
    },
  }),
  operation({
    operationId: 'simGetEgress',
    method: 'GET',
    path: '/_sim/egress',
    tag: TAG,
    summary: 'The egress guard\'s mode',
    origin: 'simulator',
    auth: 'control',
    responses: { 200: { description: 'The mode.', schema: EgressView } },
    handler: ({ scope }) => reply.ok({ strict: scope.egress.strict }),
  }),
  operation({
    operationId: 'simSetEgress',
    method: 'PUT',
    path: '/_sim/egress',
    tag: TAG,
    summary: 'Switch strict egress on or off (webhooks, MCP servers, call flow http blocks)',
    description: 'The same switch as --strict-egress (and --webhook-strict). Not part of snapshots; reset keeps it.',
    origin: 'simulator',
    auth: 'control',
    body: EgressView,
    bodyRequired: true,
    responses: { 200: { description: 'The mode.', schema: EgressView } },
    handler: ({ scope, body }) => {
      scope.egress.strict = body.strict;
      return reply.ok({ strict: scope.egress.strict });
    },
  }),
];

function runnerView(r: { isAvailable: boolean; timeoutMs: number; budgetMs: number }) {
  return { available: r.isAvailable, timeoutMs: r.timeoutMs, budgetSeconds: r.budgetMs / 1000 };
}

/** A public address in the form the fake DNS answers it (so routes compare equal). */
function normalized<T extends { publicAddress?: string | null }>(body: T): T {
  const a = body.publicAddress;
  if (typeof a === 'string' && ipaddr.isValid(a)) return { ...body, publicAddress: ipaddr.parse(a).toString() };
  return body;
}

