// Accounts, their plans, add-ons, subscriptions and API keys. The public interface has no
// account operations: accounts come from the fixture or from the control plane, and every
// other resource asks this model who a key belongs to and what the account may do. The runtime
// snapshots and restores the two tables (the descriptor's state part) and the fixture part
// seeds them; the model rebuilds its index of API keys after either.
import { Table } from '../../core/store.ts';
import { newId } from '../../core/ids.ts';
import { parseInstant } from '../../core/clock.ts';
import { accountErrors } from './errors.ts';
import type { AccountNumbers, AccountsModelScope } from './ports.ts';
import { type AccountRow, type PlanRow, ACCOUNT_IDS } from './schema.ts';

export { accountErrors };

export class AccountsModel {
  readonly accounts = new Table<AccountRow>(); // maps accountId to the account
  readonly plans = new Table<PlanRow>(); // maps a plan key ("business") to its limits
  private keyIndex = new Map<string, string>(); // maps an API key to its accountId (derived)
  // Who lists an account's numbers (the numbers family registers itself); none: no numbers.
  private numbers: AccountNumbers = { listFor: () => [] };

  constructor(private readonly rt: AccountsModelScope) {}

  /** Rebuilds the index of API keys from the rows (after a restore, a reset or the fixture). */
  reindex(): void {
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

  /** The numbers family lists an account's numbers through this (its control-plane view shows them). */
  useNumbers(source: AccountNumbers): void {
    this.numbers = source;
  }

  /** The account's numbers, newest first. */
  numbersOf(accountId: string): string[] {
    return this.numbers.listFor(accountId).map((n) => n.id);
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
    for (const k of row.apiKeys) this.keyIndex.set(k, id);
    return row;
  }

  /** Control plane: takes back an account made a moment ago whose creation then failed (all or nothing). */
  discard(accountId: string): void {
    const a = this.accounts.get(accountId);
    if (!a) return;
    this.accounts.delete(accountId);
    for (const k of a.apiKeys) this.keyIndex.delete(k);
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
