// Seed call flows and cloned voices from the fixture (each account's `voices` and `callFlows`,
// docs/fixtures.md): the family's fixture part, its load-time checks (each graph valid, ids
// unique, a voice cloned by one account only and used by no other) and the canonical rows.
import { Type } from '@sinclair/typebox';
import type { FixtureSection } from '../../fixture/schema.ts';
import type { FixturePart } from '../family.ts';
import type { CallFlowsModel } from './model.ts';
import { parseGraph } from './graph.ts';
import { PROVIDER_ALIASES, type FlowGraph, type VoiceProvider } from './schema.ts';
import { CallFlowFixture, VoiceFixture, type CallFlowFixtureT, type VoiceFixtureT } from './records.ts';

const accountFields = {
  voices: Type.Optional(Type.Array(VoiceFixture)),
  callFlows: Type.Optional(Type.Array(CallFlowFixture)),
};

declare module '../../fixture/schema.ts' {
  interface AccountFixtureFields extends FixtureSection<typeof accountFields> {}
}

interface AccountSeed {
  accountId: string;
  voices?: VoiceFixtureT[];
  callFlows?: CallFlowFixtureT[];
}

export const wireProvider = (p: string): VoiceProvider => (PROVIDER_ALIASES[p] ?? p) as VoiceProvider;
const voiceKey = (provider: string, voiceId: string) => `${wireProvider(provider)}:${voiceId}`;

/** The first problem of the fixture's flows and voices, with its path, or undefined. */
export function fixtureFlowProblem(accounts: readonly AccountSeed[]): { path: (string | number)[]; message: string } | undefined {
  const owners = new Map<string, string>();
  for (const [i, a] of accounts.entries()) {
    for (const [j, v] of (a.voices ?? []).entries()) {
      const key = voiceKey(v.provider, v.voiceId);
      const other = owners.get(key);
      if (other && other !== a.accountId) return { path: ['accounts', i, 'voices', j], message: `voice ${v.voiceId} is already registered by ${other}` };
      owners.set(key, a.accountId);
    }
  }
  const ids = new Set<string>();
  for (const [i, a] of accounts.entries()) {
    for (const [j, flow] of (a.callFlows ?? []).entries()) {
      const at = (...rest: (string | number)[]) => ['accounts', i, 'callFlows', j, ...rest];
      if (flow.callFlowId !== undefined) {
        if (ids.has(flow.callFlowId)) return { path: at('callFlowId'), message: `call flow ${flow.callFlowId} is defined twice` };
        ids.add(flow.callFlowId);
      }
      const parsed = parseGraph(flow.graph);
      if (!parsed.ok) {
        const first = parsed.issues[0]!;
        return { path: at('graph', ...(first.path ? first.path.split('.') : [])), message: first.message };
      }
      const voice = parsed.graph.voice;
      const owner = voice.voiceId === undefined ? undefined : owners.get(voiceKey(voice.provider, voice.voiceId));
      if (owner && owner !== a.accountId) return { path: at('graph', 'voice', 'voiceId'), message: `voice ${voice.voiceId} was registered by ${owner}` };
    }
  }
  return undefined;
}

/** The filled graph of a fixture flow (the load checks have already passed). */
export function fixtureGraph(flow: CallFlowFixtureT): FlowGraph {
  const parsed = parseGraph(flow.graph);
  if (!parsed.ok) throw new Error(`fixture call flow "${flow.name}" has an invalid graph: ${parsed.issues[0]!.path}: ${parsed.issues[0]!.message}`);
  return parsed.graph;
}

export const callFlowsFixture: FixturePart<CallFlowsModel> = {
  accountFields,
  check(f, fail) {
    const problem = fixtureFlowProblem(f.accounts);
    if (problem) fail(problem.path, problem.message);
  },
  normalize(f, instant) {
    for (const a of f.accounts) for (const c of a.callFlows ?? []) if (c.createdAt) c.createdAt = instant(c.createdAt);
  },
  /** Seed voices, then flows oldest first by createdAt (default the clock's start). */
  load(model, f) {
    for (const a of f.accounts) for (const v of a.voices ?? []) model.registerVoice(a.accountId, wireProvider(v.provider), v.voiceId);
    const seeds = f.accounts.flatMap((a) => (a.callFlows ?? []).map((flow) => ({ accountId: a.accountId, flow, graph: fixtureGraph(flow), at: flow.createdAt ?? f.clock.start })));
    seeds.sort((x, y) => x.at.localeCompare(y.at));
    model.loadFlows(seeds);
  },
};
