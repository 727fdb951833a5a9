// `platform-sim record --upstream URL --port N --out DIR`: the recording proxy (proxy.ts) from the
// command line. Prints where it listens, a line per exchange, and stops on SIGINT or SIGTERM; a
// bad option gives one line on stderr and exit code 2.
import { parseArgs } from 'node:util';
import { startRecorder } from './proxy.ts';
import { RecordingError } from './format.ts';

export const RECORD_USAGE = `usage: platform-sim record --upstream URL --port N --out DIR [--host 127.0.0.1] [--quiet]

  Sits in front of URL (the real service, or a simulator): point your app at http://HOST:N instead.
  Each request is forwarded unchanged and each exchange written to DIR, API keys, X-Signature,
  MCP secrets, SIP passwords and tokens redacted. Replay it against another implementation with
  platform-conformance replay DIR --target URL.`;

interface Io {
  out: { write(s: string): unknown };
  err: { write(s: string): unknown };
}

/** Runs until a signal; resolves with the exit code. */
export async function recordMain(argv: string[], io: Io, signals: NodeJS.Process = process): Promise<number> {
  let v;
  try {
    v = parseArgs({ args: argv, strict: true, options: { upstream: { type: 'string' }, port: { type: 'string' }, out: { type: 'string' }, host: { type: 'string' }, quiet: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } }).values;
  } catch (e) {
    io.err.write(`record: ${(e as Error).message.split('\n')[0]}\n${RECORD_USAGE}\n`);
    return 2;
  }
  if (v.help) {
    io.out.write(`${RECORD_USAGE}\n`);
    return 0;
  }
  const missing = (['upstream', 'port', 'out'] as const).filter((k) => v[k] === undefined);
  if (missing.length > 0) {
    io.err.write(`record: ${missing.map((m) => `--${m}`).join(', ')} ${missing.length > 1 ? 'are' : 'is'} required\n${RECORD_USAGE}\n`);
    return 2;
  }
  const port = Number(v.port);
  if (!/^\d+$/.test(v.port!) || port > 65535) {
    io.err.write(`record: --port must be an integer from 0 to 65535, got "${v.port}"\n`);
    return 2;
  }
  let recorder;
  try {
    recorder = await startRecorder({ upstream: v.upstream!, port, host: v.host, out: v.out!, log: v.quiet ? undefined : (line) => io.out.write(`${line}\n`) });
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    io.err.write(`record: ${err.code === 'EADDRINUSE' ? `port ${port} is already in use` : err instanceof RecordingError || err instanceof Error ? err.message : String(err)}\n`);
    return 2;
  }
  io.out.write(`Recording on ${recorder.url} -> ${new URL(v.upstream!).origin}, writing ${v.out}\n`);
  return new Promise<number>((resolve) => {
    const stop = (signal: string) => {
      io.out.write(`${signal}: ${recorder.count} exchanges recorded in ${v.out}\n`);
      void recorder.close().then(() => resolve(0));
    };
    signals.once('SIGINT', () => stop('SIGINT'));
    signals.once('SIGTERM', () => stop('SIGTERM'));
  });
}
