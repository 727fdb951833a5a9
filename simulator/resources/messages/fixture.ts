// The messages family's part of the fixture (docs/fixtures.md): each account's messenger
// notification templates. Beyond the schema: template ids are unique across the fixture and a
// template's variables include every placeholder of its body. They load into the cleared model.
import { Type } from '@sinclair/typebox';
import { DateTime, StringEnum } from '../../core/schema.ts';
import type { FixtureSection } from '../../fixture/schema.ts';
import type { FixturePart } from '../family.ts';
import { templateVariables } from './templates.ts';
import type { MessagesModel } from './model.ts';

export const KakaoTemplateFixture = Type.Object(
  {
    templateId: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$', description: 'Unique across the fixture.' }),
    channelId: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$', description: 'The messenger channel it belongs to.' }),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    body: Type.String({ minLength: 1, maxLength: 1000, description: 'Text with #{variable} placeholders.' }),
    variables: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 100, description: 'Default: the placeholders of body; must include them all.' }),
    ),
    status: Type.Optional(StringEnum(['APPROVED', 'PENDING', 'REJECTED', 'DORMANT'], { description: 'Default APPROVED; only APPROVED templates can be sent.' })),
    createdAt: Type.Optional(DateTime()),
  },
  { additionalProperties: false },
);

const accountFields = {
  kakaoTemplates: Type.Optional(Type.Array(KakaoTemplateFixture, { description: 'Messenger notification templates (the ata message type).' })),
};

declare module '../../fixture/schema.ts' {
  interface AccountFixtureFields extends FixtureSection<typeof accountFields> {}
}

export const messagesFixture: FixturePart<MessagesModel> = {
  accountFields,
  check(f, fail) {
    const templateOwners = new Map<string, string>();
    f.accounts.forEach((a, i) => {
      (a.kakaoTemplates ?? []).forEach((t, j) => {
        const at = ['accounts', i, 'kakaoTemplates', j];
        const other = templateOwners.get(t.templateId);
        if (other) fail([...at, 'templateId'], `template ${t.templateId} is already defined for ${other}`);
        templateOwners.set(t.templateId, a.accountId);
        const v = templateVariables(t.body, t.variables);
        if ('missing' in v) fail([...at, 'variables'], `must include every placeholder of body; missing ${v.missing.join(', ')}`);
      });
    });
  },
  normalize(f, instant) {
    for (const a of f.accounts) for (const t of a.kakaoTemplates ?? []) if (t.createdAt) t.createdAt = instant(t.createdAt);
  },
  load(model, f) {
    model.templates.seed(f);
  },
};
