// The call runtime's MCP tool calls against fake MCP servers built with the official SDK: a
// real tools/call with the connection's credential, one warm session per target, failures
// mapped to reasons (auth, protocol, blocked), and the I/O barrier seeing calls in flight.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EgressGuard } from '../peers/egress.ts';
import { IoBarrier } from '../core/io.ts';
import { FakeDns } from '../peers/dns/model.ts';
import { FakeMcpServers } from '../peers/mcp/fake-servers.ts';
import { McpToolCaller, resultText, type ToolCallOutcome, type ToolCallRequest } from '../peers/mcp/tool-caller.ts';

const fakes = new FakeMcpServers();
const io = new IoBarrier();
const egress = new EgressGuard(() => new FakeDns(), io);
const caller = new McpToolCaller(egress, fakes, () => 5000, io);

function call(req: ToolCallRequest): Promise<ToolCallOutcome> {
  return new Promise((resolve) => caller.call(req, resolve));
}

let open: string;
let guarded: string;
beforeAll(async () => {
  open = (await fakes.start({})).url;
  guarded = (await fakes.start({ auth: { type: 'bearer', secret: 's3cret' }, transport: 'sse' })).url;
});
afterAll(async () => {
  await caller.closeAll();
  await fakes.stopAll();
});

describe('MCP tool calls', () => {
  it('calls the tool for real and returns its text', async () => {
    const out = await call({ url: open, transport: 'streamable_http', headers: {}, name: 'echo', arguments: { text: '안녕' } });
    expect(out).toEqual({ ok: true, text: JSON.stringify({ tool: 'echo', arguments: { text: '안녕' } }) });
    const server = fakes.list()[0]!;
    expect(server.log.map((r) => r.rpcMethod)).toContain('tools/call');
  });

  it('keeps one session per target: a second call does not initialize again', async () => {
    const server = fakes.list()[0]!;
    const before = server.log.filter((r) => r.rpcMethod === 'initialize').length;
    await call({ url: open, transport: 'streamable_http', headers: {}, name: 'echo', arguments: { text: 'again' } });
    expect(server.log.filter((r) => r.rpcMethod === 'initialize').length).toBe(before);
  });

  it('sends the credential over SSE; a wrong one fails as AUTH_FAILED', async () => {
    const ok = await call({ url: guarded, transport: 'sse', headers: { authorization: 'Bearer s3cret' }, name: 'echo', arguments: {} });
    expect(ok.ok).toBe(true);
    const bad = await call({ url: guarded, transport: 'sse', headers: { authorization: 'Bearer nope' }, name: 'echo', arguments: {} });
    expect(bad).toMatchObject({ ok: false, reason: 'AUTH_FAILED' });
  });

  it('a dead server is a protocol error; strict egress refuses loopback', async () => {
    expect(await call({ url: 'http://127.0.0.1:1/mcp', transport: 'streamable_http', headers: {}, name: 'echo', arguments: {} })).toMatchObject({ ok: false, reason: 'PROTOCOL_ERROR' });
    egress.strict = true;
    try {
      expect(await call({ url: open, transport: 'streamable_http', headers: {}, name: 'echo', arguments: {} })).toMatchObject({ ok: false, reason: 'URL_BLOCKED' });
    } finally {
      egress.strict = false;
    }
  });

  it('counts as busy until the outcome has landed', async () => {
    let landed = false;
    const done = new Promise<void>((resolve) =>
      caller.call({ url: open, transport: 'streamable_http', headers: {}, name: 'echo', arguments: {} }, () => {
        landed = true;
        resolve();
      }),
    );
    expect(caller.busy).toBe(true);
    await caller.whenIdle();
    expect(landed).toBe(true);
    await done;
  });

  it('reads text parts, else structured content', () => {
    expect(resultText({ content: [{ type: 'text', text: 'a' }, { type: 'image' }, { type: 'text', text: 'b' }] })).toBe('a\nb');
    expect(resultText({ content: [], structuredContent: { x: 1 } })).toBe('{"x":1}');
  });
});

describe('fake MCP servers answering tool calls', () => {
  let url = '';
  beforeAll(async () => {
    url = (
      await fakes.start({
        tools: [
          { name: 'get_reservation', result: { date: '5월 3일', guests: 2, note: 'for {{arguments.name}}' } },
          { name: 'greet', result: '안녕하세요 {{arguments.name}}님' },
          { name: 'broken', result: 'database down', isError: true },
        ],
      })
    ).url;
  });
  const go = (name: string, args: Record<string, unknown>) => call({ url, transport: 'streamable_http', headers: {}, name, arguments: args });

  it('answer with their scripted result, arguments filled in', async () => {
    expect(await go('get_reservation', { name: 'Kim "K"' })).toEqual({ ok: true, text: JSON.stringify({ date: '5월 3일', guests: 2, note: 'for Kim "K"' }) });
    expect(await go('greet', { name: '민수' })).toEqual({ ok: true, text: '안녕하세요 민수님' });
  });

  it('report a scripted tool error, and refuse an unknown tool without breaking the session', async () => {
    expect(await go('broken', {})).toEqual({ ok: false, reason: 'tool_error', detail: 'database down' });
    expect(await go('missing', {})).toMatchObject({ ok: false, reason: 'PROTOCOL_ERROR' });
    expect(await go('greet', { name: 'x' })).toEqual({ ok: true, text: '안녕하세요 x님' });
  });
});
