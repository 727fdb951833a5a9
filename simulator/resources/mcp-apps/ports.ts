// What the MCP apps family needs from others (core/scope.ts): an app is registered for an
// account that exists, and the get_usage tool answers what the usage query answers.
import type { Static } from '@sinclair/typebox';
import { port, type ModelScope } from '../../core/scope.ts';
import type { UsageQuery } from '../usage/schema.ts';

/** An account that exists, or 404 ACCOUNT_NOT_FOUND (the accounts family offers it). */
export interface AccountCheck {
  require(accountId: string): unknown;
}

/** The usage query's arguments, as getUsage's query parameters give them once coerced. */
export type UsageArgs = { [K in keyof typeof UsageQuery]?: Static<(typeof UsageQuery)[K]> };

/** The usage aggregation exactly as getUsage answers it (the usage family offers it); refusals are ApiErrors. */
export interface UsageReport {
  aggregate(accountId: string, query: UsageArgs): object;
}

export const needs = {
  accounts: port<AccountCheck>(),
  usage: port<UsageReport>(),
};

/** What the model is built from. */
export type McpAppsModelScope = ModelScope<typeof needs>;
