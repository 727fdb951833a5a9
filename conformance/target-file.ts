// Target files (format: conformance/schema/target-file.ts, docs/target-file.md): YAML naming the
// base URL, the main and alt accounts, resets, and per-operation path mappings. Secrets come
// from the environment through ${VAR}, so the file can be committed.
import type { PathOverride } from './contract/contract.ts';
import type { Credentials } from './target.ts';
import { TargetFileSchema, type TargetFileData } from './schema/target-file.ts';
import { LoadError, schemaProblems, YamlSource, type SourceProblem } from './yaml-source.ts';


/** A loaded target file: the format's data (conformance/schema/target-file.ts) with defaults filled in. */
export interface TargetFile {
  baseUrl: string;
  /** Empty when the file names none: the kit then asks the target's control plane. */
  accounts: Map<string, Credentials>;
  controlToken?: string;
  headers?: Record<string, string>;
  capabilities: string[];
  simLevel?: 'fail' | 'observe';
  /** Undefined when the file does not say: on for `sim`, off for URLs. */
  allowReset?: boolean;
  resetBetweenScenarios: boolean;
  timeoutMs?: number;
  /** Units beside the others (conformance/unit-lanes.ts); undefined when the file does not say. */
  lanes?: number;
  operations: Record<string, PathOverride>;
  webhooks: {
    publicUrl?: string;
    /** host:port the kit's receiver listens on. */
    listen?: string;
    /** Signing keys by account name, for a target without the webhooks control plane. */
    signingKeys: Record<string, string>;
    graceMs?: number;
  };
}

/** Replaces ${VAR} in every string; a variable that is not set is a problem naming its line. */
function substitute(value: unknown, pointer: string, env: NodeJS.ProcessEnv, source: YamlSource, problems: SourceProblem[]): unknown {
  if (typeof value === 'string') {
    return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => {
      const v = env[name];
      if (v === undefined || v === '') {
        problems.push(source.problem(pointer, `environment variable ${name} is not set`));
        return '';
      }
      return v;
    });
  }
  if (Array.isArray(value)) return value.map((v, i) => substitute(v, `${pointer}/${i}`, env, source, problems));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, `${pointer}/${k}`, env, source, problems)]));
  }
  return value;
}

export function loadTargetFile(path: string, env: NodeJS.ProcessEnv = process.env): TargetFile {
  const source = YamlSource.read(path);
  const problems = schemaProblems(source, TargetFileSchema);
  if (problems.length) throw new LoadError(problems);
  const data = substitute(source.data, '', env, source, problems) as TargetFileData;
  if (problems.length) throw new LoadError(problems);
  const accounts = new Map<string, Credentials>();
  for (const [name, a] of Object.entries(data.accounts ?? {})) if (a) accounts.set(name, { accountId: a.accountId, key: a.key });
  return {
    baseUrl: data.baseUrl,
    accounts,
    controlToken: data.controlToken,
    headers: data.headers,
    capabilities: data.capabilities ?? [],
    simLevel: data.simLevel,
    allowReset: data.allowReset,
    resetBetweenScenarios: Boolean(data.resetBetweenScenarios),
    timeoutMs: data.timeoutMs,
    lanes: data.lanes,
    operations: data.operations ?? {},
    webhooks: { publicUrl: data.webhooks?.publicUrl, listen: data.webhooks?.listen, signingKeys: data.webhooks?.signingKeys ?? {}, graceMs: data.webhooks?.graceMs },
  };
}
