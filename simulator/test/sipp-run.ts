// Running SIPp (Debian `sip-tester`, installed by .ci/run) in the SIP tests: one scenario of
// simulator/test/sipp/ for one call as a child process, with its message and error traces; a
// free UDP port for a SIPp that plays a route or a device; the status lines of a run.
import { execFile } from 'node:child_process';
import dgram from 'node:dgram';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encode } from '../peers/speech/mulaw.ts';

export const SIPP = process.env.SIPP_PATH ?? '/usr/bin/sipp';
export const available = existsSync(SIPP);
if (!available) console.warn(`\n*** SIPp is missing (${SIPP}): the SIPp scenarios are SKIPPED. Install Debian's sip-tester (.ci/run does). ***\n`);

const SCENARIOS = join(import.meta.dirname, 'sipp');
export const REALM = 'ac1a2b3c4d.sip.claw-ops.com';
export const PASSWORD = 'correct horse battery';

export interface SippRun {
  code: number;
  /** Every SIP message SIPp sent and received, as its trace wrote them. */
  messages: string;
  errors: string;
}

/** A 440 Hz tone of `seconds`, 8 kHz: its samples, and as SIPp's rtp_stream plays it (raw mu-law bytes: SIPp 3.6 sends a file's every byte). */
export const tone = (seconds: number) => Int16Array.from({ length: seconds * 8000 }, (_, i) => Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / 8000)));

/** Runs one scenario for one call; resolves with SIPp's exit code (0: every step as the scenario says) and its traces. `localPort` 0: any. */
export function sipp(port: number, scenario: string, args: string[], localPort = 0): Promise<SippRun> {
  const dir = mkdtempSync(join(tmpdir(), 'sipp-'));
  writeFileSync(join(dir, 'audio.ulaw'), encode(tone(1)));
  const messages = join(dir, 'messages.log');
  const errors = join(dir, 'errors.log');
  const all = [`127.0.0.1:${port}`, '-sf', join(SCENARIOS, scenario), ...args, '-m', '1', '-i', '127.0.0.1', '-p', String(localPort), ...(args.includes('-mp') ? [] : ['-mp', '0']), '-nostdin', '-timeout', '20', '-trace_msg', '-message_file', messages, '-trace_err', '-error_file', errors];
  return new Promise((resolve) => {
    execFile(SIPP, all, { cwd: dir, timeout: 30_000 }, (error) => {
      const read = (f: string) => (existsSync(f) ? readFileSync(f, 'utf8') : '');
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
      resolve({ code, messages: read(messages), errors: read(errors) });
    });
  });
}

/** A UDP port free now (bound and released), for a SIPp that plays a route. */
export async function freePort(): Promise<number> {
  const s = dgram.createSocket('udp4');
  await new Promise<void>((r) => s.bind(0, '127.0.0.1', () => r()));
  const port = s.address().port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

export const statusLines = (r: SippRun) => [...r.messages.matchAll(/^(SIP\/2\.0 \d{3} [^\r\n]*|[A-Z]+ sip:\S+ SIP\/2\.0)/gm)].map((m) => m[1]!.replace(/ sip:\S+ SIP\/2\.0$/, ''));

