// Accounts, their plans, add-ons, subscriptions and API keys. The public interface has no
// account operations: accounts come from the fixture or from the control plane, and every
// other resource asks this model who a key belongs to and what the account may do.
import { Table } from '../../core/store.ts';
import { defineError } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { iso, parseInstant } from '../../core/clock.ts';
import { validate } from '../../core/schema.ts';
import type { Kernel } from '../../core/ports.ts';
import type { Fixture } from '../../fixture/schema.ts';
import { AccountsStateSchema, type AccountRow, type AccountsState, type PlanRow, ACCOUNT_IDS } from './schema.ts';

/** What the model uses beyond its own tables; the descriptor passes the runtime. */
export type AccountsPorts = Pick<Kernel, 'clock' | 'random'>;

export const accountErrors = {
  ACCOUNT_NOT_FOUND: defineError({
    code: 'ACCOUNT_NOT_FOUND', status: 404, origin: 'spec',
    description: 'The account is unknown.',
  }),
  ACCOUNT_EXISTS: defineError({
    code: 'ACCOUNT_EXISTS', status: 409, origin: 'simulator',
    description: 'Control plane: an account with this id already exists.',
  }),
  API_KEY_TAKEN: defineError({
    code: 'API_KEY_TAKEN', status: 409, origin: 'simulator',
    description: 'Control plane: another account already holds this API key.',
  }),
  PLAN_NOT_FOUND: defineError({
    code: 'PLAN_NOT_FOUND', status: 400, origin: 'simulator',
    description: 'Control plane: no plan with this key is defined in the fixture.',
  }),
};

export class AccountsModel {
  accounts = new Table<AccountRow>(); // maps accountId to the account
  plans = new Table<PlanRow>(); // maps a plan key ("business") to its limits
  private keyIndex = new Map<string, string>(); // maps an API key to its accountId (derived)

  constructor(private readonly rt: AccountsPorts) {}

  loadFixture(f: Fixture): void {
    this.plans = new Table(Object.entries(f.plans).map(([id, p]) => ({ id, ...p })));
    this.accounts = new Table();
    const start = parseInstant(f.clock.start)!;
    for (const a of f.accounts) {
      this.accounts.insert({
        id: a.accountId,
        name: a.name,
        plan: a.plan,
        addons: [...(a.addons ?? [])],
        subscription: { status: a.subscription.status, startedAt: a.subscription.startedAt },
        apiKeys: [...a.apiKeys],
        ipExceptions: [...(a.ipExceptions ?? [])],
        messagingOps: { blocked: a.messagingOps?.blocked ?? false, monthlyCap: a.messagingOps?.monthlyCap ?? null },
        createdAt: iso(Math.min(start, parseInstant(a.subscription.startedAt)!)),
      });
    }
    this.reindex();
  }

  snapshot(): AccountsState {
    return { plans: [...this.plans.all()], accounts: [...this.accounts.all()] };
  }

  restore(state: unknown): void {
    validate(AccountsStateSchema, state, 'snapshot accounts', 'accounts');
    const s = state as AccountsState;
    this.plans = new Table(s.plans);
    this.accounts = new Table(s.accounts);
    this.reindex();
  }

  private reindex(): void {
    this.keyIndex = new Map();
    for (const a of this.accounts.all()) for (const k of a.apiKeys) this.keyIndex.set(k, a.id);
  }

  /** The account an API key belongs to, or undefined for an unknown key. */
  accountForKey(key: string): string | undefined {
    return this.keyIndex.get(key);
  }

  /** Every account, in creation order. */
  list(): readonly AccountRow[] {
    return this.accounts.all();
  }

  /** Every plan, in creation order. */
  listPlans(): readonly PlanRow[] {
    return this.plans.all();
  }

  get(accountId: string): AccountRow | undefined {
    return this.accounts.get(accountId);
  }

  require(accountId: string): AccountRow {
    const a = this.accounts.get(accountId);
    if (!a) throw accountErrors.ACCOUNT_NOT_FOUND(`account ${accountId} does not exist`);
    return a;
  }

  plan(accountId: string): PlanRow {
    const a = this.require(accountId);
    const p = this.plans.get(a.plan);
    if (!p) throw new Error(`account ${accountId} refers to missing plan ${a.plan}`);
    return p;
  }

  hasAddon(accountId: string, addon: string): boolean {
    return this.require(accountId).addons.includes(addon);
  }

  /** Whether the subscription is active at the current virtual instant. */
  subscriptionActive(accountId: string): boolean {
    const s = this.require(accountId).subscription;
    return s.status === 'active' && parseInstant(s.startedAt)! <= this.rt.clock.now();
  }

  /** Control plane: creates an account; omitted fields default as DESIGN.md says. */
  create(input: { accountId?: string; name?: string; plan?: string; addons?: string[]; subscription?: { status?: 'active' | 'inactive'; startedAt?: string }; apiKeys?: string[] }): AccountRow {
    const id = input.accountId ?? this.freshAccountId();
    if (this.accounts.has(id)) throw accountErrors.ACCOUNT_EXISTS(`account ${id} already exists`);
    const taken = input.apiKeys?.find((k) => this.keyIndex.has(k));
    if (taken !== undefined) throw accountErrors.API_KEY_TAKEN(`account ${this.keyIndex.get(taken)} already holds that API key`);
    const plan = input.plan ?? 'business';
    if (!this.plans.has(plan)) {
      throw accountErrors.PLAN_NOT_FOUND(`no plan named "${plan}" (plans: ${this.plans.all().map((p) => p.id).join(', ')})`);
    }
    const now = this.rt.clock.nowIso();
    const row: AccountRow = {
      id,
      name: input.name ?? id,
      plan,
      addons: [...new Set(input.addons ?? [])],
      subscription: { status: input.subscription?.status ?? 'active', startedAt: input.subscription?.startedAt ?? now },
      apiKeys: input.apiKeys ? [...new Set(input.apiKeys)] : [newId(this.rt.random, ACCOUNT_IDS.apiKey)],
      ipExceptions: [],
      messagingOps: { blocked: false, monthlyCap: null },
      createdAt: now,
    };
    this.accounts.insert(row);
    this.reindex();
    return row;
  }

  /** Control plane: defines a plan or replaces its limits; accounts on it follow at once. */
  putPlan(id: string, plan: Omit<PlanRow, 'id'>): { plan: PlanRow; created: boolean } {
    const created = !this.plans.has(id);
    const row: PlanRow = { id, ...plan };
    if (created) this.plans.insert(row);
    else this.plans.replace(row);
    return { plan: row, created };
  }

  update(
    accountId: string,
    patch: Partial<Pick<AccountRow, 'name' | 'plan' | 'addons' | 'subscription' | 'ipExceptions'>> & { messagingOps?: Partial<AccountRow['messagingOps']> },
  ): AccountRow {
    const a = this.require(accountId);
    if (patch.plan !== undefined && !this.plans.has(patch.plan)) {
      throw accountErrors.PLAN_NOT_FOUND(`no plan named "${patch.plan}"`);
    }
    const row: AccountRow = { ...a, ...patch, messagingOps: { ...a.messagingOps, ...patch.messagingOps } };
    if (patch.addons) row.addons = [...new Set(patch.addons)];
    this.accounts.replace(row);
    return row;
  }

  /** Control plane: issues another API key for the account. */
  addKey(accountId: string): string {
    const a = this.require(accountId);
    const key = newId(this.rt.random, ACCOUNT_IDS.apiKey);
    this.accounts.replace({ ...a, apiKeys: [...a.apiKeys, key] });
    this.reindex();
    return key;
  }

  /** Control plane: revokes a key; returns false when the account has no such key. */
  revokeKey(accountId: string, key: string): boolean {
    const a = this.require(accountId);
    if (!a.apiKeys.includes(key)) return false;
    this.accounts.replace({ ...a, apiKeys: a.apiKeys.filter((k) => k !== key) });
    this.reindex();
    return true;
  }

  private freshAccountId(): string {
    for (;;) {
      const id = newId(this.rt.random, ACCOUNT_IDS.account);
      if (!this.accounts.has(id)) return id;
    }
  }
}
