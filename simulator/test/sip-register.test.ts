// SIP clients register over the wire (UDP and TCP on loopback): digest with SHA-256 and MD5
// against the account's credentials, the IP ACL on the source address, disabled credentials
// refused at once, lastUsedAt, bindings that expire on the virtual clock, nonces that cannot be
// replayed, and the registrar's refusals, each with nothing stored.
import { describe, expect, it } from 'vitest';
import { ACME } from './helpers.ts';
import { PASSWORD, sipListening } from './sip-listening.ts';
import { REALM } from './sip-auth-helpers.ts';
import { SipTestClient, challengeParams, digestAnswer, register } from './sip-client.ts';

const { h, state, credential } = sipListening();

const registrations = async (q = '') => (await h.sim.control.request<{ listening: unknown; data: any[] }>('GET', `/sip/registrations${q}`)).data;

describe('the SIP listener', () => {
  it('listens on UDP and TCP on loopback, shown in /_sim/health and the registrations route', async () => {
    const health = await h.sim.control.health();
    expect(health.sip).toEqual({ host: '127.0.0.1', udp: state.sip.udp, tcp: state.sip.tcp });
    expect(state.sip.udp).toBeGreaterThan(0);
    expect(state.sip.tcp).toBe(state.sip.udp);
    expect((await h.sim.control.request<{ listening: unknown }>('GET', '/sip/registrations')).listening).toEqual(health.sip);
    await expect(h.sim.listenSip(0)).rejects.toThrow(/already runs/);
  });

  it('answers OPTIONS with what it allows; BYE and CANCEL without a dialog 481; an unknown method 501', async () => {
    const base = { uri: `sip:${REALM}`, from: '<sip:x@example.com>;tag=1', to: `<sip:${REALM}>`, callId: 'opt@test', cseq: 1 };
    const options = await state.udp.request({ ...base, method: 'OPTIONS' });
    expect(options.status).toBe(200);
    expect(options.get('allow')).toBe('REGISTER, INVITE, ACK, BYE, CANCEL, OPTIONS, REFER');
    expect(options.get('to')).toMatch(/;tag=[0-9a-f]{16}$/);
    expect(options.get('via')).toBe(`SIP/2.0/UDP 127.0.0.1:${state.udp.localPort};branch=${/branch=([^;]+)/.exec(options.get('via')!)![1]};rport=${state.udp.localPort};received=127.0.0.1`);
    expect((await state.udp.request({ ...base, method: 'BYE' })).status).toBe(481);
    expect((await state.udp.request({ ...base, method: 'CANCEL' })).status).toBe(481);
    const sub = await state.udp.request({ ...base, method: 'SUBSCRIBE' });
    expect(sub.status).toBe(501);
    expect(sub.get('allow')).toContain('REGISTER');
  });
});

describe('REGISTER with digest', () => {
  it('challenges with SHA-256 then MD5 (qop auth, one nonce) and registers with either; lastUsedAt and the binding are recorded', async () => {
    const c = await credential();
    for (const algorithm of ['SHA-256', 'MD5'] as const) {
      const { challenge, final } = await register(state.udp, { username: 'desk_01', password: PASSWORD, realm: REALM, algorithm, expires: 600, callId: `reg-${algorithm}` });
      expect(challenge.status).toBe(401);
      const offers = challenge.all('www-authenticate').map(challengeParams);
      expect(offers.map((o) => o.algorithm)).toEqual(['SHA-256', 'MD5']);
      expect(offers[0]!.nonce).toBe(offers[1]!.nonce);
      expect(offers.every((o) => o.realm === REALM && o.qop === 'auth')).toBe(true);
      expect(final.status, final.text).toBe(200);
      expect(final.get('contact')).toBe(`<sip:desk_01@127.0.0.1:${state.udp.localPort}>;expires=600`);
      expect(final.get('date')).toBe(new Date(h.sim.clock.now()).toUTCString());
    }
    const got = (await h.call('GET', h.acme(`/sip-credentials/${c.id}`))).json;
    expect(got.lastUsedAt).toBe(h.sim.clock.now());
    const [binding] = await registrations(`?credentialId=${c.id}`);
    expect(binding).toMatchObject({
      accountId: ACME.accountId,
      credentialId: c.id,
      username: 'desk_01',
      aor: `sip:desk_01@${REALM}`,
      contact: `sip:desk_01@127.0.0.1:${state.udp.localPort}`,
      cseq: 2,
      expires: 600,
      transport: 'udp',
      sourceAddress: '127.0.0.1',
      sourcePort: state.udp.localPort,
    });
    expect(binding.id).toMatch(/^RB[0-9a-f]{32}$/);
  });

  it('refuses a replayed answer (same nonce and count) with a fresh challenge marked stale, and changes nothing', async () => {
    await credential();
    const { challenge, callId } = await register(state.udp, { username: 'desk_01', password: PASSWORD, realm: REALM, expires: 600 });
    const uri = `sip:${REALM}`;
    const auth = digestAnswer({ challenge: challenge.all('www-authenticate')[0]!, username: 'desk_01', password: PASSWORD, method: 'REGISTER', uri });
    const base = { method: 'REGISTER', uri, from: `<sip:desk_01@${REALM}>;tag=r`, to: `<sip:desk_01@${REALM}>`, callId };
    const before = JSON.stringify(h.sim.snapshot());
    const replay = await state.udp.request({ ...base, cseq: 3, headers: [['Contact', '<sip:desk_01@127.0.0.1:9>'], ['Expires', '600'], ['Authorization', auth]] });
    expect(replay.status).toBe(401);
    expect(replay.all('www-authenticate').every((v) => /stale=true/.test(v))).toBe(true);
    expect(JSON.stringify(h.sim.snapshot())).toBe(before);
    // The next count of the same nonce is good.
    const next = digestAnswer({ challenge: challenge.all('www-authenticate')[0]!, username: 'desk_01', password: PASSWORD, method: 'REGISTER', uri, nc: 2 });
    expect((await state.udp.request({ ...base, cseq: 4, headers: [['Contact', '<sip:desk_01@127.0.0.1:9>'], ['Expires', '600'], ['Authorization', next]] })).status).toBe(200);
  });

  it('refuses a wrong password, an unknown user and a source outside the ACL with 403 and a Warning; nothing stored', async () => {
    const acl = (await h.call('POST', h.acme('/sip-ip-acls'), { name: 'office', cidrs: ['203.0.113.0/24'] })).json;
    const c = await credential({ ipAclId: acl.id });
    const before = JSON.stringify(h.sim.snapshot());
    const cases: [string, string, RegExp][] = [
      ['desk_01', 'wrong password!!', /wrong password/],
      ['nobody_here', PASSWORD, /unknown user nobody_here/],
      ['desk_01', PASSWORD, /outside the credential's IP ACL/],
    ];
    for (const [username, password, why] of cases) {
      const { final } = await register(state.udp, { username, password, realm: REALM });
      expect(final.status, username).toBe(403);
      expect(final.get('warning')).toMatch(why);
    }
    expect(JSON.stringify(h.sim.snapshot())).toBe(before);
    // Let the loopback in: the same credential now registers.
    await h.call('PUT', h.acme(`/sip-ip-acls/${acl.id}`), { cidrs: ['127.0.0.0/8'] });
    expect((await register(state.udp, { username: 'desk_01', password: PASSWORD, realm: REALM })).final.status).toBe(200);
    expect((await registrations(`?credentialId=${c.id}`)).length).toBe(1);
  });

  it('refuses a credential disabled a moment ago at its next request, and takes it back when active again', async () => {
    const c = await credential();
    expect((await register(state.udp, { username: 'desk_01', password: PASSWORD, realm: REALM })).final.status).toBe(200);
    await h.call('PUT', h.acme(`/sip-credentials/${c.id}`), { status: 'disabled' });
    const refused = (await register(state.udp, { username: 'desk_01', password: PASSWORD, realm: REALM })).final;
    expect(refused.status).toBe(403);
    expect(refused.get('warning')).toMatch(/disabled/);
    await h.call('PUT', h.acme(`/sip-credentials/${c.id}`), { status: 'active' });
    expect((await register(state.udp, { username: 'desk_01', password: PASSWORD, realm: REALM })).final.status).toBe(200);
  });

  it('finds the realm from the username when To names no realm, and answers 404 when it cannot', async () => {
    await credential();
    const byUser = await register(state.udp, { username: 'desk_01', password: PASSWORD, realm: '127.0.0.1' });
    expect(challengeParams(byUser.challenge.all('www-authenticate')[0]!).realm).toBe(REALM);
    const nobody = await register(state.udp, { username: 'nobody_here', password: PASSWORD, realm: '127.0.0.1' });
    expect(nobody.final.status).toBe(404);
  });

  it('lets a login bind only its own address-of-record', async () => {
    await credential();
    await credential({ username: 'desk_02', name: 'other' });
    const { challenge } = await register(state.udp, { username: 'desk_02', password: PASSWORD, realm: REALM });
    const uri = `sip:${REALM}`;
    const auth = digestAnswer({ challenge: challenge.all('www-authenticate')[0]!, username: 'desk_01', password: PASSWORD, method: 'REGISTER', uri, nc: 2 });
    const r = await state.udp.request({ method: 'REGISTER', uri, from: `<sip:desk_02@${REALM}>;tag=x`, to: `<sip:desk_02@${REALM}>`, callId: 'steal@test', cseq: 2, headers: [['Contact', '<sip:x@127.0.0.1:9>'], ['Authorization', auth]] });
    expect(r.status).toBe(403);
    expect(r.get('warning')).toMatch(/may register only sip:desk_01@/);
  });

  it('registers a WebRTC token\'s ephemeral login for its parent credential', async () => {
    const c = await credential();
    const token = (await h.call('POST', h.acme(`/sip-credentials/${c.id}/tokens`), {})).json;
    const claims = JSON.parse(Buffer.from(token.token.split('.')[1], 'base64url').toString());
    const { final } = await register(state.udp, { username: claims.sip_username, password: claims.sip_password, realm: REALM });
    expect(final.status, final.text).toBe(200);
    expect((await registrations(`?credentialId=${c.id}`))[0].username).toBe(claims.sip_username);
  });
});

describe('bindings on the virtual clock', () => {
  it('expire when the clock passes their expiry; a refresh moves it; Expires 0 and Contact * remove them', async () => {
    await credential();
    const reg = (o: Partial<Parameters<typeof register>[1]>) => register(state.udp, { username: 'desk_01', password: PASSWORD, realm: REALM, ...o });
    expect((await reg({ expires: 60 })).final.status).toBe(200);
    await h.sim.clock.advance({ seconds: 59 });
    expect(await registrations()).toHaveLength(1);
    await h.sim.clock.advance({ seconds: 1 });
    expect(await registrations()).toEqual([]);

    const first = await reg({ expires: 120, callId: 'keep@test' });
    await h.sim.clock.advance({ seconds: 100 });
    const again = await reg({ expires: 120, callId: 'keep@test', cseq: 3 });
    expect(again.final.get('contact')).toMatch(/;expires=120$/);
    await h.sim.clock.advance({ seconds: 100 });
    const [kept] = await registrations();
    expect(kept.registeredAt).not.toBe(kept.refreshedAt);
    expect(first.final.status).toBe(200);

    await reg({ expires: 600, contact: 'sip:desk_01@127.0.0.1:7777', callId: 'second@test' });
    expect(await registrations()).toHaveLength(2);
    const gone = await reg({ expires: 0, contact: 'sip:desk_01@127.0.0.1:7777', callId: 'second@test', cseq: 3 });
    expect(gone.final.status).toBe(200);
    expect(await registrations()).toHaveLength(1);
  });

  it('answers 423 with Min-Expires below 60 s and shortens above 3600 s; a CSeq not higher is refused', async () => {
    await credential();
    const brief = await register(state.udp, { username: 'desk_01', password: PASSWORD, realm: REALM, expires: 30 });
    expect(brief.final.status).toBe(423);
    expect(brief.final.get('min-expires')).toBe('60');
    const long = await register(state.udp, { username: 'desk_01', password: PASSWORD, realm: REALM, expires: 86400, callId: 'long@test', cseq: 10 });
    expect(long.final.get('contact')).toMatch(/;expires=3600$/);
    const old = await register(state.udp, { username: 'desk_01', password: PASSWORD, realm: REALM, callId: 'long@test', cseq: 5 });
    expect(old.final.status).toBe(400);
    expect(old.final.get('warning')).toMatch(/CSeq 6 is not higher than 11/);
  });

  it('removes every binding with Contact: * and Expires: 0', async () => {
    await credential();
    await register(state.udp, { username: 'desk_01', password: PASSWORD, realm: REALM, contact: 'sip:a@127.0.0.1:1000', callId: 'a@test' });
    await register(state.udp, { username: 'desk_01', password: PASSWORD, realm: REALM, contact: 'sip:b@127.0.0.1:1000', callId: 'b@test' });
    expect(await registrations()).toHaveLength(2);
    const { challenge } = await register(state.udp, { username: 'desk_01', password: PASSWORD, realm: REALM, contact: 'sip:c@127.0.0.1:1000', callId: 'c@test' });
    const uri = `sip:${REALM}`;
    const auth = digestAnswer({ challenge: challenge.all('www-authenticate')[0]!, username: 'desk_01', password: PASSWORD, method: 'REGISTER', uri, nc: 5 });
    const base = { method: 'REGISTER', uri, from: `<sip:desk_01@${REALM}>;tag=s`, to: `<sip:desk_01@${REALM}>`, callId: 'star@test', cseq: 1 };
    expect((await state.udp.request({ ...base, headers: [['Contact', '*'], ['Expires', '5'], ['Authorization', auth]] })).status).toBe(400);
    const auth2 = digestAnswer({ challenge: challenge.all('www-authenticate')[0]!, username: 'desk_01', password: PASSWORD, method: 'REGISTER', uri, nc: 6 });
    const r = await state.udp.request({ ...base, cseq: 2, headers: [['Contact', '*'], ['Expires', '0'], ['Authorization', auth2]] });
    expect(r.status, r.text).toBe(200);
    expect(r.get('contact')).toBeUndefined();
    expect(await registrations()).toEqual([]);
  });

  it('keeps bindings in snapshots and drops them on reset', async () => {
    await credential();
    await register(state.udp, { username: 'desk_01', password: PASSWORD, realm: REALM, expires: 60 });
    const snap = h.sim.snapshot();
    await h.sim.control.reset();
    await credential();
    expect(await registrations()).toEqual([]);
    h.sim.restore(snap);
    expect(await registrations()).toHaveLength(1);
    await h.sim.clock.advance({ seconds: 60 });
    expect(await registrations()).toEqual([]);
  });
});

describe('over TCP', () => {
  it('registers on a connection, answers two messages sent in one chunk and one split in pieces, and pongs a CRLF ping', async () => {
    await credential();
    const tcp = await SipTestClient.tcp(state.sip.tcp);
    try {
      const { final } = await register(tcp, { username: 'desk_01', password: PASSWORD, realm: REALM });
      expect(final.status, final.text).toBe(200);
      expect((await registrations())[0].transport).toBe('tcp');
      const opt = (n: number) => tcp.build({ method: 'OPTIONS', uri: `sip:${REALM}`, from: '<sip:a@b>;tag=1', to: `<sip:${REALM}>`, callId: `tcp-${n}`, cseq: n });
      tcp.sendRaw(opt(1) + opt(2));
      expect((await tcp.next()).get('call-id')).toBe('tcp-1');
      expect((await tcp.next()).get('call-id')).toBe('tcp-2');
      const text = opt(3);
      tcp.sendRaw(text.slice(0, 10));
      tcp.sendRaw(text.slice(10, 100));
      tcp.sendRaw(text.slice(100));
      expect((await tcp.next()).get('call-id')).toBe('tcp-3');
      tcp.sendRaw('\r\n\r\n');
      expect(await tcp.nextRaw()).toBe('\r\n');
    } finally {
      tcp.close();
    }
  });
});
