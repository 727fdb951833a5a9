// The managed agents' part of the fixture (docs/fixtures.md): each account's agents, as
// createAgent takes them, with their scripted behaviour (the control plane's contract) and text
// knowledge documents. Beyond the schema: agent ids are unique, every configuration and behaviour
// passes the checks of its operation (the first problem named with its path), and a behaviour's
// tools are refused, since a fixture attaches no MCP connection. Agents load oldest first.
import { Type, type Static } from '@sinclair/typebox';
import { ApiError } from '../../core/errors.ts';
import { DateTime, StringEnum } from '../../core/schema.ts';
import type { Fixture, FixtureFail, FixtureSection } from '../../fixture/schema.ts';
import type { FixturePart } from '../family.ts';
import { BehaviourInput, checkBehaviour } from './behaviour.ts';
import { configurationForCreate } from './configuration.ts';
import { KNOWLEDGE_TEXT_MAX_CHARS, KNOWLEDGE_TITLE_MAX, charCount } from './knowledge/intake.ts';
import type { AgentsModel } from './model.ts';
import { CreateAgentBody } from './schema.ts';

const KnowledgeFixture = Type.Object(
  {
    title: Type.Optional(Type.String({ minLength: 1, maxLength: KNOWLEDGE_TITLE_MAX })),
    text: Type.String({ minLength: 1 }),
    sourceType: Type.Optional(StringEnum(['text', 'markdown'], { description: 'Default text.' })),
  },
  { additionalProperties: false },
);

export const AgentFixture = Type.Object(
  {
    agentId: Type.Optional(Type.String({ pattern: '^AG[0-9a-f]{12}$', description: 'Default: drawn from the seed.' })),
    ...CreateAgentBody.properties,
    behaviour: Type.Optional(Type.Object({ ...BehaviourInput.properties }, { additionalProperties: false })),
    knowledge: Type.Optional(Type.Array(KnowledgeFixture)),
    createdAt: Type.Optional(DateTime()),
  },
  { additionalProperties: false },
);
export type AgentFixtureEntry = Static<typeof AgentFixture>;

const accountFields = { agents: Type.Optional(Type.Array(AgentFixture)) };

declare module '../../fixture/schema.ts' {
  interface AccountFixtureFields extends FixtureSection<typeof accountFields> {}
}

/** The request fields createAgent takes. */
function createInput(a: AgentFixtureEntry) {
  const { agentId: _id, behaviour: _b, knowledge: _k, createdAt: _c, ...input } = a;
  return input;
}

/** Runs an operation's check; its ApiError becomes a fixture failure under `at`, naming the field. */
function checked<T>(fail: FixtureFail, at: (string | number)[], run: () => T): T {
  try {
    return run();
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    const first = (e.extra.errors as { path?: string; message?: string }[] | undefined)?.[0];
    const path = first?.path ? first.path.split(/[.[\]]/).filter(Boolean).map((p) => (/^\d+$/.test(p) ? Number(p) : p)) : [];
    return fail([...at, ...path], first?.message && first.path ? first.message : e.message);
  }
}

function oldestFirst(f: Fixture, list: readonly AgentFixtureEntry[] = []): AgentFixtureEntry[] {
  return [...list].sort((x, y) => (x.createdAt ?? f.clock.start).localeCompare(y.createdAt ?? f.clock.start));
}

export const agentsFixture: FixturePart<AgentsModel> = {
  accountFields,
  check(f, fail) {
    const ids = new Set<string>();
    f.accounts.forEach((acc, i) => {
      (acc.agents ?? []).forEach((a, j) => {
        const at = ['accounts', i, 'agents', j];
        if (a.agentId !== undefined) {
          if (ids.has(a.agentId)) fail([...at, 'agentId'], `agent id ${a.agentId} is used twice in the fixture`);
          ids.add(a.agentId);
        }
        const configuration = checked(fail, at, () => configurationForCreate(createInput(a)));
        if (a.behaviour) checked(fail, [...at, 'behaviour'], () => checkBehaviour(a.behaviour!, configuration.language, new Set()));
        (a.knowledge ?? []).forEach((k, n) => {
          if (charCount(k.text) > KNOWLEDGE_TEXT_MAX_CHARS) fail([...at, 'knowledge', n, 'text'], `is over ${KNOWLEDGE_TEXT_MAX_CHARS} characters`);
        });
      });
    });
  },
  normalize(f, instant) {
    for (const acc of f.accounts) for (const a of acc.agents ?? []) if (a.createdAt) a.createdAt = instant(a.createdAt);
  },
  holds: (f) => f.accounts.some((acc) => (acc.agents ?? []).length > 0),
  load(model, f) {
    for (const acc of f.accounts) {
      for (const a of oldestFirst(f, acc.agents)) {
        const at = a.createdAt ?? f.clock.start;
        const row = model.seed(acc.accountId, createInput(a), at, a.agentId);
        if (a.behaviour) model.setBehaviour(row, a.behaviour);
        for (const k of a.knowledge ?? []) model.knowledge.seed(row, { title: k.title, text: k.text, sourceType: k.sourceType ?? 'text' }, at);
      }
    }
  },
};
