// Property (fast-check, fixed seed from setup.ts): random sequences of create, clock moves, revoke,
// finalize and a double finalize at the same instant agree with the state table, every refusal
// changes nothing, and the account holds exactly one number per consumed link (single use).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { harness } from './helpers.ts';

type Status = 'pending' | 'consumed' | 'expired' | 'revoked';
type Cmd = { kind: 'create'; ttl: number } | { kind: 'advance'; seconds: number } | { kind: 'revoke'; i: number } | { kind: 'finalize'; i: number; twice: boolean };

const CONSENTS = { items: ['management.terms', 'management.account', 'management.privacy', 'management.thirdParty'].map((clauseKey) => ({ clauseKey, agreed: true })) };

const cmd: fc.Arbitrary<Cmd> = fc.oneof(
  fc.constantFrom(60, 120, 300).map((ttl) => ({ kind: 'create' as const, ttl })),
  fc.constantFrom(30, 60, 61, 150).map((seconds) => ({ kind: 'advance' as const, seconds })),
  fc.nat(10).map((i) => ({ kind: 'revoke' as const, i })),
  fc.tuple(fc.nat(10), fc.boolean()).map(([i, twice]) => ({ kind: 'finalize' as const, i, twice })),
);

describe('assignment links, property', () => {
  it('sequences of create, expire, revoke and finalize follow the state table; one number per consumed link', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(cmd, { minLength: 1, maxLength: 14 }), async (cmds) => {
        const h = harness();
        const baseline = (await h.call('GET', h.acme('/numbers'))).json.data.length;
        const links: { token: string; status: Status; expiresAt: number }[] = [];
        let now = 0;
        const session = (token: string, path: string, body?: unknown) => h.call('POST', `/v1/assignment-sessions/${token}${path}`, body, { key: null });
        for (const c of cmds) {
          if (c.kind === 'create') {
            const r = await h.call('POST', h.acme('/assignment-links'), { ttlSeconds: c.ttl });
            expect(r.status).toBe(201);
            links.push({ token: r.json.token, status: 'pending', expiresAt: now + c.ttl });
          } else if (c.kind === 'advance') {
            now += c.seconds;
            await h.sim.clock.advance({ seconds: c.seconds });
            for (const l of links) if (l.status === 'pending' && l.expiresAt <= now) l.status = 'expired';
          } else if (links.length > 0) {
            const l = links[c.i % links.length]!;
            const before = JSON.stringify(h.sim.snapshot());
            if (c.kind === 'revoke') {
              const r = await h.call('DELETE', h.acme(`/assignment-links/${l.token}`));
              if (l.status === 'pending') {
                expect(r.status).toBe(200);
                l.status = 'revoked';
              } else {
                expect([r.status, r.json.code, r.json.status]).toEqual([409, 'NOT_PENDING', l.status]);
                expect(JSON.stringify(h.sim.snapshot())).toBe(before);
              }
            } else if (l.status !== 'pending') {
              const r = await session(l.token, '/subscriber-type', { subscriberType: 'individual' });
              expect([r.status, r.json.code]).toEqual(l.status === 'consumed' ? [409, 'ASSIGNMENT_SESSION_USED'] : [410, 'ASSIGNMENT_SESSION_GONE']);
              expect(JSON.stringify(h.sim.snapshot())).toBe(before);
            } else {
              await session(l.token, '/subscriber-type', { subscriberType: 'individual' });
              await session(l.token, '/consents', CONSENTS);
              const iv = (await session(l.token, '/identity-verifications')).json.identityVerificationId;
              await h.sim.control.request('POST', `/kyc/verifications/${iv}/complete`, { name: '홍길동', birthDate: '1990-01-01' });
              expect((await session(l.token, '/identity-verifications/resume')).status).toBe(200);
              const tries = c.twice ? [session(l.token, '/finalize'), session(l.token, '/finalize')] : [session(l.token, '/finalize')];
              const statuses = (await Promise.all(tries)).map((r) => r.status).sort();
              expect(statuses).toEqual(c.twice ? [201, 409] : [201]);
              l.status = 'consumed';
            }
          }
          for (const l of links) expect((await h.call('GET', h.acme(`/assignment-links/${l.token}`))).json.status).toBe(l.status);
          const held = (await h.call('GET', h.acme('/numbers'))).json.data.length - baseline;
          expect(held).toBe(links.filter((l) => l.status === 'consumed').length);
        }
        await h.sim.close();
      }),
      { numRuns: 40 },
    );
  }, 120_000);
});
