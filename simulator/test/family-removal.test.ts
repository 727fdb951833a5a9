// A family can be removed by deleting its folder and its line in resources/index.ts: the rest
// compiles, except families that declared a need on it. Shown three ways: no file outside a
// family's folder imports it except the list and the families that need it (so deleting the
// folder breaks no one else's compile); a list without any family nobody needs builds, serves its
// requests and snapshots without the removed key; and a list without a needed family is refused
// at start-up naming every family that needs it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAMILIES } from '../resources/index.ts';
import { build, constructionOrder } from '../registry.ts';
import { Runtime } from '../runtime.ts';
import { dispatch, DEFAULT_MAX_BODY_BYTES } from '../app.ts';
import { loadFixtureFile, DEFAULT_FIXTURE_PATH } from '../fixtures.ts';
import type { Entry } from '../resources/family.ts';
import { FAMILY_LIST, ROOT, importGraph } from './import-graph.ts';
import { ACME } from './helpers.ts';

const edges = importGraph(['simulator']);
const familyFolder = (file: string) => /^simulator\/resources\/([^/]+)\//.exec(file)?.[1];
/** Each family folder's key, read from its descriptor (`key: '...'` in its index.ts). */
const keyOfFolder = new Map(
  [...new Set(edges.map((e) => familyFolder(e.from)).filter((f) => f !== undefined))].map((folder) => {
    const key = /\bkey: '([^']+)'/.exec(readFileSync(join(ROOT, 'simulator/resources', folder, 'index.ts'), 'utf8'))?.[1];
    return [folder, key ?? `(no key in ${folder}/index.ts)`] as const;
  }),
);
const needsOf = new Map<string, readonly string[]>(FAMILIES.map((f) => [f.key, Object.keys(f.needs)]));

/**
 * Files outside the families that may import one of them, and why. The fixed control plane
 * creates and lists accounts (POST /_sim/accounts), so removing the accounts means editing it too;
 * every family needs the accounts anyway.
 */
const ROOT_IMPORTS: Readonly<Record<string, string>> = {
  'simulator/control-plane.ts': 'accounts',
};

/**
 * Families (resources/, not the peers: the pipeline itself asks the geo-IP peer) no other entry
 * declares a need on: each can go.
 */
const familyKeys = new Set(keyOfFolder.values());
const leaves = FAMILIES.filter((f) => familyKeys.has(f.key) && FAMILIES.every((g) => !(needsOf.get(g.key) ?? []).includes(f.key))).map((f) => f.key);

describe('removing a family: its folder and its line', () => {
  it('nothing outside a family imports it but the list and the families that need it', () => {
    const strays: string[] = [];
    for (const e of edges) {
      const to = familyFolder(e.to);
      const from = familyFolder(e.from);
      if (to === undefined || from === to || e.from === FAMILY_LIST) continue;
      const toKey = keyOfFolder.get(to)!;
      const fromKey = from === undefined ? undefined : keyOfFolder.get(from)!;
      const allowed = fromKey !== undefined ? (needsOf.get(fromKey) ?? []).includes(toKey) : ROOT_IMPORTS[e.from] === toKey;
      if (!allowed) strays.push(`${e.from} -> ${e.to} (${fromKey ?? 'not a family'} does not need ${toKey})`);
    }
    expect(strays).toEqual([]);
    expect(keyOfFolder.size).toBeGreaterThan(20);
  });

  it('has families nobody needs, the agent and SIP ones among them', () => {
    expect(leaves).toEqual(expect.arrayContaining(['agents', 'agentSdk', 'sipAuth', 'verifications', 'webhooks']));
  });

  it.each(leaves)('without %s, the rest builds, serves and snapshots', async (removed) => {
    const list = FAMILIES.filter((f) => f.key !== removed) as readonly Entry[];
    const reg = build(list);
    expect(reg.entries.map((f) => f.key)).not.toContain(removed);
    const rt = new Runtime(loadFixtureFile(DEFAULT_FIXTURE_PATH), 1, reg);
    const ask = async (method: string, url: string, body?: unknown) => {
      const res = await dispatch(rt, { maxBodyBytes: DEFAULT_MAX_BODY_BYTES }, {
        method,
        url,
        headers: { authorization: `Bearer ${ACME.key}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, json: res.body ? JSON.parse(res.body) : undefined };
    };
    expect((await ask('GET', '/_sim/health')).status).toBe(200);
    // The block lists (needed by several) answer: add a number, read it back.
    const blocked = await ask('POST', `/v1/accounts/${ACME.accountId}/blocked-callers`, { number: '010-5555-4444' });
    expect(blocked.status, JSON.stringify(blocked.json)).toBe(201);
    expect(JSON.stringify((await ask('GET', `/v1/accounts/${ACME.accountId}/blocked-callers`)).json)).toContain('01055554444');
    // The removed family's routes are gone, not broken.
    const removedOp = build(FAMILIES as readonly Entry[]).operations.find((op) => op.owner === removed)!;
    const path = removedOp.path.replace('{accountId}', ACME.accountId).replace(/\{[^}]+\}/g, 'x1');
    expect((await ask(removedOp.method, path)).json).toMatchObject({ error: `no operation at ${removedOp.method} ${path}` });
    const snapshot = rt.snapshot();
    const gone = FAMILIES.find((f) => f.key === removed)!;
    expect(Object.keys(snapshot.models)).not.toContain('snapshotKey' in gone ? gone.snapshotKey : removed);
    rt.restore(snapshot);
    expect(rt.snapshot()).toEqual(snapshot);
  });

  it('refuses a list without a needed family, naming every family that needs it', () => {
    const without = (key: string) => FAMILIES.filter((f) => f.key !== key) as readonly Entry[];
    expect(() => constructionOrder(without('voiceClones'))).toThrow('family agents needs voiceClones, which no entry of the list offers');
    const needers = FAMILIES.filter((f) => Object.keys(f.needs).includes('calls')).map((f) => f.key);
    expect(needers.length).toBeGreaterThan(1);
    expect(() => constructionOrder(without('calls'))).toThrow(`families ${needers.join(', ')} need calls, which no entry of the list offers`);
  });
});
