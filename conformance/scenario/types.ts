// The shape of a scenario file once loaded (the YAML format is documented in
// docs/scenario-format.md and published as conformance/scenario.schema.json).

/** `spec`: the interface says so (what certification counts). `sim`: the simulator's choice where the spec is silent. */
import type { AgentAction, AgentExpectation } from '../agent/steps.ts';

export type Level = 'spec' | 'sim';

/** Status: a code, a list of codes, a class ("2xx"), or a matcher object. */
export type StatusExpectation = number | string | Array<number | string> | Record<string, unknown>;

export interface Expectation {
  status?: StatusExpectation;
  /** Header name (any case) to expected value or matcher. */
  headers?: Record<string, unknown>;
  /** Partial deep match of the JSON body, with matchers. */
  body?: unknown;
  /** The body is a WAV file whose facts (format, channels, sampleRate, bitsPerSample, seconds, dataBytes) match, with matchers. */
  wav?: Record<string, unknown>;
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
  /** Values captured from the response (or the webhook): name -> path ("body.id", "status", "fields.CallId"). */
  save?: Record<string, string>;
  /** Saved names whose values are secrets from now on (redacted; the no-secret-echoed check looks for them). */
  secrets?: string[];
  /** JSON pointer of this step in its file, for messages. */
  pointer: string;
  line: number;
}

interface HttpStepBase extends StepBase {
  expect?: Expectation;
  /** Expectations on the simulator's choices (level `sim`). */
  expectSim?: Expectation;
}

/** Sends the same request many times (traffic a rule applies a share of); `as` names the index, from 0. */
export interface RepeatSpec {
  times: number;
  as?: string;
}

export interface RequestStep extends HttpStepBase {
  kind: 'request';
  request: ApiRequestSpec;
  /** Send the request this many times; expectations hold for every one, `save` reads the last. */
  repeat?: RepeatSpec;
}

export interface ControlStep extends HttpStepBase {
  kind: 'control';
  control: ControlSpec;
}

/** How long a webhook step waits: virtual seconds (the kit advances the target's clock) or wall-clock seconds. */
export interface WithinSpec {
  /** Used when the target has `clock`: advance it by this much (unless the webhooks are already there). */
  seconds?: number;
  /** Used when the target has no clock, or no `seconds` is given: wait up to this long. */
  realSeconds?: number;
}

/** Which webhooks a step looks at, among those the kit's receiver got for this scenario. */
export interface WebhookSpec {
  /** The event: the route it was registered under (/events/<name>) or its Event field. */
  event?: string;
  /** The path under the scenario's receiver URL ("/numbers/{{ n }}"): a string or a matcher. */
  path?: unknown;
  /** Partial match of the form fields, with matchers. */
  fields?: Record<string, unknown>;
  /** The receiver's own answer to it: a code, a class ("2xx"), a list, or a matcher. */
  answered?: StatusExpectation;
  within?: WithinSpec;
  /** Whose signing key verifies X-Signature: main (default), alt, or a created account. */
  account?: string;
  /** Bytes of variables collected for a callflow.ended (decides whether VariablesTruncated must be there). */
  variablesBytes?: number | string;
}

/** Expectations on the webhooks a step selected: how many, and what every one of them carries. */
export interface WebhookExpectation {
  /** How many matched, once the wait is over: a number or a matcher; default { $gte: 1 } at level sim. */
  count?: unknown;
  /** Every matched webhook's form fields (partial match). */
  fields?: unknown;
  /** Every matched webhook's headers (names in any case). */
  headers?: Record<string, unknown>;
  /** Every matched webhook's HTTP method. */
  method?: unknown;
}

export interface WebhookStep extends StepBase {
  kind: 'webhook';
  webhook: WebhookSpec;
  expect?: WebhookExpectation;
  expectSim?: WebhookExpectation;
}

/** Scripts the kit's receiver for this scenario: the next `times` requests (under `path`) get `status`. */
export interface ReceiverSpec {
  status: number;
  times?: number;
  path?: string;
  body?: string;
}

export interface ReceiverStep extends StepBase {
  kind: 'receiver';
  receiver: ReceiverSpec;
}

/** Acts as the customer's own agent over the Agent SDK protocol (conformance/agent/steps.ts). */
export interface AgentStep extends StepBase {
  kind: 'agent';
  agent: AgentAction;
  /** Level sim: the spec does not show this protocol. */
  expect?: AgentExpectation;
}

export type Step = RequestStep | ControlStep | WebhookStep | ReceiverStep | AgentStep;

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
  /** Each step stands alone: a skipped step does not skip the ones after it. */
  independent?: boolean;
  steps: Step[];
  /** Steps that undo what the scenario created; they run after the steps, whatever happened. */
  teardown: Step[];
}
