// Seed call flows and cloned voices from the fixture: loaded filled and owned, checked on load.
import { describe, expect, it } from 'vitest';
import { createSimulator } from '../index.ts';
import { FixtureError } from '../fixture/load.ts';
import { ACME, BISTRO, call } from './helpers.ts';

function withFlows(edit: (accounts: any[]) => void) {
  const base = createSimulator().fixture;
  const f = structuredClone(base) as any;
  edit(f.accounts);
  return f;
}

const hangup = { version: 1, start: 'h', nodes: { h: { type: 'hangup', message: '{{name}}' } } };

describe('fixture call flows and voices', () => {
  it('loads flows with their ids, filled graphs and dates, and voice owners', async () => {
    const fixture = withFlows((accounts) => {
      accounts[0].callFlows = [
        { callFlowId: 'CF41b8e07d9c25', name: 'Seeded', graph: hangup, createdAt: '2026-02-01T00:00:00+09:00' },
        { name: 'Drawn id', graph: hangup },
      ];
      accounts[1].voices = [{ provider: 'tts_paid_2', voiceId: 'ZyXwVuTsRq9876543210' }];
    });
    const sim = createSimulator({ fixture });
    const seeded = await call(sim, 'GET', `/v1/accounts/${ACME.accountId}/call-flows/CF41b8e07d9c25`);
    expect(seeded.json).toMatchObject({ name: 'Seeded', variables: ['name'], dateCreated: '2026-01-31T15:00:00.000Z', graph: { voice: { provider: 'google', language: 'ko' } } });
    const list = await call(sim, 'GET', `/v1/accounts/${ACME.accountId}/call-flows`);
    expect(list.json.data.map((f: any) => f.name)).toEqual(['Drawn id', 'Seeded']);
    const forbidden = await call(sim, 'POST', `/v1/accounts/${ACME.accountId}/call-flows`, {
      name: 'x',
      graph: { ...hangup, voice: { provider: 'elevenlabs', voiceId: 'ZyXwVuTsRq9876543210' } },
    });
    expect(forbidden.json.code).toBe('call_flow_voice_forbidden');
    expect((await call(sim, 'GET', `/v1/accounts/${BISTRO.accountId}/call-flows`, undefined, { key: BISTRO.key })).json.data).toEqual([]);
  });

  it('refuses an invalid graph, a repeated id, and a voice another account cloned, naming the path', () => {
    const bad: [string, (a: any[]) => void, RegExp][] = [
      ['graph', (a) => (a[0].callFlows = [{ name: 'x', graph: { ...hangup, nodes: { h: { type: 'hangup', oops: 1 } } } }]), /callFlows.*graph.*nodes.*h.*oops/],
      ['id', (a) => (a[0].callFlows = [{ callFlowId: 'CF1', name: 'x', graph: hangup }, { callFlowId: 'CF1', name: 'y', graph: hangup }]), /defined twice/],
      ['voice', (a) => {
        a[1].voices = [{ provider: 'elevenlabs', voiceId: 'ZyXwVuTsRq9876543210' }];
        a[0].callFlows = [{ name: 'x', graph: { ...hangup, voice: { provider: 'elevenlabs', voiceId: 'ZyXwVuTsRq9876543210' } } }];
      }, /registered by AC5e6f7a8b/],
    ];
    for (const [what, edit, message] of bad) {
      let error: unknown;
      try {
        createSimulator({ fixture: withFlows(edit) });
      } catch (e) {
        error = e;
      }
      expect(error, what).toBeInstanceOf(FixtureError);
      expect((error as Error).message, what).toMatch(message);
    }
  });
});
