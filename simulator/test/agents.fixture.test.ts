// Seed managed agents (with behaviour and knowledge) and dictionaries from the fixture: loaded as
// the operations would have made them, usable by calls at once, checked on load naming the field.
import { describe, expect, it } from 'vitest';
import { createSimulator } from '../index.ts';
import { FixtureError } from '../fixture/load.ts';
import { ACME, call } from './helpers.ts';

function withAccounts(edit: (accounts: any[]) => void) {
  const f = structuredClone(createSimulator().fixture) as any;
  edit(f.accounts);
  return f;
}

const AGENT = {
  agentId: 'AG0123456789ab',
  name: 'Front desk',
  greeting: true,
  configuration: { outputMode: 'realtime_voice', language: 'en', llm: { provider: 'openai-realtime', model: 'gpt-realtime-2.1', voice: 'marin' }, knowledge: { enabled: true, topK: 3 } },
  behaviour: { greeting: 'Front desk, hello', rules: [{ heard: 'hours', say: '{{knowledge}}' }], fallback: 'Pardon?' },
  knowledge: [{ text: 'Opening hours\n\nWe are open from nine to six on weekdays.' }],
  createdAt: '2026-02-01T09:00:00+09:00',
};

describe('fixture agents and dictionaries', () => {
  it('loads agents with their behaviour and knowledge, and dictionaries with their terms; a call uses them', async () => {
    const fixture = withAccounts((a) => {
      a[0].agents = [{ ...AGENT, configuration: { ...AGENT.configuration }, behaviour: { ...AGENT.behaviour }, knowledge: AGENT.knowledge }, { name: 'Drawn id' }];
      a[0].dictionaries = [{ name: 'Brands', terms: [{ term: 'claw ops', canonical: 'ClawOps' }, { term: 'old', canonical: 'new', enabled: false }] }, { name: 'Second', isDefault: true }];
    });
    const sim = createSimulator({ fixture });
    try {
      const got = await call(sim, 'GET', `/v1/accounts/${ACME.accountId}/agents/AG0123456789ab`);
      expect(got.json).toMatchObject({ agentId: 'AG0123456789ab', name: 'Front desk', dateCreated: '2026-02-01T00:00:00.000Z' });
      const list = await call(sim, 'GET', `/v1/accounts/${ACME.accountId}/agents`);
      expect(list.json.data.map((x: any) => x.name)).toEqual(['Drawn id', 'Front desk']);
      expect(list.json.data[0].agentId).toMatch(/^AG[0-9a-f]{12}$/);
      const docs = await call(sim, 'GET', `/v1/accounts/${ACME.accountId}/agents/AG0123456789ab/knowledge`);
      expect(docs.json.data).toMatchObject([{ title: 'Opening hours', sourceType: 'text', status: 'ready', chunkCount: 1 }]);
      const behaviour = await sim.control.request<any>('GET', '/agents/AG0123456789ab/behaviour');
      expect(behaviour).toMatchObject({ custom: true, greeting: 'Front desk, hello', fallback: 'Pardon?' });
      const dicts = await call(sim, 'GET', `/v1/accounts/${ACME.accountId}/dictionaries`);
      expect(dicts.json.dictionaries.map((d: any) => [d.name, d.isDefault, d.itemCount])).toEqual([['Second', true, 0], ['Brands', false, 2]]);
      // A call to the seeded agent runs its behaviour, with its knowledge (search on in its configuration).
      await sim.control.request('POST', '/carrier/scripts', { number: '010-3000-0081', outcome: 'delivered', types: ['call'], lines: ['what are your hours'] });
      const placed = await call(sim, 'POST', `/v1/accounts/${ACME.accountId}/calls`, { To: '010-3000-0081', From: '07012340001', AgentId: 'AG0123456789ab' });
      expect(placed.status, placed.text).toBe(201);
      await sim.control.request('POST', '/clock/advance', { seconds: 60 });
      const view = await sim.control.request<any>('GET', `/calls/${placed.json.callId}`);
      expect(view.conversation.filter((t: any) => t.text).map((t: any) => t.text)).toEqual(['Front desk, hello', 'what are your hours', 'Opening hours\n\nWe are open from nine to six on weekdays.']);
    } finally {
      await sim.close();
    }
  });

  it('refuses a bad configuration, a behaviour with a tool, a repeated id, a repeated term and two defaults, naming the path', () => {
    const bad: [string, (a: any[]) => void, RegExp][] = [
      ['configuration', (a) => (a[0].agents = [{ name: 'x', configuration: { ...AGENT.configuration, llm: { provider: 'openai-realtime', model: 'gpt-realtime-2.1', voice: 'nobody' } } }]), /agents\[0\]\.configuration/],
      ['tool', (a) => (a[0].agents = [{ name: 'x', behaviour: { rules: [{ heard: 'x', tool: { name: 'lookup' } }] } }]), /agents\[0\]\.behaviour\.rules\[0\]\.tool\.name.*no MCP binding/],
      ['pattern', (a) => (a[0].agents = [{ name: 'x', behaviour: { rules: [{ heard: '(a+)+', say: 'x' }] } }]), /agents\[0\]\.behaviour\.rules\[0\]\.heard/],
      ['id', (a) => (a[0].agents = [{ agentId: 'AG0123456789ab', name: 'x' }, { agentId: 'AG0123456789ab', name: 'y' }]), /agents\[1\]\.agentId.*twice/],
      ['term', (a) => (a[0].dictionaries = [{ name: 'd', terms: [{ term: 'a' }, { term: ' a ' }] }]), /dictionaries\[0\]\.terms\[1\]\.term/],
      ['defaults', (a) => (a[0].dictionaries = [{ name: 'd', isDefault: true }, { name: 'e', isDefault: true }]), /dictionaries\[1\]\.isDefault/],
    ];
    for (const [what, edit, message] of bad) {
      let error: unknown;
      try {
        createSimulator({ fixture: withAccounts(edit) });
      } catch (e) {
        error = e;
      }
      expect(error, what).toBeInstanceOf(FixtureError);
      expect((error as Error).message, what).toMatch(message);
    }
  });
});
