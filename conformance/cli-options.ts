// What the conformance CLI accepts: its usage text, its options and how they parse, and the
// error a bad command line raises. What each command does is in cli.ts.
import { parseArgs } from 'node:util';

export interface Io {
  out: { write(s: string): unknown; isTTY?: boolean };
  err: { write(s: string): unknown };
  env: NodeJS.ProcessEnv;
  /** The command the user typed to start the kit, named in usage, hints and replay commands (default `npm run conformance --`). */
  program?: string;
  /** When the command began, as a `performance.now()` reading (the bin passes 0, the process's start); default: when main() is called. */
  startedAt?: number;
}

/** The repository's way to run the kit; an installed package's bin passes `npx platform-conformance`. */
export const REPOSITORY_PROGRAM = 'npm run conformance --';

export const usage = (program = REPOSITORY_PROGRAM) => `usage: ${program} <command> [options]

commands:
  run [SCENARIO_GLOBS...]   run scenarios and properties against a target (default: all, in-process simulator)
  coverage                  which clauses have passing spec assertions (runs the suite, or reads --from)
  merge REPORT.json...      join the JSON reports of a sharded run (--shard) into one: same verdict and coverage
  diff --a T --b T [GLOBS]  the same scenarios against two targets (sim, a URL or a target file each): every status,
                            verdict, field and order difference; spec-level differences fail, the rest are observations
  replay DIR                a recording (platform-sim record) replayed against the target: each exchange's differences
                            of status, error code and body; writes it as a scenario (--out FILE, default DIR/scenario.yaml)
  list [SCENARIO_GLOBS...]  the scenarios with their clauses and requirements
  validate [GLOBS...]       load scenarios and the clause catalogue, report problems with file:line

target:
  --target sim|URL          the in-process simulator (default) or a base URL
  --target-file FILE        YAML: baseUrl, accounts (main, alt), operations mapping; secrets as \${ENV_VAR}
  --account ID --key KEY    the main account; prefer CONFORMANCE_ACCOUNT / CONFORMANCE_KEY (a key given as a flag
                            is echoed by npm and kept in CI logs: the kit warns). Without one, a target whose
                            control plane lists its accounts (a served simulator) gives its first two
  --alt-account ID --alt-key KEY   a second account for isolation checks (or CONFORMANCE_ALT_ACCOUNT / _ALT_KEY)
  --control-token T         bearer token of the target's /_sim control plane (or CONFORMANCE_CONTROL_TOKEN)
  --allow-reset             let scenarios that reset the whole target run (the kit puts its state back after each;
                            needs the target's state capability); on by default for sim

webhooks (scenarios with webhook steps; the kit starts its own receiver for them):
  --webhook-public-url URL  where the target reaches the kit's receiver (a tunnel to it); needed unless the
                            target is the in-process simulator or on this machine (or CONFORMANCE_WEBHOOK_PUBLIC_URL)
  --webhook-listen HOST:PORT  where the receiver listens (default 127.0.0.1:0, any free port)
                            signing keys without a control plane: CONFORMANCE_SIGNING_KEY, CONFORMANCE_ALT_SIGNING_KEY

selection and behaviour:
  --clause ID[,ID]          only units with a matching clause (a trailing * matches a prefix)
  --tag TAG[,TAG]           only units with one of these tags
  --read-only               skip every step that writes (safe against production)
  --seed N                  seed for generated values, properties and the simulator (default 20261121 on sim, random on URLs)
  --bail                    stop after the first failed unit
  --serial                  run every unit in order, one at a time (by default, on sim, scenarios that wait on real
                            time run beside the others, each on its own simulator; the report keeps catalogue order)
  --shard I/N               run only shard I of N (units dealt round-robin, deterministic); join with merge
  --no-properties           scenarios only
  --sim-level fail|observe  whether sim-level mismatches fail (default: fail on sim, observe elsewhere)
  --report junit:PATH,json:PATH,md:PATH   write reports
  --replay-dir DIR          where failed properties write their shrunk scenario (default reports/replay)
  --verbose                 also list skipped steps
  coverage: --from REPORT.json (read a json report instead of running), --uncovered (only what is missing)`;

export const DEFAULT_SIM_SEED = 20261121;

export class UsageError extends Error {}

export function list(v: string | string[] | undefined): string[] {
  if (v === undefined) return [];
  return (Array.isArray(v) ? v : [v]).flatMap((s) => s.split(',')).map((s) => s.trim()).filter(Boolean);
}

export function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      target: { type: 'string' },
      'target-file': { type: 'string' },
      account: { type: 'string' },
      key: { type: 'string' },
      'alt-account': { type: 'string' },
      'alt-key': { type: 'string' },
      'control-token': { type: 'string' },
      'allow-reset': { type: 'boolean' },
      'webhook-public-url': { type: 'string' },
      'webhook-listen': { type: 'string' },
      clause: { type: 'string', multiple: true },
      tag: { type: 'string', multiple: true },
      'read-only': { type: 'boolean' },
      seed: { type: 'string' },
      bail: { type: 'boolean' },
      serial: { type: 'boolean' },
      'no-properties': { type: 'boolean' },
      'sim-level': { type: 'string' },
      report: { type: 'string' },
      'replay-dir': { type: 'string' },
      shard: { type: 'string' },
      a: { type: 'string' },
      b: { type: 'string' },
      verbose: { type: 'boolean' },
      contract: { type: 'string' },
      clauses: { type: 'string' },
      from: { type: 'string' },
      uncovered: { type: 'boolean' },
      out: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

export type Values = ReturnType<typeof parse>['values'];
