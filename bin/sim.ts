// `npm start`: serve the simulator over HTTP. Prints the base URL, clock mode and the demo
// keys; exits cleanly on SIGINT/SIGTERM; a bad option, fixture or port gives one line on
// stderr and a non-zero exit, never a stack trace. `record` runs the recording proxy instead
// (conformance/recording/cli.ts).
import { parseArgs } from 'node:util';
import { createSimulator, parseClockMode, FixtureError, StateDirError, DEFAULT_FIXTURE_PATH } from '../simulator/index.ts';
import { runtimeOf } from '../simulator/internal.ts';
import { typedCommand } from './command-name.ts';

const PROGRAM = typedCommand('platform-sim', 'npm start --');
const USAGE = `usage: ${PROGRAM} [--port 4010] [--host 127.0.0.1] [--seed N] [--fixture fixtures/default.yaml]
                    [--clock manual|realtime[:speed]] [--control-token T] [--max-body-bytes N]
                    [--max-snapshot-bytes N] [--strict-egress] [--webhook-strict] [--webhook-timeout-ms 10000] [--mcp-timeout-ms 10000]
                    [--sip-port N] [--sip-digest sha-256,md5]
                    [--state-dir DIR [--compact-every 50000]]

  --state-dir DIR   keep the state across restarts (a snapshot and a journal in DIR, written before each answer);
                    a DIR that holds state keeps its own fixture and seed

       ${PROGRAM} record --upstream URL --port N --out DIR   (platform-sim record: a recording proxy; record --help)`;

function fail(message: string): never {
  process.stderr.write(`sim: ${message}\n`);
  process.exit(2);
}

function integer(name: string, text: string | undefined, min: number, max: number): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) fail(`--${name} must be an integer from ${min} to ${max}, got "${text}"`);
  return Number(text);
}

async function main(): Promise<void> {
  // `platform-sim record ...`: the recording proxy (loaded only for it).
  if (process.argv[2] === 'record') {
    const { recordMain } = await import('../conformance/recording/cli.ts');
    process.exit(await recordMain(process.argv.slice(3), { out: process.stdout, err: process.stderr }));
  }
  let args;
  try {
    args = parseArgs({
      options: {
        port: { type: 'string', default: '4010' },
        host: { type: 'string', default: '127.0.0.1' },
        seed: { type: 'string' },
        fixture: { type: 'string' },
        clock: { type: 'string', default: 'manual' },
        'control-token': { type: 'string' },
        'max-body-bytes': { type: 'string' },
        'max-snapshot-bytes': { type: 'string' },
        'sip-port': { type: 'string' },
        'sip-digest': { type: 'string' },
        'webhook-strict': { type: 'boolean' },
        'strict-egress': { type: 'boolean' },
        'state-dir': { type: 'string' },
        'compact-every': { type: 'string' },
        'mcp-timeout-ms': { type: 'string' },
        'webhook-timeout-ms': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }).values;
  } catch (e) {
    fail(`${(e as Error).message.split('\n')[0]} (see ${typedCommand('platform-sim', 'npm start --')} --help)`);
  }
  if (args.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const port = integer('port', args.port, 0, 65535)!;
  const seed = integer('seed', args.seed, 0, 4294967295);
  const maxBodyBytes = integer('max-body-bytes', args['max-body-bytes'], 1, 1024 ** 3);
  const maxSnapshotBytes = integer('max-snapshot-bytes', args['max-snapshot-bytes'], 1, 512 * 1024 ** 2);
  const webhookTimeoutMs = integer('webhook-timeout-ms', args['webhook-timeout-ms'], 1, 600_000);
  const mcpTimeoutMs = integer('mcp-timeout-ms', args['mcp-timeout-ms'], 1, 120_000);
  const compactEvery = integer('compact-every', args['compact-every'], 1, 100_000_000);
  if (compactEvery !== undefined && args['state-dir'] === undefined) fail('--compact-every needs --state-dir');
  const sipPort = integer('sip-port', args['sip-port'], 0, 65535);
  const sipDigest = args['sip-digest'] === undefined ? undefined : args['sip-digest'].split(',').map((a) => a.trim().toUpperCase());
  if (sipDigest && (sipDigest.length === 0 || sipDigest.some((a) => a !== 'SHA-256' && a !== 'MD5'))) fail(`--sip-digest lists sha-256 and/or md5 (in the order offered), got ${args['sip-digest']}`);
  let clock;
  try {
    clock = parseClockMode(args.clock);
  } catch (e) {
    fail((e as Error).message);
  }

  let sim;
  try {
    sim = createSimulator({
      fixture: args.fixture ?? (args['state-dir'] === undefined ? DEFAULT_FIXTURE_PATH : undefined),
      seed,
      clock,
      controlToken: args['control-token'],
      maxBodyBytes,
      maxSnapshotBytes,
      webhooks: { strict: args['webhook-strict'], timeoutMs: webhookTimeoutMs },
      strictEgress: args['strict-egress'],
      mcp: { timeoutMs: mcpTimeoutMs },
      stateDir: args['state-dir'],
      compactEvery,
    });
  } catch (e) {
    if (e instanceof FixtureError) fail(`bad fixture: ${e.message}`);
    if (e instanceof StateDirError) fail(e.message);
    fail(`cannot start: ${(e as Error).message}`);
  }

  let server;
  try {
    server = await sim.listen(port, args.host);
  } catch (e) {
    if (e instanceof StateDirError) fail(e.message);
    const err = e as NodeJS.ErrnoException;
    if (err.code === 'EADDRINUSE') fail(`port ${port} on ${args.host} is already in use (try --port 0 for a free one)`);
    if (err.code === 'EADDRNOTAVAIL' || err.code === 'ENOTFOUND') fail(`cannot listen on host ${args.host}`);
    if (err.code === 'EACCES') fail(`no permission to listen on port ${port}`);
    fail(`cannot listen: ${err.message}`);
  }

  let sipListener;
  if (sipPort !== undefined) {
    try {
      sipListener = await sim.listenSip(sipPort, args.host, { digest: sipDigest as ('SHA-256' | 'MD5')[] | undefined });
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      await server.close();
      if (err.code === 'EADDRINUSE') fail(`SIP port ${sipPort} on ${args.host} is already in use (try --sip-port 0 for a free one)`);
      fail(`cannot listen for SIP: ${err.message}`);
    }
  }

  // Handlers go in before the URL is printed: whoever reads the URL may signal at once.
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`\n${signal}: stopping\n`);
    void Promise.all([server.close(), sim.close()]).then(() => process.exit(0));
    setTimeout(() => process.exit(0), 2000).unref();
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));

  const mode = clock.kind === 'manual' ? 'manual (moves only through POST /_sim/clock/advance)' : `realtime x${clock.speed}`;
  const rt = runtimeOf(sim); // the banner reads settings the entry does not expose
  const lines = [
    `Simulator listening on ${server.url}`,
    `  clock:   ${mode}, now ${sim.clock.now()}`,
    `  seed:    ${rt.seed}`,
    ...(args['state-dir'] ? [`  state:   ${args['state-dir']} (kept across restarts)`] : []),
    `  fixture: ${args.fixture ?? 'fixtures/default.yaml'}`,
    `  control: ${server.url}/_sim${args['control-token'] ? ' (needs the control token)' : ''}`,
    `  openapi: ${server.url}/openapi.json`,
    `  inspector: ${server.url}/_sim/ui (open it in a browser)`,
    `  sip:     ${sipListener ? `udp ${sipListener.host}:${sipListener.udp}, tcp ${sipListener.host}:${sipListener.tcp}, rtp ${sipListener.rtp} (registrar and calls; realm <accountId in lowercase>.sip.claw-ops.com)` : 'off (--sip-port N to listen for SIP clients)'}`,
    `  egress:  ${rt.egress.strict ? 'strict (as the real service: https:443 for MCP, no internal addresses)' : 'local servers allowed (webhooks, MCP)'}`,
    `  webhooks: timeout ${rt.webhookEngine.timeoutMs} ms; MCP tests: ${rt.mcpRunner.timeoutMs} ms`,
    '',
    'Accounts (demo API keys):',
    ...sim.fixture.accounts.map((a) => `  ${a.accountId}  ${a.apiKeys[0]}  ${a.plan.padEnd(9)} ${a.name}`),
    '',
    `Webhook signing key (to verify X-Signature; docs/webhooks.md): GET ${server.url}/_sim/accounts/<accountId>/signing-key`,
    '',
    `Try: curl -H "Authorization: Bearer ${sim.fixture.accounts[0]?.apiKeys[0] ?? '<key>'}" ${server.url}/v1/accounts/${sim.fixture.accounts[0]?.accountId ?? '<account>'}/numbers`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  // Tells bin/run-bundle.cjs (npm start) that the simulator serves: the code cache it writes
  // shortly after covers the start and the first answers, not only loading (a --help run).
  (process as NodeJS.EventEmitter).emit('platform-sim:serving');
}

main().catch((e) => fail(`unexpected error: ${(e as Error).message}`));
