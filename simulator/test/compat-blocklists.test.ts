// Blocked recipients as today's SDK sends them (docs/compatibility.md): `recipient` beside the
// spec's `number`, and the email channel.
import { beforeEach, describe, expect, it } from 'vitest';
import { ACME, harness } from './helpers.ts';
import { runtimeOf } from '../internal.ts';

type H = ReturnType<typeof harness>;
const FROM = '07012340001';

describe('blocked recipients: the recipient alias', () => {
  let h: H;
  beforeEach(() => {
    h = harness();
  });

  it('creates with number and reads back recipient, and the reverse, as one entry', async () => {
    const byNumber = await h.call('POST', h.acme('/blocked-recipients'), { number: '010-2222-3333', channel: 'message' });
    expect(byNumber.status).toBe(201);
    expect(byNumber.json).toMatchObject({ number: '01022223333', recipient: '01022223333' });
    const byRecipient = await h.call('POST', h.acme('/blocked-recipients'), { recipient: '+82 10 2222 3333', channel: 'message' });
    expect(byRecipient.status).toBe(200);
    expect(byRecipient.json).toEqual(byNumber.json);

    const other = await h.call('POST', h.acme('/blocked-recipients'), { recipient: '010-4444-5555', channel: 'call' });
    expect(other.status).toBe(201);
    expect(other.json).toMatchObject({ number: '01044445555', recipient: '01044445555', channel: 'call' });
    const listed = (await h.call('GET', h.acme('/blocked-recipients?number=010-4444-5555'))).json;
    expect(listed.data.map((r: any) => r.id)).toEqual([other.json.id]);
    const listedByAlias = (await h.call('GET', h.acme('/blocked-recipients?recipient=%2B82-10-4444-5555'))).json;
    expect(listedByAlias).toEqual(listed);
    const both = (await h.call('GET', h.acme('/blocked-recipients?recipient=01044445555&number=010-4444-5555'))).json;
    expect(both).toEqual(listed);
  });

  it('refuses number and recipient that disagree, or neither, and stores nothing', async () => {
    const before = JSON.stringify(h.sim.snapshot());
    const clash = await h.call('POST', h.acme('/blocked-recipients'), { number: '01022223333', recipient: '01022223334', channel: 'message' });
    expect(clash.status).toBe(400);
    expect(clash.json.code).toBe('VALIDATION');
    expect(clash.json.errors).toEqual([{ path: 'recipient', message: 'differs from number' }]);
    const neither = await h.call('POST', h.acme('/blocked-recipients'), { channel: 'message' });
    expect(neither.status).toBe(400);
    expect(neither.json.errors).toEqual([{ path: 'number', message: 'is required' }]);
    const badAlias = await h.call('POST', h.acme('/blocked-recipients'), { recipient: 'abc', channel: 'call' });
    expect(badAlias.status).toBe(400);
    expect(badAlias.json.code).toBe('INVALID_PHONE_NUMBER');
    const listClash = await h.call('GET', h.acme('/blocked-recipients?number=01022223333&recipient=01099998888'));
    expect(listClash.status).toBe(400);
    expect(JSON.stringify(h.sim.snapshot())).toBe(before);
  });

  it('a text to a number opted out under recipient is refused', async () => {
    await h.call('POST', h.acme('/blocked-recipients'), { recipient: '010-6060-7070', channel: 'message' });
    const sent = await h.call('POST', h.acme('/messages'), { From: FROM, To: '01060607070', Body: 'hi' });
    expect(sent.status).toBe(422);
    expect(sent.json.code).toBe('recipient_blocked');
  });
});

describe('blocked recipients: the email channel', () => {
  let h: H;
  beforeEach(() => {
    h = harness();
  });

  it('stores the address lowercased, is idempotent per channel and keeps history', async () => {
    const first = await h.call('POST', h.acme('/blocked-recipients'), { recipient: ' Kim.MinJi+news@Example.COM ', channel: 'email' });
    expect(first.status).toBe(201);
    expect(first.json).toMatchObject({ number: 'kim.minji+news@example.com', recipient: 'kim.minji+news@example.com', channel: 'email', active: true });
    const again = await h.call('POST', h.acme('/blocked-recipients'), { number: 'KIM.minji+news@example.com', channel: 'email' });
    expect(again.status).toBe(200);
    expect(again.json.id).toBe(first.json.id);
    const byFilter = (await h.call('GET', h.acme('/blocked-recipients?recipient=kim.minji%2Bnews%40EXAMPLE.com'))).json;
    expect(byFilter.data.map((r: any) => r.id)).toEqual([first.json.id]);
    const emails = (await h.call('GET', h.acme('/blocked-recipients?channel=email'))).json;
    expect(emails.data.map((r: any) => r.id)).toEqual([first.json.id]);
    await h.call('DELETE', h.acme(`/blocked-recipients/${first.json.id}`));
    const renewed = await h.call('POST', h.acme('/blocked-recipients'), { recipient: 'kim.minji+news@example.com', channel: 'email' });
    expect(renewed.status).toBe(201);
    expect(renewed.json.id).not.toBe(first.json.id);
    const history = (await h.call('GET', h.acme('/blocked-recipients?channel=email&status=all'))).json;
    expect(history.meta.total).toBe(2);
  });

  it('refuses what is not an address, naming the field and the reason, and stores nothing', async () => {
    const before = JSON.stringify(h.sim.snapshot());
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ recipient: 'no-at-sign.example.com' }, 'recipient', /one local part, "@" and a domain/],
      [{ number: 'a@b@example.com' }, 'number', /before "@"/],
      [{ recipient: 'kim@localhost' }, 'recipient', /at least 2 labels/],
      [{ recipient: 'kim@exa mple.com' }, 'recipient', /domain/],
      [{ recipient: `${'a'.repeat(65)}@example.com` }, 'recipient', /at most 64/],
      [{ recipient: '01012345678' }, 'recipient', /"@"/],
    ];
    for (const [body, path, why] of cases) {
      const r = await h.call('POST', h.acme('/blocked-recipients'), { ...body, channel: 'email' });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json.code).toBe('VALIDATION');
      expect(r.json.errors[0].path).toBe(path);
      expect(r.json.errors[0].message).toMatch(why);
    }
    expect(JSON.stringify(h.sim.snapshot())).toBe(before);
  });

  it('never blocks a call or a text', async () => {
    await h.call('POST', h.acme('/blocked-recipients'), { recipient: 'someone@example.com', channel: 'email' });
    expect(runtimeOf(h.sim).blockLists.isRecipientBlocked(ACME.accountId, 'someone@example.com', 'message')).toBe(false);
    expect(runtimeOf(h.sim).blockLists.isRecipientBlocked(ACME.accountId, 'someone@example.com', 'call')).toBe(false);
    const sent = await h.call('POST', h.acme('/messages'), { From: FROM, To: '01012345678', Body: 'hi' });
    expect(sent.status).toBe(201);
  });
});
