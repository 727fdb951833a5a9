// The fake messenger's part of the fixture (docs/fixtures.md): the business channels that exist on
// its side. Beyond the schema: search ids and channel ids are unique, and managers are valid
// phone numbers. They load into a cleared messenger in the order given.
import { Type } from '@sinclair/typebox';
import { tryNormalizePhone } from '../../core/phone.ts';
import type { FixtureSection } from '../../fixture/schema.ts';
import type { FixturePart } from '../../resources/family.ts';
import { normalizeSearchId, type FakeMessenger } from './model.ts';

const sections = {
  messengerChannels: Type.Optional(
    Type.Array(
      Type.Object(
        {
          searchId: Type.String({ minLength: 1, description: 'The id people search the channel by (a leading @ is dropped).' }),
          channelId: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$', description: 'The messenger\'s channel id, as templates name it.' }),
          name: Type.String({ minLength: 1, maxLength: 100 }),
          managers: Type.Array(Type.String({ minLength: 1 }), { minItems: 1, description: 'Phones registered as managers; tokens go to them.' }),
        },
        { additionalProperties: false },
      ),
      { description: 'Business channels that exist at the fake messenger; accounts connect them through the API.' },
    ),
  ),
};
declare module '../../fixture/schema.ts' {
  interface Fixture extends FixtureSection<typeof sections> {}
}

export const messengerFixture: FixturePart<FakeMessenger> = {
  sections,
  check(f, fail) {
    const searchIds = new Set<string>();
    const channelIds = new Set<string>();
    (f.messengerChannels ?? []).forEach((c, i) => {
      const at = (...rest: (string | number)[]) => ['messengerChannels', i, ...rest];
      const searchId = normalizeSearchId(c.searchId);
      if (searchId === undefined) return fail(at('searchId'), 'letters, digits, _ . - (an optional leading @)');
      if (searchIds.has(searchId)) fail(at('searchId'), `channel @${searchId} is defined twice`);
      if (channelIds.has(c.channelId)) fail(at('channelId'), `channel id ${c.channelId} is defined twice`);
      searchIds.add(searchId);
      channelIds.add(c.channelId);
      c.managers.forEach((m, j) => {
        const r = tryNormalizePhone(m);
        if (!r.ok) fail(at('managers', j), r.message);
      });
    });
  },
  load(model, f) {
    for (const c of f.messengerChannels ?? []) model.putChannel(c);
  },
};
