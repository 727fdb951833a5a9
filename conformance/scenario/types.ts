// The shape of a scenario once loaded. The format itself is described once, in
// conformance/schema/scenario.ts (published as conformance/scenario.schema.json, with its key
// tables in docs/scenario-format.md): the parts of a step are that schema's types; loading adds
// the step's kind and where it is in its file.
import type { Static } from '@sinclair/typebox';
import type {
  AgentStepSchema,
  ApiRequest,
  Control,
  ControlStepSchema,
  Expectation as ExpectationSchema,
  Receiver,
  ReceiverStepSchema,
  Repeat,
  RequestStepSchema,
  ScenarioSchema,
  Webhook,
  WebhookExpectation as WebhookExpectationSchema,
  WebhookStepSchema,
  Within,
} from '../schema/scenario.ts';

/** `spec`: the interface says so (what certification counts). `sim`: the simulator's choice where the spec is silent. */
export type Level = 'spec' | 'sim';

export type Expectation = Static<typeof ExpectationSchema>;
/** Status: a code, a list of codes, a class ("2xx"), or a matcher object. */
export type StatusExpectation = NonNullable<Expectation['status']>;
export type ApiRequestSpec = Static<typeof ApiRequest>;
export type ControlSpec = Static<typeof Control>;
export type RepeatSpec = Static<typeof Repeat>;
export type WithinSpec = Static<typeof Within>;
export type WebhookSpec = Static<typeof Webhook>;
export type WebhookExpectation = Static<typeof WebhookExpectationSchema>;
export type ReceiverSpec = Static<typeof Receiver>;

/** What loading adds to a step as written: its kind, and where it is in its file (for messages). */
interface Located<K extends string> {
  kind: K;
  /** JSON pointer of this step in its file. */
  pointer: string;
  line: number;
}

export type RequestStep = Static<typeof RequestStepSchema> & Located<'request'>;
export type ControlStep = Static<typeof ControlStepSchema> & Located<'control'>;
export type WebhookStep = Static<typeof WebhookStepSchema> & Located<'webhook'>;
export type ReceiverStep = Static<typeof ReceiverStepSchema> & Located<'receiver'>;
/** Acts as the customer's own agent over the Agent SDK protocol (conformance/agent/steps.ts); its expectations are level sim. */
export type AgentStep = Static<typeof AgentStepSchema> & Located<'agent'>;
export type Step = RequestStep | ControlStep | WebhookStep | ReceiverStep | AgentStep;

type ScenarioFile = Static<typeof ScenarioSchema>;

export interface Scenario extends Pick<ScenarioFile, 'description' | 'clauses'> {
  /** Path of the file relative to the scenarios root, without `.yaml` (e.g. "blocklists/release"). */
  id: string;
  file: string;
  tags: string[];
  /** Declared capabilities plus those the steps imply (`receiver`, `reset`). */
  requires: string[];
  vars: Record<string, unknown>;
  independent?: boolean;
  steps: Step[];
  teardown: Step[];
  /** Steps run instead of `steps` when the target may not be written to; each only reads. */
  readOnly?: Step[];
}
