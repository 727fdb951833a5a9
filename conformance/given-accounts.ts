// The accounts a run was given survive a whole-target reset. A reset returns a simulator to its
// fixture, which forgets accounts made through POST /_sim/accounts; a resetting scenario would
// otherwise leave every later request (and its own probes, which use the second account) with a
// key the target no longer knows. Before such a scenario the kit reads the given accounts and the
// plans they are on; after each reset it makes again those that are gone, with their keys,
// numbers and settings (POST /_sim/accounts with `apiKeys`, PATCH for the rest).
import type { RunContext } from './scenario/run-context.ts';
import type { WireResponse } from './target.ts';

interface AccountView {
  accountId: string;
  name?: string;
  plan?: string;
  addons?: string[];
  subscription?: { status?: string; startedAt?: string };
  apiKeys?: string[];
  ipExceptions?: string[];
  messagingOps?: Record<string, unknown>;
  numbers?: string[];
}

interface PlanView {
  planId: string;
  name: string;
  lineLimit: number;
  monthlyMessageQuota: Record<string, number>;
}

export interface GivenAccounts {
  accounts: AccountView[];
  plans: PlanView[];
}

async function control(ctx: RunContext, method: string, path: string, body?: unknown): Promise<WireResponse> {
  const headers: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json' };
  if (ctx.target.controlToken) headers.authorization = `Bearer ${ctx.target.controlToken}`;
  return ctx.target.send({ method, path: `/_sim${path}`, headers, body: body === undefined ? undefined : JSON.stringify(body) });
}

/** The given accounts as the control plane shows them now. */
export async function readGivenAccounts(ctx: RunContext): Promise<GivenAccounts> {
  const accounts: AccountView[] = [];
  for (const { accountId } of ctx.target.accounts.values()) {
    const res = await control(ctx, 'GET', `/accounts/${encodeURIComponent(accountId)}`);
    if (res.status !== 200) throw new Error(`GET /_sim/accounts/${accountId} answered ${res.status}`);
    accounts.push(res.json as AccountView);
  }
  const plans = await control(ctx, 'GET', '/plans');
  return { accounts, plans: (plans.json as { data?: PlanView[] } | undefined)?.data ?? [] };
}

/** Makes again the given accounts a reset removed; answers what went wrong, or undefined. */
export async function remakeGivenAccounts(ctx: RunContext, given: GivenAccounts): Promise<string | undefined> {
  let plansNow: PlanView[] | undefined;
  for (const a of given.accounts) {
    if ((await control(ctx, 'GET', `/accounts/${encodeURIComponent(a.accountId)}`)).status === 200) continue;
    plansNow ??= ((await control(ctx, 'GET', '/plans')).json as { data?: PlanView[] } | undefined)?.data ?? [];
    // A plan defined through the control plane went with the reset too.
    const plan = plansNow.some((p) => p.planId === a.plan) ? undefined : given.plans.find((p) => p.planId === a.plan);
    if (plan) await control(ctx, 'PUT', `/plans/${encodeURIComponent(plan.planId)}`, { name: plan.name, lineLimit: plan.lineLimit, monthlyMessageQuota: plan.monthlyMessageQuota });
    const body = { accountId: a.accountId, name: a.name, plan: a.plan, addons: a.addons, subscription: a.subscription, apiKeys: a.apiKeys, numbers: a.numbers ?? [] };
    const made = await control(ctx, 'POST', '/accounts', body);
    if (made.status !== 201) return `the account ${a.accountId} the run was given could not be made again after the reset: POST /_sim/accounts answered ${made.status} ${made.text.slice(0, 200)}`;
    const patched = await control(ctx, 'PATCH', `/accounts/${encodeURIComponent(a.accountId)}`, { ipExceptions: a.ipExceptions ?? [], ...(a.messagingOps ? { messagingOps: a.messagingOps } : {}) });
    if (patched.status !== 200) return `the settings of ${a.accountId} could not be put back after the reset: PATCH answered ${patched.status}`;
  }
  return undefined;
}
