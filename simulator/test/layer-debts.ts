// What the house still owes while families move behind their doors: the violations of each
// layer rule (layer-rules.ts), the families still built from the whole runtime, and the job
// kinds without a declared schema. Each list can only shrink: layers.test.ts and house.test.ts
// fail on an entry not listed here and on a listed one that no longer exists (delete its line).
// Adding a line is never the fix for a new violation; the migration guide in
// docs/contributing.md ("Adding or migrating a family") says how each kind goes away.
export const LAYER_DEBTS: Readonly<Record<string, readonly string[]>> = {
  'core imports only core': [
  ],
  'families -> composition root': [
    'simulator/resources/call-flows/routes.ts -> simulator/runtime.ts (type)',
    'simulator/resources/calls/effects.ts -> simulator/runtime.ts (type)',
    'simulator/resources/calls/live-control.ts -> simulator/runtime.ts (type)',
    'simulator/resources/calls/model.ts -> simulator/runtime.ts (type)',
    'simulator/resources/calls/progress.ts -> simulator/runtime.ts (type)',
    'simulator/resources/calls/transfer-legs.ts -> simulator/runtime.ts (type)',
    'simulator/resources/mcp-connections/model.ts -> simulator/runtime.ts (type)',
    'simulator/resources/numbers/model.ts -> simulator/resources/index.ts (type)',
  ],
  'families -> control/': [
    'simulator/resources/call-flows/index.ts -> simulator/control/call-flows.ts',
    'simulator/resources/calls/index.ts -> simulator/control/call-transfers.ts',
    'simulator/resources/calls/index.ts -> simulator/control/calls.ts',
    'simulator/resources/mcp-connections/index.ts -> simulator/control/mcp.ts',
    'simulator/resources/recordings/index.ts -> simulator/control/artifacts.ts',
  ],
  'families -> another family\'s model': [
    'simulator/resources/calls/model.ts -> simulator/resources/numbers/model.ts',
    'simulator/resources/numbers/model.ts -> simulator/resources/accounts/model.ts (type)',
    'simulator/resources/recordings/model.ts -> simulator/resources/accounts/model.ts (type)',
    'simulator/resources/recordings/model.ts -> simulator/resources/calls/model.ts (type)',
    'simulator/resources/recordings/model.ts -> simulator/resources/usage/model.ts (type)',
    'simulator/resources/recordings/routes.ts -> simulator/resources/calls/model.ts',
  ],
  'peers -> families': [
    'simulator/peers/mcp/runner.ts -> simulator/resources/mcp-connections/model.ts (type)',
    'simulator/peers/mcp/runner.ts -> simulator/resources/mcp-connections/schema.ts',
  ],
  'peers -> control/ or composition root': [
    'simulator/peers/index.ts -> simulator/control/carrier.ts',
  ],
  'fixture -> families': [
  ],
  'control/, web/, rules/ -> composition root': [
    'simulator/control/calls.ts -> simulator/runtime.ts (type)',
  ],
  'no value-import cycle': [
  ],
  'no import circle of more than two files': [
    'simulator/control/artifacts.ts',
    'simulator/control/call-transfers.ts',
    'simulator/control/calls.ts',
    'simulator/control/mcp.ts',
    'simulator/operations.ts',
    'simulator/peers/mcp/runner.ts',
    'simulator/registry.ts',
    'simulator/resources/call-batches/dialer.ts',
    'simulator/resources/call-batches/index.ts',
    'simulator/resources/call-batches/model.ts',
    'simulator/resources/call-batches/ports.ts',
    'simulator/resources/call-batches/routes.ts',
    'simulator/resources/call-batches/scope.ts',
    'simulator/resources/call-flows/index.ts',
    'simulator/resources/call-flows/routes.ts',
    'simulator/resources/calls/announce.ts',
    'simulator/resources/calls/call-context.ts',
    'simulator/resources/calls/call-events.ts',
    'simulator/resources/calls/effects.ts',
    'simulator/resources/calls/ended-call.ts',
    'simulator/resources/calls/endings.ts',
    'simulator/resources/calls/events.ts',
    'simulator/resources/calls/handled.ts',
    'simulator/resources/calls/index.ts',
    'simulator/resources/calls/live-control.ts',
    'simulator/resources/calls/live-routes.ts',
    'simulator/resources/calls/model.ts',
    'simulator/resources/calls/progress.ts',
    'simulator/resources/calls/routes.ts',
    'simulator/resources/calls/schema.ts',
    'simulator/resources/calls/transfer-legs.ts',
    'simulator/resources/calls/variables.ts',
    'simulator/resources/calls/voiceml/runner.ts',
    'simulator/resources/index.ts',
    'simulator/resources/mcp-connections/index.ts',
    'simulator/resources/mcp-connections/model.ts',
    'simulator/resources/mcp-connections/routes.ts',
    'simulator/resources/numbers/control.ts',
    'simulator/resources/numbers/index.ts',
    'simulator/resources/numbers/model.ts',
    'simulator/resources/numbers/routes.ts',
    'simulator/resources/recordings/index.ts',
    'simulator/resources/recordings/model.ts',
    'simulator/resources/recordings/routes.ts',
    'simulator/runtime.ts',
  ],
};

/** Entries of the list still built from the whole runtime (`Family`, not `defineFamily`), in list order. */
export const LEGACY_FAMILIES: readonly string[] = [
  'numbers',
  'carrier',
  'callFlows',
  'calls',
  'mcpConnections',
  'recordings',
];

/** Clock job kinds registered without their payload's schema (declared in the owner's `jobs`), sorted. */
export const UNCHECKED_JOB_KINDS: readonly string[] = [
  'calls.answer',
  'calls.phoneHangup',
  'calls.resume',
  'calls.ring',
  'calls.transferLeg',
  'carrier.outcome',
  'recordings.expire',
  'recordings.summarized',
  'recordings.transcribed',
];
