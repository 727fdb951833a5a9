// The control plane under /_sim (DESIGN "The control plane"). The first seven operations are
// the fixed contract; the rest are documented in docs/control-plane.md. Test-only
// introspection and scripting live here and nowhere else.
import { Type } from '@sinclair/typebox';
import { defineOperation, reply } from '../core/operation.ts';
import { ApiError } from '../core/errors.ts';
import { DateTime, Nullable } from '../core/schema.ts';
import { iso, parseInstant } from '../core/clock.ts';
import type { Runtime } from '../runtime.ts';
import { accountErrors } from '../resources/accounts/model.ts';
import { AccountView, CreateAccountBody, CreatedAccount, UpdateAccountBody, type AccountRow } from '../resources/accounts/schema.ts';
import { PhoneNumber } from '../resources/numbers/schema.ts';
import { numberWire } from '../resources/numbers/routes.ts';
import { blockErrors } from '../resources/blocklists/model.ts';
import {
  BlockedCaller,
  BlockedRecipient,
  CALLER_SOURCES,
  IntakeBlockedCallerBody,
  IntakeBlockedRecipientBody,
  IntakeReleaseBody,
  RECIPIENT_SOURCES,
} from '../resources/blocklists/schema.ts';

const TAG = 'Control plane';
const FIXED = 'fixed control-plane contract (DESIGN.md)';

/** What this control plane can script; the conformance kit reads it from /_sim/health. */
export const CAPABILITIES = ['clock', 'accounts', 'state', 'geoip', 'writes', 'blocklist-intake', 'dns', 'email-provider', 'carrier', 'kakao-templates', 'plans', 'webhooks'];

const Health = Type.Object(
  { status: Type.Literal('ok'), now: DateTime(), seed: Type.Integer(), capabilities: Type.Array(Type.String()) },
  { $id: 'SimHealth', additionalProperties: false },
);
const ClockView = Type.Object(
  { now: DateTime(), mode: Type.String({ description: '"manual" or "realtime".' }), speed: Nullable(Type.Number()), pendingJobs: Type.Integer() },
  { $id: 'SimClock', additionalProperties: false },
);
const AdvanceBody = Type.Object(
  {
    seconds: Type.Optional(Type.Number({ minimum: 0, maximum: 3_153_600_000, description: 'Move forward by this many seconds (at most 100 years).' })),
    to: Type.Optional(DateTime({ description: 'Move forward to this instant.' })),
  },
  { $id: 'SimAdvanceRequest', additionalProperties: false },
);
const AdvanceResult = Type.Object(
  { now: DateTime(), fired: Type.Integer({ description: 'Scheduled jobs that ran.' }) },
  { $id: 'SimAdvanceResult', additionalProperties: false },
);
const ResetBody = Type.Object({ seed: Type.Optional(Type.Integer({ minimum: 0, maximum: 4294967295 })) }, { additionalProperties: false });
const StateAck = Type.Object({ status: Type.Literal('ok'), now: DateTime(), seed: Type.Integer() }, { $id: 'SimStateAck', additionalProperties: false });
const Snapshot = Type.Object(
  {
    format: Type.String(),
    version: Type.Integer(),
    seed: Type.Integer(),
    clock: Type.Object({}, { additionalProperties: true }),
    random: Type.Array(Type.Integer()),
    models: Type.Object({}, { additionalProperties: true }),
  },
  { $id: 'SimSnapshot', description: 'All state as plain JSON; PUT it back to restore exactly.' },
);
const GeoIpView = Type.Object({ foreign: Type.Array(Type.String()) }, { $id: 'SimGeoIp', additionalProperties: false });
const ForeignBody = Type.Object({ ip: Type.String({ minLength: 1, description: 'An address or an IPv4 CIDR range.' }) }, { additionalProperties: false });
const ApiKeyView = Type.Object({ apiKey: Type.String() }, { additionalProperties: false });
const GrantNumberBody = Type.Object({ number: Type.Optional(Type.String({ minLength: 1 })) }, { additionalProperties: false });

const accountParam = { accountId: Type.String() };

function accountView(rt: Runtime, a: AccountRow) {
  return {
    accountId: a.id,
    name: a.name,
    plan: a.plan,
    addons: a.addons,
    subscription: a.subscription,
    subscriptionActive: rt.accounts.subscriptionActive(a.id),
    apiKeys: a.apiKeys,
    ipExceptions: a.ipExceptions,
    numbers: rt.numbers.listFor(a.id).map((n) => n.id),
    createdAt: a.createdAt,
  };
}

function health(rt: Runtime) {
  return { status: 'ok' as const, now: rt.nowIso(), seed: rt.seed, capabilities: CAPABILITIES };
}

export const operations = [
  defineOperation({
    operationId: 'simHealth',
    method: 'GET',
    path: '/_sim/health',
    tag: TAG,
    summary: 'Liveness, virtual time, seed and capabilities',
    origin: 'simulator',
    basis: FIXED,
    auth: 'control',
    responses: { 200: { description: 'Healthy.', schema: Health } },
    handler: (ctx) => reply.ok(health(ctx.rt)),
  }),
  defineOperation({
    operationId: 'simGetClock',
    method: 'GET',
    path: '/_sim/clock',
    tag: TAG,
    summary: 'Virtual time and clock mode',
    origin: 'simulator',
    basis: FIXED,
    auth: 'control',
    responses: { 200: { description: 'The clock.', schema: ClockView } },
    handler: ({ rt }) => {
      const m = rt.clockDriver.mode;
      return reply.ok({ now: rt.nowIso(), mode: m.kind, speed: m.kind === 'realtime' ? m.speed : null, pendingJobs: rt.clock.pendingJobs().length });
    },
  }),
  defineOperation({
    operationId: 'simAdvanceClock',
    method: 'POST',
    path: '/_sim/clock/advance',
    tag: TAG,
    summary: 'Move virtual time forward',
    description: 'Give `seconds` or `to`. Every job that falls due runs at its own instant, in due-time then creation order. Before moving past an instant, the advance waits for the webhook attempts in flight (so retries fall at their own instants); it answers once they have settled. Moving backwards is refused.',
    origin: 'simulator',
    basis: FIXED,
    auth: 'control',
    body: AdvanceBody,
    bodyRequired: true,
    responses: { 200: { description: 'The new time and the number of jobs run.', schema: AdvanceResult } },
    handler: ({ rt, body }) => {
      if ((body.seconds === undefined) === (body.to === undefined)) {
        throw ApiError.validation('give exactly one of "seconds" and "to"', [{ path: '', message: 'seconds or to' }]);
      }
      const to = body.to !== undefined ? parseInstant(body.to)! : undefined;
      // Waits, at each instant, for webhook attempts started there (core/advance.ts).
      const fired = rt.advancer.advance((now) => to ?? now + Math.round(body.seconds! * 1000));
      const answer = (n: number) => {
        rt.clockDriver.rebase();
        return reply.ok({ now: iso(rt.clock.now()), fired: n });
      };
      return fired instanceof Promise ? fired.then(answer) : answer(fired);
    },
  }),
  defineOperation({
    operationId: 'simCreateAccount',
    method: 'POST',
    path: '/_sim/accounts',
    tag: TAG,
    summary: 'Create an account with an API key',
    description: 'Omitted fields default to the business plan, an active subscription starting now and one number from the pool.',
    origin: 'simulator',
    basis: FIXED,
    auth: 'control',
    body: CreateAccountBody,
    responses: { 201: { description: 'The account, its key and its numbers.', schema: CreatedAccount } },
    errors: [accountErrors.ACCOUNT_EXISTS, accountErrors.PLAN_NOT_FOUND],
    handler: ({ rt, body }) => {
      const input = body ?? {};
      const before = rt.snapshot();
      try {
        const a = rt.accounts.create(input);
        const wanted = input.numbers ?? 1;
        const numbers = Array.isArray(wanted)
          ? wanted.map((n) => rt.numbers.grant(a.id, n).id)
          : Array.from({ length: wanted }, () => rt.numbers.grant(a.id).id);
        return reply.created({ accountId: a.id, apiKey: a.apiKeys[0]!, numbers });
      } catch (e) {
        rt.restore(before); // all or nothing: a bad number leaves no half-made account
        throw e;
      }
    },
  }),
  defineOperation({
    operationId: 'simListAccounts',
    method: 'GET',
    path: '/_sim/accounts',
    tag: TAG,
    summary: 'Every account with its keys and numbers',
    origin: 'simulator',
    auth: 'control',
    responses: { 200: { description: 'Accounts.', schema: Type.Object({ data: Type.Array(AccountView) }) } },
    handler: ({ rt }) => reply.ok({ data: rt.accounts.accounts.all().map((a) => accountView(rt, a)) }),
  }),
  defineOperation({
    operationId: 'simGetAccount',
    method: 'GET',
    path: '/_sim/accounts/{accountId}',
    tag: TAG,
    summary: 'One account with its keys and numbers',
    origin: 'simulator',
    auth: 'control',
    params: accountParam,
    responses: { 200: { description: 'The account.', schema: AccountView } },
    errors: [accountErrors.ACCOUNT_NOT_FOUND],
    handler: ({ rt, params }) => reply.ok(accountView(rt, rt.accounts.require(params.accountId))),
  }),
  defineOperation({
    operationId: 'simUpdateAccount',
    method: 'PATCH',
    path: '/_sim/accounts/{accountId}',
    tag: TAG,
    summary: 'Change plan, add-ons, subscription or overseas exceptions',
    origin: 'simulator',
    auth: 'control',
    params: accountParam,
    body: UpdateAccountBody,
    bodyRequired: true,
    responses: { 200: { description: 'The account.', schema: AccountView } },
    errors: [accountErrors.ACCOUNT_NOT_FOUND, accountErrors.PLAN_NOT_FOUND],
    handler: ({ rt, params, body }) => {
      const patch = { ...body };
      if (patch.subscription) patch.subscription = { ...patch.subscription, startedAt: iso(parseInstant(patch.subscription.startedAt)!) };
      return reply.ok(accountView(rt, rt.accounts.update(params.accountId, patch)));
    },
  }),
  defineOperation({
    operationId: 'simCreateApiKey',
    method: 'POST',
    path: '/_sim/accounts/{accountId}/api-keys',
    tag: TAG,
    summary: 'Issue another API key',
    origin: 'simulator',
    auth: 'control',
    params: accountParam,
    responses: { 201: { description: 'The new key.', schema: ApiKeyView } },
    errors: [accountErrors.ACCOUNT_NOT_FOUND],
    handler: ({ rt, params }) => reply.created({ apiKey: rt.accounts.addKey(params.accountId) }),
  }),
  defineOperation({
    operationId: 'simRevokeApiKey',
    method: 'DELETE',
    path: '/_sim/accounts/{accountId}/api-keys/{apiKey}',
    tag: TAG,
    summary: 'Revoke an API key',
    origin: 'simulator',
    auth: 'control',
    params: { ...accountParam, apiKey: Type.String() },
    responses: { 204: { description: 'Revoked; the key now gets 401.' } },
    errors: [accountErrors.ACCOUNT_NOT_FOUND],
    handler: ({ rt, params }) => {
      if (!rt.accounts.revokeKey(params.accountId, params.apiKey)) {
        throw accountErrors.ACCOUNT_NOT_FOUND(`account ${params.accountId} has no such key`);
      }
      return reply.noContent();
    },
  }),
  defineOperation({
    operationId: 'simGrantNumber',
    method: 'POST',
    path: '/_sim/accounts/{accountId}/numbers',
    tag: TAG,
    summary: 'Give the account a number without the plan and subscription checks',
    description: 'A specific free number, or the next pool number when `number` is omitted.',
    origin: 'simulator',
    auth: 'control',
    params: accountParam,
    body: GrantNumberBody,
    responses: { 201: { description: 'The number.', schema: PhoneNumber } },
    errors: [accountErrors.ACCOUNT_NOT_FOUND],
    handler: ({ rt, params, body }) => {
      rt.accounts.require(params.accountId);
      return reply.created(numberWire(rt.numbers.grant(params.accountId, body?.number)));
    },
  }),
  defineOperation({
    operationId: 'simReset',
    method: 'POST',
    path: '/_sim/reset',
    tag: TAG,
    summary: 'Back to the fixture\'s state',
    origin: 'simulator',
    basis: FIXED,
    auth: 'control',
    body: ResetBody,
    responses: { 200: { description: 'Reset.', schema: StateAck } },
    handler: ({ rt, body }) => {
      rt.reset(body?.seed ?? rt.initialSeed);
      return reply.ok({ status: 'ok', now: rt.nowIso(), seed: rt.seed });
    },
  }),
  defineOperation({
    operationId: 'simGetState',
    method: 'GET',
    path: '/_sim/state',
    tag: TAG,
    summary: 'A JSON snapshot of all state',
    origin: 'simulator',
    basis: FIXED,
    auth: 'control',
    responses: { 200: { description: 'The snapshot.', schema: Snapshot } },
    handler: ({ rt }) => reply.ok(rt.snapshot()),
  }),
  defineOperation({
    operationId: 'simPutState',
    method: 'PUT',
    path: '/_sim/state',
    tag: TAG,
    summary: 'Replace all state with a snapshot',
    description: 'An invalid snapshot is refused with 400 naming the field, and the state stays as it was.',
    origin: 'simulator',
    basis: FIXED,
    auth: 'control',
    body: Snapshot,
    bodyRequired: true,
    responses: { 200: { description: 'State is exactly the snapshot.', schema: StateAck } },
    handler: ({ rt, body }) => {
      rt.restore(body);
      return reply.ok({ status: 'ok', now: rt.nowIso(), seed: rt.seed });
    },
  }),
  defineOperation({
    operationId: 'simGetGeoIp',
    method: 'GET',
    path: '/_sim/geoip',
    tag: TAG,
    summary: 'Addresses judged foreign',
    origin: 'simulator',
    auth: 'control',
    responses: { 200: { description: 'Foreign addresses and ranges.', schema: GeoIpView } },
    handler: ({ rt }) => reply.ok({ foreign: rt.geoip.entries() }),
  }),
  defineOperation({
    operationId: 'simAddForeignIp',
    method: 'POST',
    path: '/_sim/geoip/foreign',
    tag: TAG,
    summary: 'Judge an address (or IPv4 range) foreign',
    description: 'API requests from it are then refused with overseas_ip_blocked, unless the account lists it in ipExceptions. The client address is the first X-Forwarded-For hop, else the socket address.',
    origin: 'simulator',
    auth: 'control',
    body: ForeignBody,
    bodyRequired: true,
    responses: { 201: { description: 'Marked.', schema: GeoIpView } },
    handler: ({ rt, body }) => {
      rt.geoip.add(body.ip);
      return reply.created({ foreign: rt.geoip.entries() });
    },
  }),
  defineOperation({
    operationId: 'simRemoveForeignIp',
    method: 'DELETE',
    path: '/_sim/geoip/foreign/{ip}',
    tag: TAG,
    summary: 'Judge an address domestic again',
    description: 'Percent-encode the "/" of a CIDR range (%2F).',
    origin: 'simulator',
    auth: 'control',
    params: { ip: Type.String() },
    responses: { 204: { description: 'Removed (or was not marked).' } },
    handler: ({ rt, params }) => {
      rt.geoip.remove(params.ip);
      return reply.noContent();
    },
  }),
  defineOperation({
    operationId: 'simIntakeBlockedCaller',
    method: 'POST',
    path: '/_sim/accounts/{accountId}/blocked-callers',
    tag: TAG,
    summary: 'Register a caller block through another path (console, mcp)',
    description: 'Like createBlockedCaller, but with the `source` and `createdBy` a console user or MCP client would leave.',
    origin: 'simulator',
    auth: 'control',
    params: accountParam,
    body: IntakeBlockedCallerBody,
    bodyRequired: true,
    responses: { 201: { description: 'A new entry.', schema: BlockedCaller }, 200: { description: 'The existing active entry.', schema: BlockedCaller } },
    errors: [accountErrors.ACCOUNT_NOT_FOUND],
    handler: ({ rt, params, body }) => {
      rt.accounts.require(params.accountId);
      const list = rt.blockLists.callers;
      const { row, created } = list.create(params.accountId, { number: body.number, note: body.note, source: body.source ?? 'console', createdBy: body.createdBy ?? null });
      return reply.json(created ? 201 : 200, list.wire.json(row));
    },
  }),
  defineOperation({
    operationId: 'simReleaseBlockedCaller',
    method: 'POST',
    path: '/_sim/accounts/{accountId}/blocked-callers/{blockedCallerId}/release',
    tag: TAG,
    summary: 'Release a caller block through another path',
    origin: 'simulator',
    auth: 'control',
    params: { ...accountParam, blockedCallerId: Type.String() },
    body: IntakeReleaseBody,
    responses: { 200: { description: 'The released entry.', schema: BlockedCaller } },
    errors: [accountErrors.ACCOUNT_NOT_FOUND, blockErrors.BLOCKED_CALLER_NOT_FOUND],
    handler: ({ rt, params, body }) => {
      rt.accounts.require(params.accountId);
      const source = body?.source ?? 'console';
      if (!(CALLER_SOURCES as readonly string[]).includes(source)) {
        throw ApiError.validation(`source must be one of ${CALLER_SOURCES.join(', ')}`, [{ path: 'source', message: 'unknown source' }]);
      }
      const list = rt.blockLists.callers;
      return reply.json(200, list.wire.json(list.release(params.accountId, params.blockedCallerId, { note: body?.note, source, by: body?.by ?? null })));
    },
  }),
  defineOperation({
    operationId: 'simIntakeBlockedRecipient',
    method: 'POST',
    path: '/_sim/accounts/{accountId}/blocked-recipients',
    tag: TAG,
    summary: 'Register an opt-out through an internal intake path (ars, sms, agent, console, import)',
    origin: 'simulator',
    auth: 'control',
    params: accountParam,
    body: IntakeBlockedRecipientBody,
    bodyRequired: true,
    responses: { 201: { description: 'A new entry.', schema: BlockedRecipient }, 200: { description: 'The existing active entry.', schema: BlockedRecipient } },
    errors: [accountErrors.ACCOUNT_NOT_FOUND],
    handler: ({ rt, params, body }) => {
      rt.accounts.require(params.accountId);
      const list = rt.blockLists.recipients;
      const { row, created } = list.create(params.accountId, {
        number: body.number,
        channel: body.channel,
        note: body.note,
        source: body.source ?? 'ars',
        sourceRef: body.sourceRef,
        createdBy: body.createdBy ?? null,
      });
      return reply.json(created ? 201 : 200, list.wire.json(row));
    },
  }),
  defineOperation({
    operationId: 'simReleaseBlockedRecipient',
    method: 'POST',
    path: '/_sim/accounts/{accountId}/blocked-recipients/{blockId}/release',
    tag: TAG,
    summary: 'Release an opt-out through another path (automatic release has `by` null)',
    origin: 'simulator',
    auth: 'control',
    params: { ...accountParam, blockId: Type.String() },
    body: IntakeReleaseBody,
    responses: { 200: { description: 'The released entry.', schema: BlockedRecipient } },
    errors: [accountErrors.ACCOUNT_NOT_FOUND, blockErrors.BLOCKED_RECIPIENT_NOT_FOUND],
    handler: ({ rt, params, body }) => {
      rt.accounts.require(params.accountId);
      const source = body?.source ?? 'console';
      if (!(RECIPIENT_SOURCES as readonly string[]).includes(source)) {
        throw ApiError.validation(`source must be one of ${RECIPIENT_SOURCES.join(', ')}`, [{ path: 'source', message: 'unknown source' }]);
      }
      const list = rt.blockLists.recipients;
      return reply.json(200, list.wire.json(list.release(params.accountId, params.blockId, { note: body?.note, source, by: body?.by ?? null })));
    },
  }),
];
