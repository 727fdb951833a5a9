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
  ],
  'families -> control/': [
  ],
  'families -> another family\'s model': [
  ],
  'peers -> families': [
  ],
  'peers -> control/ or composition root': [
  ],
  'fixture -> families': [
  ],
  'control/, web/, rules/ -> composition root': [
  ],
  'no value-import cycle': [
  ],
  'no import circle of more than two files': [
  ],
};

/** Entries of the list still built from the whole runtime (`Family`, not `defineFamily`), in list order. */
export const LEGACY_FAMILIES: readonly string[] = [
];

/** Clock job kinds registered without their payload's schema (declared in the owner's `jobs`), sorted. */
export const UNCHECKED_JOB_KINDS: readonly string[] = [
];
