// The scenario format (scenarios/<area>/<behaviour>.yaml), described once: the loader validates
// files with it, conformance/scenario/types.ts takes its types from it, and
// conformance/scenario.schema.json and the key tables of docs/scenario-format.md are generated
// from it (`npm run schemas -- --write`). Descriptions are Markdown: they are the docs' text.
import { Type, type Static } from '@sinclair/typebox';
import { AnyObject, Enum, Opt, StringMap, Strict, Tagged } from './build.ts';
import { AgentAction, AgentExpectation } from './agent-step.ts';

const NAME = '^[A-Za-z_][A-Za-z0-9_]*$';
const STATUS_CLASS = '^[1-5]xx$';

export const ClauseId = Type.String({ pattern: '^[a-z0-9]+(-[a-z0-9]+)*(\\.[a-z0-9]+(-[a-z0-9]+)*)+$' });
const ClauseIds = (description: string) => Type.Array(ClauseId, { minItems: 1, description });
const Capabilities = (description: string) => Type.Array(Type.String({ pattern: '^[a-z][a-z0-9-]*$' }), { description });

/** A code, a class, a list of them, or a matcher: how statuses are expected. */
const StatusSpec = (description: string) =>
  Type.Union(
    [
      Type.Integer({ minimum: 100, maximum: 599 }),
      Type.String({ pattern: STATUS_CLASS }),
      Type.Array(Type.Union([Type.Integer(), Type.String({ pattern: STATUS_CLASS })]), { minItems: 1 }),
      AnyObject(),
    ],
    { description },
  );

const expectationKeys = {
  status: Opt(StatusSpec('A code (`201`), a class (`"2xx"`), a list of codes or classes (`[200, 201]`), or a matcher (`{ $gte: 400, $lt: 500 }`).')),
  headers: Opt(AnyObject({ description: 'Header name (any case): value or matcher (`content-type: { $regex: "^application/json" }`).' })),
  body: Opt(Type.Unknown({ description: 'Partial deep match of the JSON body, with matchers (`$type`, `$regex`, `$oneOf`, `$absent`, `$length`, `$gt`...; see "Matchers").' })),
  wav: Opt(
    AnyObject({
      description:
        'The body is a WAV (RIFF) file, read by the kit itself, whose facts match (partially, with matchers): `format` (1 is PCM), `channels`, `sampleRate`, `bitsPerSample`, `seconds` and `dataBytes`. A redirect is followed once.',
    }),
  ),
};
export const Expectation = Strict(expectationKeys);

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;

export const ApiRequest = Type.Object(
  {
    operationId: Opt(Type.String({ minLength: 1, description: 'The operation by its id in the contract: method, path and account come from it.' })),
    method: Opt(Enum(METHODS, { description: 'Raw requests (paths outside the contract): the method, with `path`.' })),
    path: Opt(
      Type.String({
        pattern: '^(/|\\{\\{[^}]*\\}\\}$)',
        description: 'Raw requests: a path on the target, or one expression that gives it (a download link a response or webhook carried: `"{{ vars | field(memo) | urlPath }}"`). It is matched against the contract like any other.',
      }),
    ),
    params: Opt(AnyObject({ description: 'Path parameters; `accountId` defaults to the account of `account`.' })),
    query: Opt(AnyObject({ description: 'Query parameters; a list value repeats the parameter.' })),
    body: Opt(Type.Unknown({ description: 'The JSON body.' })),
    rawBody: Opt(Type.String({ description: 'Exact body text, sent as is (malformed input); a JSON content type is sent unless `headers` say otherwise.' })),
    headers: Opt(StringMap({ description: 'Request headers (`X-Forwarded-For: 203.0.113.9`).' })),
    as: Opt(Type.String({ minLength: 1, description: 'Whose key is sent: `main` (default), `alt`, a name given by `createAccount`, `none` (no header), `invalid` (an unknown key).' })),
    account: Opt(Type.String({ minLength: 1, description: 'Whose accountId fills the path; defaults to `as` (`main` for `none` and `invalid`).' })),
  },
  {
    additionalProperties: false,
    oneOf: [
      { required: ['operationId'], not: { anyOf: [{ required: ['method'] }, { required: ['path'] }] } },
      { required: ['method', 'path'], not: { anyOf: [{ required: ['operationId'] }, { required: ['params'] }] } },
    ],
  },
);

export const Control = Type.Object(
  {
    advance: Opt(
      Strict(
        { seconds: Opt(Type.Number({ minimum: 0 })), to: Opt(Type.String()) },
        { description: 'Moves the virtual clock by `seconds` or to the instant `to` (capability `clock`).' },
      ),
    ),
    createAccount: Opt(AnyObject({ description: 'The body of `POST /_sim/accounts` (capability `accounts`); the new account is kept under `as`: `{{ shop.accountId }}`, `{{ shop.key }}`, `{{ shop.numbers[0] }}`.' })),
    reset: Opt(
      Strict(
        { seed: Opt(Type.Integer({ minimum: 0 })) },
        {
          description:
            'Resets the whole target to its fixture (capability `state`). A scenario with a reset runs only where the target allows resets (`allowReset`, on for the in-process simulator), and the kit puts the target\'s state back after it; elsewhere it is skipped with that reason.',
        },
      ),
    ),
    foreign: Opt(Type.String({ minLength: 1, description: 'Marks an address or IPv4 range foreign for the overseas refusal (capability `geoip`).' })),
    method: Opt(Enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const, { description: 'Any control-plane request: its method, with `path` (capability `control`).' })),
    path: Opt(Type.String({ pattern: '^/', description: 'The path, relative to `/_sim`.' })),
    body: Opt(Type.Unknown({ description: 'The JSON body of a `method`/`path` request.' })),
    as: Opt(Type.String({ pattern: NAME, description: 'The name under which `createAccount` keeps the new account\'s credentials.' })),
  },
  { additionalProperties: false, oneOf: [{ required: ['advance'] }, { required: ['createAccount'] }, { required: ['reset'] }, { required: ['foreign'] }, { required: ['method', 'path'] }] },
);

export const Within = Strict(
  {
    seconds: Opt(Type.Number({ minimum: 0, description: 'Virtual time: the kit advances the target\'s clock by this much (unless the webhooks are already there).' })),
    realSeconds: Opt(Type.Number({ minimum: 0, maximum: 600, description: 'Wall-clock time, used when the target has no clock or no `seconds` is given.' })),
  },
  {
    minProperties: 1,
    description:
      'The bound. `seconds`: virtual time; when the target has `clock` the kit advances the clock by that much (unless the webhooks are already there). `realSeconds`: wall-clock time, used when the target has no clock or no `seconds` is given. Default `{ seconds: 0 }`: what has arrived once deliveries under way settle. A bound in `seconds` only is skipped on a target without a clock.',
  },
);

export const Webhook = Strict(
  {
    event: Opt(Type.String({ minLength: 1, description: 'The event: the `/events/<name>` route it was sent to, or its `Event` field.' })),
    path: Opt(Type.Union([Type.String({ pattern: '^/|^\\{\\{' }), AnyObject()], { description: 'The path under `{{ receiver.url }}` (`"/numbers/{{ n }}"`), a string or a matcher.' })),
    fields: Opt(AnyObject({ description: 'Partial match of the form fields (values are text: `Status: completed`, `NumMedia: "0"`), with matchers.' })),
    answered: Opt(StatusSpec('The receiver\'s answer to it: `2xx`, `503`, a list, or a matcher.')),
    within: Opt(Within),
    account: Opt(Type.String({ minLength: 1, description: 'Whose signing key verifies `X-Signature`: `main` (default), `alt`, or a created account.' })),
    variablesBytes: Opt(
      Type.Union([Type.Integer({ minimum: 0 }), Type.String()], {
        description: 'For `callflow.ended`: how many bytes of variables the call collected. Past 8192 the event must carry `VariablesTruncated`, below it must not.',
      }),
    ),
  },
  { description: 'Waits for webhooks the kit\'s receiver got at this scenario\'s URL (`{{ receiver.url }}`), selected by event, path, fields and the receiver\'s answer, within a bound; then checks them.' },
);

const webhookExpectationKeys = {
  count: Opt(Type.Unknown({ description: 'How many webhooks matched once the wait is over: a number or a matcher (`{ $gte: 2 }`). Without one, at least one must arrive, at level sim.' })),
  fields: Opt(Type.Unknown({ description: 'Every matched webhook\'s form fields match (partial, with matchers).' })),
  headers: Opt(AnyObject({ description: 'Every matched webhook\'s headers (names in any case).' })),
  method: Opt(Type.Unknown({ description: 'Every matched webhook\'s HTTP method.' })),
};
export const WebhookExpectation = Strict(webhookExpectationKeys);

export const Receiver = Strict(
  {
    status: Type.Integer({ minimum: 200, maximum: 599, description: 'The status the receiver answers.' }),
    times: Opt(Type.Integer({ minimum: 1, description: 'How many requests get it; without it, every request until another `receiver` step says otherwise.' })),
    path: Opt(Type.String({ pattern: '^/|^\\{\\{', description: 'Only requests under this path of the scenario\'s URL.' })),
    body: Opt(Type.String({ description: 'The answer\'s body text.' })),
  },
  { description: 'Scripts the kit\'s receiver for this scenario: the next `times` requests (under `path` when given) are answered `status`; then 204 again.' },
);

export const Repeat = Strict(
  {
    times: Type.Integer({ minimum: 1, maximum: 20000, description: 'How many times the request is sent (at most 20,000).' }),
    as: Opt(Type.String({ pattern: NAME, description: 'The name of the round (0, 1, ...) for interpolation: `{{ i }}`.' })),
  },
  {
    description:
      'Send the request many times, for rules that apply to a share of the traffic: every response must meet the expectations; the first that does not stands for the step (its name says the round), though every round is still sent, and `save` reads the last response.',
  },
);

/** Keys every kind of step takes. */
const stepCommon = {
  name: Opt(Type.String({ description: 'Shown in progress and reports; defaults to the operation or path.' })),
  clauses: Opt(ClauseIds('The clauses *this step\'s* assertions count for; default: the scenario\'s. Name only what the step\'s expectations really test (see "Clause attribution").')),
  requires: Opt(Capabilities('Extra capabilities for this step.')),
  save: Opt(
    Type.Unsafe<Record<string, string>>({
      type: 'object',
      propertyNames: { pattern: NAME },
      additionalProperties: { type: 'string', pattern: '^(status|body|headers|fields|method|path|count)([.\\[].*)?$' },
      description:
        '`name: path` pairs read from the response: `status`, `body.data[0].id`, `headers.location` (quote a path with `[` inside `{ }`: `save: { id: "body.data[0].id" }`); for a webhook step, from the first matched webhook: `fields`, `fields.CallId`, `headers.x-signature`, `body`, `path`, `method`, `count`. A path that is missing leaves the name unavailable, and a later step that uses it is skipped with the reason.',
    }),
  ),
  found: Opt(
    Type.String({
      pattern: '^body([.\\[].*)?$',
      description:
        'For steps that read data found on the target (`readOnly`): the path of the answer that must hold something (`body.data`). When a 2xx answer has nothing there (missing, null or an empty list), the step and the steps after it are skipped as "no data on the target" rather than judged: an `$each` over nothing asserts nothing.',
    }),
  ),
  secrets: Opt(
    Type.Array(Type.String({ pattern: NAME }), {
      description:
        'Names this step saves whose values are secrets from now on (a one-time code read from the fake phone): redacted in every output, and the no-secret-echoed check fails any API response that contains them. Keys and values of request fields named like secrets (`password`, `secret`, `apiKey`, `token`) are secrets without saying so.',
    }),
  ),
};

const SPEC_LEVEL = 'Expectations at level **spec**: only what the interface specification says.';
const SIM_LEVEL = 'Expectations at level **sim**: the simulator\'s choices where the spec is silent (error `code` values, 201 vs 200, ordering tie-breaks, statuses the spec leaves "not shown").';
const expectSpec = <K extends typeof expectationKeys | typeof webhookExpectationKeys>(keys: K) => ({
  expect: Opt(Strict(keys, { description: SPEC_LEVEL })),
  expectSim: Opt(Strict(keys, { description: SIM_LEVEL })),
});

export const RequestStepSchema = Strict({ request: ApiRequest, ...stepCommon, ...expectSpec(expectationKeys), repeat: Opt(Repeat) });
export const ControlStepSchema = Strict({ control: Control, ...stepCommon, ...expectSpec(expectationKeys) });
export const WebhookStepSchema = Strict({ webhook: Webhook, ...stepCommon, ...expectSpec(webhookExpectationKeys) });
export const ReceiverStepSchema = Strict({ receiver: Receiver, ...stepCommon });
// Agent steps act on sockets: nothing to find on a target, and no spec level to expect.
const { found: _notForSockets, ...agentStepCommon } = stepCommon;
export const AgentStepSchema = Strict({ agent: AgentAction, ...agentStepCommon, expect: Opt(AgentExpectation) });

export const StepSchema = Tagged(
  [
    { key: 'request', schema: RequestStepSchema },
    { key: 'control', schema: ControlStepSchema },
    { key: 'webhook', schema: WebhookStepSchema },
    { key: 'receiver', schema: ReceiverStepSchema },
    { key: 'agent', schema: AgentStepSchema },
  ] as const,
  {
    description:
      'One of: `request` (the API), `control` (the `/_sim` control plane), `webhook` (expect webhooks at the kit\'s receiver), `receiver` (script the receiver\'s answers), `agent` (act as the customer\'s own agent over the Agent SDK\'s WebSockets).',
  },
);

export const ScenarioSchema = Strict(
  {
    description: Type.String({ minLength: 1, description: 'The behaviour shown, in a sentence or two.' }),
    clauses: ClauseIds('Ids from [`conformance/clauses.yaml`](../conformance/clauses.yaml) that the scenario\'s assertions count for (unless a step names its own). Unknown ids are a loading error.'),
    tags: Opt(Type.Array(Type.String({ pattern: '^[a-z0-9][a-z0-9-]*$' }), { description: 'Free labels for `--tag` (`blocklists`, `auth`, `paging`...); `read-only` marks a scenario whose steps only read.' })),
    requires: Opt(Capabilities('Capabilities the target must have beyond what the steps imply, else the whole scenario is skipped with the reason (see "Levels, capabilities and skips").')),
    vars: Opt(AnyObject({ additionalProperties: true, description: 'Names computed once before the first step; values may use interpolation (`"{{ fresh.mobile }}"`).' })),
    steps: Type.Array(StepSchema, { minItems: 1, description: 'The steps, in order.' }),
    independent: Opt(
      Type.Boolean({
        description:
          '`true` when each step stands alone (one operation per step, as in `auth/missing-or-invalid-key`): a skipped step does not skip the steps after it. Use it so that an operation a target does not serve removes one step, not a whole clause.',
      }),
    ),
    readOnly: Opt(
      Type.Array(StepSchema, {
        minItems: 1,
        description:
          'What the scenario checks when it may not write (`--read-only`, a target without `writes`): steps that only read (GET and HEAD requests, control-plane GETs), run instead of `steps` (and no `teardown`), with data they find on the target (a list, then its first row by id; `found` skips them where there is none). They name the clauses their expectations really test, and the capabilities they need (`requires` of the scenario is its writing steps\').',
      }),
    ),
    teardown: Opt(
      Type.Array(StepSchema, {
        description:
          'Steps that undo what the scenario created or changed (delete the webhooks it registered, release its blocks, delete its domains, clear the settings it set...). They run after the steps whatever happened (even after a failure), each on its own, with the names the steps saved (a name never saved skips its teardown step). A failing teardown fails the scenario; a teardown never makes a scenario pass. Every scenario that creates or changes something on the main or alt account, or in a target-wide setting, has one, so a target is left as the scenario found it.',
      }),
    ),
  },
  {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://conformance.local/scenario.schema.json',
    title: 'Conformance scenario',
    description: 'A data-driven conformance scenario (docs/scenario-format.md). Strings may contain {{ interpolations }}.',
  },
);

export type ScenarioFile = Static<typeof ScenarioSchema>;
export type RawStepFile = Static<typeof StepSchema>;
