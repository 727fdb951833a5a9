// The target file format (`--target-file`: where and how the kit reaches an implementation),
// described once: conformance/target-file.ts validates files with it and takes its types from
// it; conformance/target.schema.json and the key tables of docs/target-file.md are generated from
// it (`npm run schemas -- --write`). Descriptions are Markdown: they are the docs' text.
import { Type, type Static } from '@sinclair/typebox';
import { Enum, MapOf, Opt, StringMap, Strict } from './build.ts';

export const AccountSchema = Strict(
  {
    accountId: Type.String({ minLength: 1, description: 'The account id the API paths name.' }),
    key: Type.String({ minLength: 1, description: 'Its API key: give it as `${ENV_VAR}`.' }),
  },
  { description: 'An account the kit works in.' },
);

export const AccountsSchema = Strict(
  {
    main: AccountSchema,
    alt: Opt(AccountSchema),
  },
  {
    description:
      'The accounts the kit works in: `main`, and optionally `alt` (a second account: it unlocks the isolation checks). Without them, a target whose control plane lists its accounts (`GET /_sim/accounts`, a served simulator) gives its first two.',
  },
);

export const TargetWebhooksSchema = Strict(
  {
    publicUrl: Opt(Type.String({ pattern: '^https?://', description: 'The URL this target reaches the receiver at (a tunnel to it); the same as `--webhook-public-url`.' })),
    listen: Opt(Type.String({ pattern: '^(\\[[0-9a-fA-F:.]+\\]|[^:\\s]+):\\d{1,5}$', description: '`host:port` the receiver listens on (default `127.0.0.1:0`, any free port); the same as `--webhook-listen`.' })),
    signingKeys: Opt(
      Strict(
        { main: Opt(Type.String({ minLength: 1 })), alt: Opt(Type.String({ minLength: 1 })) },
        { description: 'The accounts\' webhook signing keys, when the target has no control plane to read them from. Secrets: give them as `${ENV_VAR}`.' },
      ),
    ),
    graceMs: Opt(Type.Integer({ minimum: 0, maximum: 600000, description: 'Wall-clock wait for deliveries after the kit advances the clock, when the target cannot say they settled (default 2000).' })),
  },
  { description: 'The kit\'s webhook receiver, for scenarios that expect webhooks (docs/scenario-format.md, "Webhooks").' },
);

export const OperationMappingSchema = Strict(
  {
    path: Opt(Type.String({ pattern: '^/', description: 'Where this implementation serves the operation (`/v1/accounts/{accountId}/caller-blocks`).' })),
    unsupported: Opt(Type.Boolean({ description: '`true`: this implementation does not serve it; steps using it are skipped with that reason.' })),
  },
  { description: 'Where an implementation serves one operation, or that it does not.' },
);

export const TargetFileSchema = Strict(
  {
    baseUrl: Type.String({ description: 'The http(s) base URL, or `sim` for the in-process simulator.' }),
    accounts: Opt(AccountsSchema),
    controlToken: Opt(Type.String({ description: 'Bearer token of the `/_sim` control plane, when it needs one.' })),
    headers: Opt(StringMap({ description: 'Headers added to every request (a gateway\'s own header).' })),
    capabilities: Opt(Type.Array(Type.String(), { description: 'Capabilities to assume beyond what `/_sim/health` reports.' })),
    simLevel: Opt(Enum(['fail', 'observe'] as const, { description: 'Whether sim-level mismatches fail (`fail`, the default for `sim`) or are observations (`observe`, the default for URLs).' })),
    allowReset: Opt(
      Type.Boolean({
        description:
          'Whether scenarios that reset the whole target (`control: { reset }`) may run. On by default for `sim`, off for URLs. At a URL it needs the `state` capability: the kit saves the target\'s state before such a scenario (`GET /_sim/state`) and puts it back after (`PUT /_sim/state`), so the accounts the run uses survive.',
      }),
    ),
    resetBetweenScenarios: Opt(
      Type.Boolean({
        description:
          'Start every scenario from the state the run found: the kit saves the target\'s state when the run starts and puts it back before each scenario and at the end (needs `state`; a simulator you own only). The accounts the run uses survive.',
      }),
    ),
    timeoutMs: Opt(Type.Integer({ minimum: 100, description: 'How long a request may go unanswered (default 30000).' })),
    lanes: Opt(
      Type.Integer({
        minimum: 0,
        maximum: 8,
        description:
          'How many units may run beside the others at once: scenarios that mostly wait on real time (the Agent SDK\'s paced media) and, at a URL, are provably on their own (no reset, clock advance or whole-state call; every request and socket in the name of an account the scenario created). The report keeps catalogue order. Default 1 for `sim` (each lane its own simulator), 0 for URLs (off: opt in); ignored with `resetBetweenScenarios`. `--serial` turns lanes off.',
      }),
    ),
    webhooks: Opt(TargetWebhooksSchema),
    operations: Opt(MapOf(OperationMappingSchema, { description: '`operationId`: where this implementation serves it, or that it does not.' })),
  },
  {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://conformance.local/target.schema.json',
    title: 'Conformance target file',
    description: 'Where and how the kit reaches an implementation. Any string may use ${ENV_VAR}; put secrets only there.',
  },
);

export type TargetFileData = Static<typeof TargetFileSchema>;
