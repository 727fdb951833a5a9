// Accounts for a URL target given none: a target whose control plane lists its accounts (a
// served simulator, `GET /_sim/accounts`) gives its first two with a key, as `main` and `alt`,
// as the in-process target takes its fixture's first two. So `npx platform-conformance run
// --target http://127.0.0.1:4010` works against `npx platform-sim` with nothing else to set.
import type { Credentials, Target } from './target.ts';

interface ListedAccount {
  accountId?: unknown;
  apiKeys?: unknown;
}

/** The target's first two accounts with a key, or why there are none. */
export async function accountsFromControlPlane(target: Pick<Target, 'send' | 'controlToken'>): Promise<{ accounts: Map<string, Credentials> } | { why: string }> {
  const headers: Record<string, string> = target.controlToken ? { authorization: `Bearer ${target.controlToken}` } : {};
  let res;
  try {
    res = await target.send({ method: 'GET', path: '/_sim/accounts', headers });
  } catch (e) {
    return { why: `GET /_sim/accounts got no answer (${(e as Error).message})` };
  }
  const data = (res.json as { data?: unknown } | undefined)?.data;
  if (res.status !== 200 || !Array.isArray(data)) return { why: `its control plane does not list accounts (GET /_sim/accounts answered ${res.status}${res.status === 401 ? ': give the control token, CONFORMANCE_CONTROL_TOKEN' : ''})` };
  const usable = (data as ListedAccount[]).flatMap((a) => {
    const key = Array.isArray(a.apiKeys) ? a.apiKeys.find((k): k is string => typeof k === 'string' && k !== '') : undefined;
    return typeof a.accountId === 'string' && key ? [{ accountId: a.accountId, key }] : [];
  });
  if (usable.length === 0) return { why: 'its control plane lists no account with an API key' };
  const accounts = new Map<string, Credentials>([['main', usable[0]!]]);
  if (usable[1]) accounts.set('alt', usable[1]);
  return { accounts };
}
