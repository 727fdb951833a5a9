// The conformance CLI as a library (bin/conformance.ts is a thin shell over it, and the tests
// call it directly): run, coverage, merge, diff, replay, list, validate; the options it accepts
// are in cli-options.ts. The contract it reads is written on the simulator's side
// (`npm run contract`, bin/contract.ts).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CLAUSES_PATH, loadClauses, type ClauseCatalogue } from './clauses.ts';
import { CONTRACT_PATH, Contract, type PathOverride } from './contract/contract.ts';
import { allProperties } from './properties/index.ts';
import { consoleProgress, summaryText } from './report/console.ts';
import { computeCoverage, formatCoverage } from './report/coverage.ts';
import { parseReportSpecs, writeReports } from './report/files.ts';
import { MergeError, mergeReports } from './report/merge.ts';
import { diffRuns } from './report/diff.ts';
import type { RunReport } from './result.ts';
import { DEFAULT_LANES, runConformance, type WebhookOptions } from './run.ts';
import { loadScenarios, scenarioFiles } from './scenario/load.ts';
import { loadTargetFile, type TargetFile } from './target-file.ts';
import { remoteTarget, simTarget, type Credentials, type Target } from './target.ts';
import { accountsFromControlPlane } from './control-accounts.ts';
import { LoadError } from './yaml-source.ts';
import { replayCommand } from './replay/command.ts';
import { RecordingError } from './recording/format.ts';
import { DEFAULT_SIM_SEED, list, parse, REPOSITORY_PROGRAM, usage, UsageError, type Io, type Values } from './cli-options.ts';

export type { Io } from './cli-options.ts';


interface Built {
  target: Target;
  overrides: Record<string, PathOverride>;
  extraCapabilities: string[];
  simLevel?: 'fail' | 'observe';
  isSim: boolean;
  webhooks?: TargetFile['webhooks'];
  /** Whether scenarios that reset the whole target may run. */
  allowReset: boolean;
  /** Units beside the others (undefined: the run's default for the target). */
  lanes?: number;
}

/** "127.0.0.1:8080", "[::1]:8080", "0.0.0.0:0". */
function parseListen(text: string, what: string): { host: string; port: number } {
  const m = /^(\[[0-9a-fA-F:.]+\]|[^:\s]+):(\d{1,5})$/.exec(text);
  if (!m || Number(m[2]) > 65535) throw new UsageError(`${what} is HOST:PORT (e.g. 127.0.0.1:8787), got "${text}"`);
  return { host: m[1]!.replace(/^\[|\]$/g, ''), port: Number(m[2]) };
}

function webhookOptions(v: Values, env: NodeJS.ProcessEnv, file: TargetFile['webhooks'] | undefined): WebhookOptions {
  const publicUrl = v['webhook-public-url'] ?? env.CONFORMANCE_WEBHOOK_PUBLIC_URL ?? file?.publicUrl;
  if (publicUrl !== undefined && !/^https?:\/\/[^/]/.test(publicUrl)) throw new UsageError(`--webhook-public-url must be an http(s) URL, got "${publicUrl}"`);
  const listenText = v['webhook-listen'] ?? file?.listen;
  const signingKeys = new Map(Object.entries(file?.signingKeys ?? {}));
  if (env.CONFORMANCE_SIGNING_KEY) signingKeys.set('main', env.CONFORMANCE_SIGNING_KEY);
  if (env.CONFORMANCE_ALT_SIGNING_KEY) signingKeys.set('alt', env.CONFORMANCE_ALT_SIGNING_KEY);
  return {
    publicUrl,
    listen: listenText === undefined ? undefined : parseListen(listenText, '--webhook-listen'),
    signingKeys,
    graceMs: file?.graceMs,
  };
}

function credentials(id: string | undefined, key: string | undefined, what: string): Credentials | undefined {
  if (!id && !key) return undefined;
  if (!id || !key) throw new UsageError(`${what} needs both an account id and a key`);
  return { accountId: id, key };
}

/** A URL target's accounts when none were given: the ones its control plane lists (a served simulator). */
async function withListedAccounts(target: Target, io: Io): Promise<void> {
  if (target.accounts.has('main')) return;
  const found = await accountsFromControlPlane(target);
  if ('why' in found) {
    await target.close();
    throw new UsageError(`a URL target needs the main account: set CONFORMANCE_ACCOUNT and CONFORMANCE_KEY (or --account/--key, or accounts in a --target-file); ${target.label}: ${found.why}`);
  }
  for (const [name, creds] of found.accounts) target.accounts.set(name, creds);
  io.err.write(`conformance: accounts from ${target.label}/_sim/accounts: ${[...found.accounts].map(([name, c]) => `${name} ${c.accountId}`).join(', ')}\n`);
}

async function buildTarget(v: Values, io: Io, seed: number): Promise<Built> {
  const env = io.env;
  const allowFlag = v['allow-reset'] ? true : undefined;
  if (v['target-file']) {
    const f = loadTargetFile(v['target-file'], env);
    const common = { overrides: f.operations, extraCapabilities: f.capabilities, simLevel: f.simLevel, webhooks: f.webhooks };
    if (f.baseUrl === 'sim') return { ...common, target: simTarget({ seed }), isSim: true, allowReset: allowFlag ?? f.allowReset ?? true, lanes: f.lanes };
    const lanes = f.resetBetweenScenarios ? 0 : (f.lanes ?? 0);
    const target = remoteTarget({ baseUrl: f.baseUrl, accounts: f.accounts, controlToken: f.controlToken, headers: f.headers, timeoutMs: f.timeoutMs, resetBetweenScenarios: f.resetBetweenScenarios, lanes: lanes > 0 });
    await withListedAccounts(target, io);
    return { ...common, target, isSim: false, allowReset: allowFlag ?? f.allowReset ?? false, lanes };
  }
  const where = v.target ?? 'sim';
  if (where === 'sim') return { target: simTarget({ seed }), overrides: {}, extraCapabilities: [], isSim: true, allowReset: true };
  if (!/^https?:\/\//.test(where)) throw new UsageError(`--target must be "sim" or an http(s) URL, got "${where}"`);
  const accounts = new Map<string, Credentials>();
  const main = credentials(v.account ?? env.CONFORMANCE_ACCOUNT, v.key ?? env.CONFORMANCE_KEY, 'the main account (--account/--key)');
  if (main) accounts.set('main', main);
  const alt = credentials(v['alt-account'] ?? env.CONFORMANCE_ALT_ACCOUNT, v['alt-key'] ?? env.CONFORMANCE_ALT_KEY, 'the second account (--alt-account/--alt-key)');
  if (alt && !main) throw new UsageError('a second account (--alt-account/--alt-key) needs the main one too (--account/--key, or CONFORMANCE_ACCOUNT and CONFORMANCE_KEY)');
  if (alt) accounts.set('alt', alt);
  const target = remoteTarget({ baseUrl: where, accounts, controlToken: v['control-token'] ?? env.CONFORMANCE_CONTROL_TOKEN });
  await withListedAccounts(target, io);
  return { target, overrides: {}, extraCapabilities: [], isSim: false, allowReset: allowFlag ?? false };
}

function seedOf(v: Values, isSimTarget: boolean): number {
  if (v.seed !== undefined) {
    if (!/^\d+$/.test(v.seed) || Number(v.seed) > 0xffffffff) throw new UsageError(`--seed must be an integer from 0 to 4294967295, got "${v.seed}"`);
    return Number(v.seed);
  }
  // A real target keeps what earlier runs created, so a fixed seed would reuse the same "fresh" numbers.
  return isSimTarget ? DEFAULT_SIM_SEED : Math.floor(Math.random() * 0xffffffff);
}

/** Secrets given as flags end up in npm's echo of the command line and in CI logs. */
const SECRET_FLAGS: [keyof Values, string][] = [
  ['key', 'CONFORMANCE_KEY'],
  ['alt-key', 'CONFORMANCE_ALT_KEY'],
  ['control-token', 'CONFORMANCE_CONTROL_TOKEN'],
];

function warnSecretFlags(v: Values, io: Io): void {
  for (const [flag, env] of SECRET_FLAGS) {
    if (v[flag] !== undefined) io.err.write(`conformance: warning: --${flag} puts a secret on the command line, where npm echoes it and CI logs keep it; set ${env} instead\n`);
  }
}

/** The options that point a replay at the same target (never a secret: keys come from the same variables or target file). */
function replayArgs(v: Values): string {
  const args: string[] = [];
  if (v['target-file']) args.push(`--target-file ${v['target-file']}`);
  else if (v.target && v.target !== 'sim') {
    args.push(`--target ${v.target}`);
    if (v.account) args.push(`--account ${v.account}`);
    if (v['alt-account']) args.push(`--alt-account ${v['alt-account']}`);
  }
  if (v['sim-level']) args.push(`--sim-level ${v['sim-level']}`);
  if (v['read-only']) args.push('--read-only');
  return args.join(' ');
}

function shardOf(text: string | undefined): { index: number; count: number } | undefined {
  if (text === undefined) return undefined;
  const m = /^(\d+)\/(\d+)$/.exec(text);
  if (!m || Number(m[2]) < 1 || Number(m[1]) < 1 || Number(m[1]) > Number(m[2])) throw new UsageError(`--shard is I/N with 1 <= I <= N (e.g. 2/4), got "${text}"`);
  return { index: Number(m[1]), count: Number(m[2]) };
}

function catalogue(v: Values): ClauseCatalogue {
  return loadClauses(v.clauses ?? CLAUSES_PATH, path.relative(process.cwd(), v.clauses ?? CLAUSES_PATH));
}

async function run(v: Values, positionals: string[], io: Io): Promise<{ code: number; report: RunReport }> {
  const startedAt = io.startedAt ?? performance.now();
  const isSimTarget = !v['target-file'] && (v.target ?? 'sim') === 'sim';
  warnSecretFlags(v, io);
  const seed = seedOf(v, isSimTarget);
  const built = await buildTarget(v, io, seed);
  try {
    const contract = Contract.load(v.contract ?? CONTRACT_PATH, built.overrides);
    const clauses = catalogue(v);
    const scenarios = loadScenarios(scenarioFiles(positionals), { contract, clauses });
    const simLevel = (v['sim-level'] as 'fail' | 'observe' | undefined) ?? built.simLevel ?? (built.isSim ? 'fail' : 'observe');
    if (!['fail', 'observe'].includes(simLevel)) throw new UsageError('--sim-level is fail or observe');
    const reports = parseReportSpecs(v.report ?? '');
    const webhooks = webhookOptions(v, io.env, built.webhooks);
    const report = await runConformance({
      target: built.target,
      contract,
      clauses,
      scenarios,
      properties: v['no-properties'] || positionals.length > 0 ? [] : allProperties(contract),
      seed,
      readOnly: v['read-only'],
      simLevel,
      bail: v.bail,
      clauseFilter: list(v.clause),
      tagFilter: list(v.tag),
      extraCapabilities: built.extraCapabilities,
      allowReset: built.allowReset,
      lanes: v.serial ? 0 : (built.lanes ?? (built.isSim ? DEFAULT_LANES : 0)),
      replayDir: v['replay-dir'],
      replayArgs: replayArgs(v),
      program: io.program,
      shard: shardOf(v.shard),
      webhooks,
      progress: consoleProgress(io.out, { verbose: v.verbose }),
      startedAt,
    });
    io.out.write(summaryText(report, io.out));
    writeReports(reports, report, clauses);
    for (const r of reports) io.out.write(`report: ${r.format} ${r.path}\n`);
    return { code: report.summary.exitCode, report };
  } finally {
    await built.target.close();
  }
}

/** `diff --a T --b T`: both targets run the same scenarios with the same seed; the differences are the report. */
async function diff(v: Values, positionals: string[], io: Io): Promise<number> {
  if (!v.a || !v.b) throw new UsageError('diff needs --a TARGET and --b TARGET (each "sim", an http(s) URL, or a target file)');
  warnSecretFlags(v, io);
  const spec = (t: string): Values => ({ ...v, target: /\.ya?ml$/.test(t) ? undefined : t, 'target-file': /\.ya?ml$/.test(t) ? t : undefined });
  const bothSim = v.a === 'sim' && v.b === 'sim';
  const seed = seedOf(v, bothSim);
  const runOne = async (t: string) => {
    const built = await buildTarget(spec(t), io, seed);
    try {
      const contract = Contract.load(v.contract ?? CONTRACT_PATH, built.overrides);
      const clauses = catalogue(v);
      const scenarios = loadScenarios(scenarioFiles(positionals), { contract, clauses });
      return await runConformance({ target: built.target, contract, clauses, scenarios, properties: [], seed, simLevel: 'fail', readOnly: v['read-only'], clauseFilter: list(v.clause), tagFilter: list(v.tag), extraCapabilities: built.extraCapabilities, allowReset: built.allowReset, webhooks: webhookOptions(v, io.env, built.webhooks), recordResponses: true });
    } finally {
      await built.target.close();
    }
  };
  const reports = parseReportSpecs(v.report ?? '');
  io.out.write(`Differential run, seed ${seed}: A ${v.a}, B ${v.b}\n`);
  const result = diffRuns(await runOne(v.a), await runOne(v.b));
  const progress = consoleProgress(io.out, { verbose: v.verbose });
  for (const u of result.units) if (u.steps.length) progress.unit?.(u);
  io.out.write(summaryText(result, io.out));
  writeReports(reports, result, catalogue(v));
  for (const r of reports) io.out.write(`report: ${r.format} ${r.path}\n`);
  return result.summary.exitCode;
}

/** `replay DIR`: the recording against the target (conformance/replay/command.ts). */
async function replay(v: Values, positionals: string[], io: Io): Promise<number> {
  if (positionals.length !== 1) throw new UsageError('replay needs the recording\'s directory: replay DIR --target URL');
  warnSecretFlags(v, io);
  const built = await buildTarget(v, io, seedOf(v, (v.target ?? 'sim') === 'sim'));
  try {
    return (await replayCommand({ dir: positionals[0]!, target: built.target, out: v.out, report: v.report }, io)).code;
  } catch (e) {
    if (e instanceof RecordingError) throw new UsageError(e.message);
    throw e;
  } finally {
    await built.target.close();
  }
}

/** Runs the CLI; returns the exit code (0 conformant, 1 failures, 2 usage or loading errors). */
export async function main(argv: string[], io: Io): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === '--help' || command === '-h' || command === 'help') {
    io.out.write(`${usage(io.program)}\n`);
    return command ? 0 : 2;
  }
  try {
    const { values: v, positionals } = parse(rest);
    if (v.help) {
      io.out.write(`${usage(io.program)}\n`);
      return 0;
    }
    switch (command) {
      case 'run':
        return (await run(v, positionals, io)).code;
      case 'coverage': {
        const clauses = catalogue(v);
        let units: RunReport['units'];
        if (v.from) {
          units = (JSON.parse(readFileSync(v.from, 'utf8')) as RunReport).units;
        } else {
          const quiet = { ...io, out: { write: () => true } };
          units = (await run(v, positionals, quiet)).report.units;
        }
        io.out.write(`${formatCoverage(computeCoverage(units, clauses), { onlyUncovered: v.uncovered })}\n`);
        return 0;
      }
      case 'merge': {
        const merged = mergeReports(positionals.map((file) => ({ file, report: JSON.parse(readFileSync(file, 'utf8')) as RunReport })));
        io.out.write(summaryText(merged, io.out));
        const reports = parseReportSpecs(v.report ?? '');
        writeReports(reports, merged, catalogue(v));
        for (const r of reports) io.out.write(`report: ${r.format} ${r.path}\n`);
        return merged.summary.exitCode;
      }
      case 'diff':
        return await diff(v, positionals, io);
      case 'replay':
        return await replay(v, positionals, io);
      case 'list':
      case 'validate': {
        const contract = Contract.load(v.contract ?? CONTRACT_PATH);
        const scenarios = loadScenarios(scenarioFiles(positionals), { contract, clauses: catalogue(v) });
        if (command === 'list') {
          for (const s of scenarios) io.out.write(`${s.id}\n  ${s.description}\n  clauses: ${s.clauses.join(', ')}${s.requires.length ? `\n  requires: ${s.requires.join(', ')}` : ''}\n`);
        }
        io.out.write(`${scenarios.length} scenario(s) load without problems\n`);
        return 0;
      }
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } catch (e) {
    if (e instanceof LoadError) {
      io.err.write(`${e.message}\n`);
      return 2;
    }
    if (e instanceof MergeError) {
      io.err.write(`conformance merge: ${e.message}\n`);
      return 2;
    }
    if (e instanceof UsageError || (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      io.err.write(`conformance: ${(e as Error).message.split('\n')[0]}\n(see ${io.program ?? REPOSITORY_PROGRAM} --help)\n`);
      return 2;
    }
    if (e instanceof Error && /^(--report|--target)/.test(e.message)) {
      io.err.write(`conformance: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
}
