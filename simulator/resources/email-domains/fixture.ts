// The email domains' part of the fixture (docs/fixtures.md): the email provider's settings (the
// region new sender domains get, the regions that support receiving). Domains themselves are not
// seeded; a reset starts with none and these settings (the defaults where the fixture is silent).
import { Type } from '@sinclair/typebox';
import type { FixtureSection } from '../../fixture/schema.ts';
import type { FixturePart } from '../family.ts';
import { DEFAULT_PROVIDER_SETTINGS, type EmailDomainsModel } from './model.ts';
import { REGION_PATTERN } from './schema.ts';

const sections = {
  email: Type.Optional(
    Type.Object(
      {
        region: Type.Optional(Type.String({ pattern: REGION_PATTERN, description: 'Region given to new sender domains (default ap-northeast-2).' })),
        receivingRegions: Type.Optional(Type.Array(Type.String({ pattern: REGION_PATTERN }), { description: 'Regions that support inbound receiving.' })),
      },
      { additionalProperties: false, description: 'Email provider settings.' },
    ),
  ),
};
declare module '../../fixture/schema.ts' {
  interface Fixture extends FixtureSection<typeof sections> {}
}

export const emailDomainsFixture: FixturePart<EmailDomainsModel> = {
  sections,
  // Without an `email` section, load gives the settings a fresh model has (DEFAULT_PROVIDER_SETTINGS).
  holds: (f) => f.email !== undefined,
  load(model, f) {
    model.settings = {
      region: f.email?.region ?? DEFAULT_PROVIDER_SETTINGS.region,
      receivingRegions: [...(f.email?.receivingRegions ?? DEFAULT_PROVIDER_SETTINGS.receivingRegions)],
    };
  },
};
