import { describe, expect, it } from 'vitest';
import { FAMILIES } from '../resources/index.ts';
import { registry } from '../registry.ts';
import { openApiJson } from '../operations.ts';
import { harness } from './helpers.ts';
import type { EventDecls } from '../core/events.ts';
import { runtimeOf } from '../internal.ts';

describe('the list of families', () => {
  it('gives every runtime model its field and the snapshot its keys, in list order', async () => {
    const h = harness();
    const rt = runtimeOf(h.sim) as unknown as Record<string, unknown>;
    for (const f of FAMILIES) expect(rt[f.key], f.key).toBeDefined();
    const state = (await h.call('GET', '/_sim/state', undefined, { key: null })).json as { models: Record<string, unknown> };
    // An entry without a snapshot part keeps no state (the MCP peers' routes) and has no key.
    const stateful = FAMILIES.filter((f) => !('needs' in f) || f.state !== undefined);
    expect(stateful.map((f) => f.key)).not.toContain('mcp');
    expect(Object.keys(state.models)).toEqual(stateful.map((f) => f.snapshotKey ?? f.key));
  });

  it('describes every OpenAPI tag with a sentence of its own', () => {
    const doc = JSON.parse(openApiJson()) as { tags: { name: string; description: string }[] };
    for (const t of doc.tags) {
      expect(t.description, t.name).not.toBe(t.name);
      expect(t.description.length, t.name).toBeGreaterThan(20);
    }
  });

  it('serves the capabilities the descriptors declare, and each id kind has its own prefix', async () => {
    const h = harness();
    const health = (await h.call('GET', '/_sim/health', undefined, { key: null })).json as { capabilities: string[] };
    expect(health.capabilities).toEqual([...registry().capabilities]);
    expect(health.capabilities).toEqual(expect.arrayContaining(['clock', 'accounts', 'carrier', 'webhooks', 'sip-auth']));
    const prefixes = Object.values(registry().idFormats).map((f) => f.prefix);
    expect(new Set(prefixes).size).toBe(prefixes.length);
    expect(registry().idFormats.message).toEqual({ prefix: 'MG', hex: 32 });
  });

  it('generates the event enum, the carrier owners and the fixture sections from the descriptors', () => {
    const declared = (pick: (f: Record<string, unknown>) => unknown) =>
      FAMILIES.flatMap((f) => (pick(f as unknown as Record<string, unknown>) as readonly string[] | undefined) ?? []);
    const doc = JSON.parse(openApiJson()) as { components: { schemas: Record<string, any> } };
    const events = FAMILIES.flatMap((f) => Object.entries((f.events ?? {}) as EventDecls).filter(([, d]) => d.subscribable).map(([name]) => name));
    expect(doc.components.schemas.CreateWebhookRequest.properties.events.items.enum).toEqual(events);
    expect(doc.components.schemas.UpdateWebhookRequest.properties.events.items.enum).toEqual(events);
    expect(doc.components.schemas.SimCarrierDelivery.properties.owner.enum).toEqual(declared((f) => f.carrierOwners));
    const sections = FAMILIES.flatMap((f) => Object.keys(f.fixture?.sections ?? {}));
    expect(Object.keys(registry().fixtureSchema.properties)).toEqual(['description', 'seed', 'clock', ...sections]);
  });

  it('routes every operation once', () => {
    const ids = registry().operations.map((op) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
