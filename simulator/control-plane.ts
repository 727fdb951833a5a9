// The control plane's fixed contract under /_sim (DESIGN "The control plane"): health, clock,
// account creation, reset and state snapshots. The kernel contributes it (kernel.ts); every
// other /_sim route lives in the control.ts of the family or peer it serves, and all are
// documented in docs/control-plane.md. Its handlers see the runtime through the narrow
// `FixedControlScope` below (the runtime offers it: runtime.ts checks), not the whole object.
import { Type, type Static } from '@sinclair/typebox';
import { reply, scopedOperations } from './core/operation.ts';
import { ApiError, defineError, errorCodes } from './core/errors.ts';
import { DateTime, Nullable } from './core/schema.ts';
import { iso, parseInstant, type VirtualClock } from './core/clock.ts';
import type { ClockAdvancer } from './core/advance.ts';
import type { ClockDriver } from './core/realtime.ts';
import { accountErrors } from './resources/accounts/errors.ts';
import { sharedErrors } from './rules/errors.ts';
import { CreateAccountBody, CreatedAccount } from './resources/accounts/schema.ts';
import { SipListeningSchema, type SipListening } from './core/sip-listening.ts';
import { withRules } from './core/schema-rules.ts';
import type { SeededRandom } from './core/random.ts';

const TAG = 'Control plane';
const FIXED = 'fixed control-plane contract (DESIGN.md)';

const Health = Type.Object(
  { status: Type.Literal('ok'), now: DateTime(), seed: Type.Integer(), capabilities: Type.Array(Type.String()), sip: SipListeningSchema },
  { $id: 'SimHealth', additionalProperties: false },
);
const ClockView = Type.Object(
  { now: DateTime(), mode: Type.String({ description: '"manual" or "realtime".' }), speed: Nullable(Type.Number()), pendingJobs: Type.Integer() },
  { $id: 'SimClock', additionalProperties: false },
);
const AdvanceBody = withRules(
  Type.Object(
    {
      seconds: Type.Optional(Type.Number({ minimum: 0, maximum: 3_153_600_000, description: 'Move forward by this many seconds (at most 100 years).' })),
      to: Type.Optional(DateTime({ description: 'Move forward to this instant: not before now (400 VALIDATION: the clock never moves backwards).' })),
    },
    { $id: 'SimAdvanceRequest', additionalProperties: false },
  ),
  [{ description: 'Exactly one of seconds and to.', code: 'VALIDATION', schema: { oneOf: [{ required: ['seconds'], properties: { seconds: {} } }, { required: ['to'], properties: { to: {} } }] } }],
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
  { $id: 'SimSnapshot', description: 'All state as plain JSON; PUT it back to restore exactly. Only a snapshot GET /_sim/state wrote restores: `format` platform-simulator-state, its `version`, and `models` holding each family\'s state as its state schema requires (checked field by field, 400 naming the field).' },
);
/** What the fixed contract's handlers use: the clock and its driver, the state as a whole, and two families' doors. */
export interface FixedControlScope {
  readonly seed: number;
  readonly initialSeed: number;
  readonly capabilities: readonly string[];
  readonly clock: Pick<VirtualClock, 'now' | 'pendingJobs'>;
  readonly advancer: Pick<ClockAdvancer, 'advance'>;
  readonly clockDriver: Pick<ClockDriver, 'mode' | 'rebase'>;
  nowIso(): string;
  reset(seed?: number): void;
  snapshot(): unknown;
  /** Live work no snapshot can hold (an Agent SDK call in progress); a snapshot is refused meanwhile. */
  liveWork(): string[];
  restore(snapshot: unknown): void;
  /** The seeded ids: a failed account creation rewinds its draws. */
  readonly random: Pick<SeededRandom, 'state' | 'rewind'>;
  readonly accounts: { create(input: Static<typeof CreateAccountBody>): { id: string; apiKeys: string[] }; discard(accountId: string): void };
  readonly numbers: { grant(accountId: string, number?: string): { id: string }; grantCheckpoint(): () => void };
  /**
   * The SIP server family's model if it is built (none when the list lacks it): the health check
   * reads where its listener is without building it (decisions.md "Models built on first use").
   */
  builtModel(key: 'sipServer'): { readonly listening: SipListening | null } | undefined;
}

const operation = scopedOperations<FixedControlScope>();

const STATE_HAS_LIVE_CALLS = defineError({
  code: 'STATE_HAS_LIVE_CALLS', status: 409, origin: 'simulator',
  description: 'Control plane: a snapshot was asked for while an Agent SDK call is in progress (live sockets are not state); `live` names each.',
});

function health(scope: FixedControlScope) {
  return { status: 'ok' as const, now: scope.nowIso(), seed: scope.seed, capabilities: [...scope.capabilities], sip: scope.builtModel('sipServer')?.listening ?? null };
}

export const operations = [
  operation({
    operationId: 'simHealth',
    method: 'GET',
    path: '/_sim/health',
    tag: TAG,
    summary: 'Liveness, virtual time, seed and capabilities',
    origin: 'simulator',
    basis: FIXED,
    auth: 'control',
    responses: { 200: { description: 'Healthy.', schema: Health } },
    handler: (ctx) => reply.ok(health(ctx.scope)),
  }),
  operation({
    operationId: 'simGetClock',
    method: 'GET',
    path: '/_sim/clock',
    tag: TAG,
    summary: 'Virtual time and clock mode',
    origin: 'simulator',
    basis: FIXED,
    auth: 'control',
    responses: { 200: { description: 'The clock.', schema: ClockView } },
    handler: ({ scope }) => {
      const m = scope.clockDriver.mode;
      return reply.ok({ now: scope.nowIso(), mode: m.kind, speed: m.kind === 'realtime' ? m.speed : null, pendingJobs: scope.clock.pendingJobs().length });
    },
  }),
  operation({
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
    errors: [errorCodes.CLOCK_RUNAWAY],
    handler: ({ scope, body }) => {
      if ((body.seconds === undefined) === (body.to === undefined)) {
        throw ApiError.validation('give exactly one of "seconds" and "to"', [{ path: '', message: 'seconds or to' }]);
      }
      const to = body.to !== undefined ? parseInstant(body.to)! : undefined;
      // Waits, at each instant, for webhook attempts started there (core/advance.ts).
      const fired = scope.advancer.advance((now) => to ?? now + Math.round(body.seconds! * 1000));
      const answer = (n: number) => {
        scope.clockDriver.rebase();
        return reply.ok({ now: iso(scope.clock.now()), fired: n });
      };
      return fired instanceof Promise ? fired.then(answer) : answer(fired);
    },
  }),
  operation({
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
    errors: [accountErrors.ACCOUNT_EXISTS, accountErrors.API_KEY_TAKEN, accountErrors.PLAN_NOT_FOUND, errorCodes.INVALID_PHONE_NUMBER, errorCodes.UNSUPPORTED_COUNTRY, sharedErrors.NUMBER_POOL_EMPTY],
    handler: ({ scope, body }) => {
      const input = body ?? {};
      // All or nothing by taking back what creation touched (the random draws, the account's row,
      // its grants), not by copying the whole state (docs/decisions.md "Conformance kit: run time").
      const draws = scope.random.state();
      const undoGrants = scope.numbers.grantCheckpoint();
      let made: string | undefined;
      try {
        const a = scope.accounts.create(input);
        made = a.id;
        const wanted = input.numbers ?? 1;
        const numbers = Array.isArray(wanted)
          ? wanted.map((n) => scope.numbers.grant(a.id, n).id)
          : Array.from({ length: wanted }, () => scope.numbers.grant(a.id).id);
        return reply.created({ accountId: a.id, apiKey: a.apiKeys[0]!, numbers });
      } catch (e) {
        undoGrants(); // a bad number leaves no half-made account (and live work alone)
        if (made !== undefined) scope.accounts.discard(made);
        scope.random.rewind(draws);
        throw e;
      }
    },
  }),
  operation({
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
    handler: ({ scope, body }) => {
      scope.reset(body?.seed ?? scope.initialSeed);
      return reply.ok({ status: 'ok', now: scope.nowIso(), seed: scope.seed });
    },
  }),
  operation({
    operationId: 'simGetState',
    method: 'GET',
    path: '/_sim/state',
    tag: TAG,
    summary: 'A JSON snapshot of all state',
    origin: 'simulator',
    basis: FIXED,
    auth: 'control',
    description:
      'Refused with 409 STATE_HAS_LIVE_CALLS while an Agent SDK call is in progress: its sockets, media queue and the customer\'s own agent are live, not state, so no snapshot could bring it back. Ended SDK calls are ordinary call records and are in snapshots (docs/decisions.md "Agent SDK", row "Reset and snapshots").',
    responses: { 200: { description: 'The snapshot.', schema: Snapshot } },
    errors: [STATE_HAS_LIVE_CALLS],
    handler: ({ scope }) => {
      const live = scope.liveWork();
      if (live.length > 0) throw STATE_HAS_LIVE_CALLS(`a snapshot cannot hold live work: ${live.join('; ')}; end it (or take the snapshot before or after)`, { live });
      return reply.ok(scope.snapshot());
    },
  }),
  operation({
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
    snapshotBody: true,
    responses: { 200: { description: 'State is exactly the snapshot.', schema: StateAck } },
    handler: ({ scope, body }) => {
      scope.restore(body);
      return reply.ok({ status: 'ok', now: scope.nowIso(), seed: scope.seed });
    },
  }),
];
