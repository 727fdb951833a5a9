// The shape of a scenario file once loaded (the YAML format is documented in
// docs/scenario-format.md and published as conformance/scenario.schema.json).

/** `spec`: the interface says so (what certification counts). `sim`: the simulator's choice where the spec is silent. */
export type Level = 'spec' | 'sim';

/** Status: a code, a list of codes, a class ("2xx"), or a matcher object. */
export type StatusExpectation = number | string | Array<number | string> | Record<string, unknown>;

export interface Expectation {
  status?: StatusExpectation;
  /** Header name (any case) to expected value or matcher. */
  headers?: Record<string, unknown>;
  /** Partial deep match of the JSON body, with matchers. */
  body?: unknown;
}

export interface ApiRequestSpec {
  /** By operation: path, method and account resolved from the contract. */
  operationId?: string;
  /** Or raw: method and path (with query), interpolated. */
  method?: string;
  path?: string;
  /** Path parameters; `accountId` defaults to the account of `account`, else of `as`. */
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
  /** Exact body text, sent as is (for malformed input). */
  rawBody?: string;
  headers?: Record<string, string>;
  /** Whose key is sent: main (default), alt, a name given to a created account, none, or invalid. */
  as?: string;
  /** Whose accountId fills the path; defaults to `as`. */
  account?: string;
}

export interface ControlSpec {
  advance?: { seconds?: number; to?: string };
  /** Body of POST /_sim/accounts; the new account's credentials are stored under `as`. */
  createAccount?: Record<string, unknown>;
  reset?: { seed?: number };
  /** Marks an address or IPv4 range foreign for the overseas refusal. */
  foreign?: string;
  /** Any control-plane request; `path` is relative to /_sim. */
  method?: string;
  path?: string;
  body?: unknown;
  as?: string;
}

interface StepBase {
  name?: string;
  /** Clauses this step's assertions count for; defaults to the scenario's. */
  clauses?: string[];
  requires?: string[];
  expect?: Expectation;
  /** Expectations on the simulator's choices (level `sim`). */
  expectSim?: Expectation;
  /** Values captured from the response: name -> path ("body.id", "status", "headers.location"). */
  save?: Record<string, string>;
  /** Saved names whose values are secrets from now on (redacted; the no-secret-echoed check looks for them). */
  secrets?: string[];
  /** JSON pointer of this step in its file, for messages. */
  pointer: string;
  line: number;
}

export interface RequestStep extends StepBase {
  kind: 'request';
  request: ApiRequestSpec;
}

export interface ControlStep extends StepBase {
  kind: 'control';
  control: ControlSpec;
}

export type Step = RequestStep | ControlStep;

export interface Scenario {
  /** Path of the file relative to the scenarios root, without `.yaml` (e.g. "blocklists/release"). */
  id: string;
  file: string;
  description: string;
  clauses: string[];
  tags: string[];
  requires: string[];
  /** Values computed once per run, before the first step (may use generators such as fresh.mobile). */
  vars: Record<string, unknown>;
  steps: Step[];
}
