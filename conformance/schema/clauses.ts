// The clause catalogue's format (conformance/clauses.yaml), described once:
// conformance/clauses.ts validates the catalogue with it and takes its types from it;
// conformance/clauses.schema.json and the field table of docs/clauses.md are generated from it
// (`npm run schemas -- --write`). Descriptions are Markdown: they are the docs' text.
import { Type, type Static } from '@sinclair/typebox';
import { Enum, Opt, Strict } from './build.ts';

export const CLAUSE_KINDS = ['rule', 'field', 'transition', 'endpoint', 'error', 'limit', 'auth', 'event', 'versioning'] as const;

export const ClauseSchema = Strict({
  id: Type.String({
    pattern: '^[a-z0-9-]+(\\.[a-z0-9-]+)+$',
    description: 'Stable id, `<area>.<topic>[.<detail>]` (see "Ids"): lowercase, dot-separated, hyphens inside words. Never renumbered or renamed; unique in the file.',
  }),
  section: Type.String({
    minLength: 1,
    description:
      'The spec heading the statement comes from, as the heading path below the title: `"Errors"`, `"Endpoints / Calls"`, `"Resources and their fields / Blocked caller (inbound call block)"`. Exactly the spec\'s heading text, joined by ` / `.',
  }),
  kind: Enum(CLAUSE_KINDS, { description: 'What sort of statement it is (see "Kinds").' }),
  text: Type.String({ minLength: 1, maxLength: 240, description: 'One sentence in our own words, precise enough that a tester knows what to check; at most 240 characters, ending with a full stop.' }),
  observable: Type.Boolean({
    description:
      '`false` only when no API client can check the statement, not even with the `/_sim` control plane and scripted peers (internal billing, how a value is stored, advice to clients, promises about future versions). Clauses that need virtual time, DNS, carrier, MCP or identity-check scripting are observable.',
  }),
  retired: Opt(Type.Boolean({ description: 'Optional, `true` for a clause that no longer applies. Its id stays reserved.' })),
});

export const ClauseCatalogueSchema = Strict(
  {
    version: Type.Literal(1, { description: 'Format version of the catalogue file.' }),
    clauses: Type.Array(ClauseSchema, { minItems: 1, description: 'One entry per checkable statement of the interface specification.' }),
  },
  {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://platform-simulator.local/conformance/clauses.schema.json',
    title: 'Clause catalogue',
    description:
      'Format of conformance/clauses.yaml: one entry per checkable statement of the interface specification, with a stable id. JSON Schema cannot express that ids are unique, that the area prefix comes from the fixed list, or that section names an existing spec heading; conformance/test/clauses.test.ts checks those.',
  },
);

export type Clause = Static<typeof ClauseSchema>;
export type ClauseKind = Clause['kind'];
