// The assignment-links family: one-time links through which an end user obtains a managed
// number, the end user's session behind each link (driven by its token), the issuing page and
// the fake identity provider's page a person opens, and the account's issuing-page settings on
// the control plane. Behind its door: its ports on accounts, numbers, the receiver policy and
// the identity provider, its event and its expiry job are declared in ports.ts; the runtime
// validates its snapshot part before the model reads it back.
import { nothingToWire } from '../../core/first-use.ts';
import { ownPart } from '../../core/table-state.ts';
import { defineFamily } from '../family.ts';
import { AssignmentLinksModel } from './model.ts';
import { operations as links } from './routes.ts';
import { operations as sessions } from './session-routes.ts';
import { operations as pages } from './pages.ts';
import { operations as control } from './control.ts';
import { assignmentLinksFixture } from './fixture.ts';
import { assignmentEvents } from './events.ts';
import { jobs, needs } from './ports.ts';
import { ASSIGNMENT_IDS, AssignmentLinksStateSchema, type AssignmentLinksState } from './schema.ts';
import { examples } from './examples.ts';

export const assignmentLinks = defineFamily({
  key: 'assignmentLinks',
  needs,
  events: assignmentEvents,
  jobs,
  create: (scope) => new AssignmentLinksModel(scope),
  wire: nothingToWire, // built on first use (decisions.md "Models built on first use")
  state: ownPart<AssignmentLinksState, AssignmentLinksModel>(AssignmentLinksStateSchema),
  fixture: assignmentLinksFixture,
  operations: [...links, ...sessions],
  pages,
  examples,
  control,
  tags: {
    'Assignment links': 'One-time links through which an end user obtains a managed number after identity verification; single use, states pending, consumed, expired, revoked.',
    'Assignment sessions': 'The end user\'s side of an assignment link, driven by the link token without an API key: subscriber type, consents, identity verification, finalize.',
    'Issuing pages': 'HTML pages a person looks at: the end user\'s issuing page at a link\'s url, and the fake identity provider\'s page.',
  },
  idFormats: ASSIGNMENT_IDS,
  capabilities: ['issuing-page'],
});
