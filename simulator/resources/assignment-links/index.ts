// The assignment-links family: one-time links through which an end user obtains a managed
// number, the end user's session behind each link (driven by its token), the issuing page a
// person opens at the link's url, and the account's issuing-page settings on the control plane.
import type { Family } from '../family.ts';
import { AssignmentLinksModel } from './model.ts';
import { operations as links } from './routes.ts';
import { operations as sessions } from './session-routes.ts';
import { operations as pages } from '../../web/routes.ts';
import { issuingPageOperations as control } from '../../control/assignment.ts';
import { ASSIGNMENT_IDS } from './schema.ts';
import { examples } from './examples.ts';

export const assignmentLinks: Family<'assignmentLinks', AssignmentLinksModel> = {
  key: 'assignmentLinks',
  create: (rt) => new AssignmentLinksModel(rt),
  operations: [...links, ...sessions, ...pages],
  examples,
  control,
  tags: {
    'Assignment links': 'One-time links through which an end user obtains a managed number after identity verification; single use, states pending, consumed, expired, revoked.',
    'Assignment sessions': 'The end user\'s side of an assignment link, driven by the link token without an API key: subscriber type, consents, identity verification, finalize.',
    'Issuing pages': 'HTML pages a person looks at: the end user\'s issuing page at a link\'s url, and the fake identity provider\'s page.',
  },
  idFormats: ASSIGNMENT_IDS,
  events: ['assignment.completed'],
  capabilities: ['issuing-page'],
};
