// The assignment links' part of the fixture (docs/fixtures.md): each account's issuing-page
// domains (the hosts a link's returnUrl may use), loaded as that account's issuing-page settings.
import { Type } from '@sinclair/typebox';
import type { FixtureSection } from '../../fixture/schema.ts';
import type { FixturePart } from '../family.ts';
import type { AssignmentLinksModel } from './model.ts';

const accountFields = {
  issuingPageDomains: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 253 }), { description: 'Hosts an assignment link\'s returnUrl may use, matched exactly (the console\'s issuing-page settings).' })),
};
declare module '../../fixture/schema.ts' {
  interface AccountFixtureFields extends FixtureSection<typeof accountFields> {}
}

export const assignmentLinksFixture: FixturePart<AssignmentLinksModel> = {
  accountFields,
  holds: (f) => f.accounts.some((a) => a.issuingPageDomains !== undefined),
  load(model, f) {
    for (const a of f.accounts) if (a.issuingPageDomains) model.setIssuingPage(a.accountId, { domains: a.issuingPageDomains });
  },
};
