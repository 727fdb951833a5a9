// Live settings: what the simulator runs with that is not state (not in GET /_sim/state) but that
// the control plane can change and that decides outcomes at once (strict egress refuses a URL
// before any request; an unavailable MCP runner answers 503). A snapshot of the state dir keeps
// them beside the state, so a journal replayed after a compaction sees the settings it was
// written under; options given when restarting apply after the replay (docs/decisions.md
// "Durable state"). A setting that joins the control plane joins this list.
import type { Runtime } from '../runtime.ts';

export interface LiveSettings {
  /** Strict egress (--strict-egress, PUT /_sim/egress). */
  strictEgress: boolean;
  /** PUT /_sim/mcp/runner. */
  mcpRunner: { available: boolean; timeoutMs: number; budgetMs: number };
  /** --webhook-timeout-ms. */
  webhookTimeoutMs: number;
}

/** Options given at start that override what the state dir holds (undefined: keep it). */
export type SettingOverrides = { strictEgress?: boolean; mcpTimeoutMs?: number; webhookTimeoutMs?: number };

export function readSettings(rt: Runtime): LiveSettings {
  const r = rt.mcpRunner;
  return {
    strictEgress: rt.egress.strict,
    mcpRunner: { available: r.isAvailable, timeoutMs: r.timeoutMs, budgetMs: r.budgetMs },
    webhookTimeoutMs: rt.webhookEngine.timeoutMs,
  };
}

export function applySettings(rt: Runtime, s: LiveSettings): void {
  rt.egress.strict = s.strictEgress;
  rt.mcpRunner.isAvailable = s.mcpRunner.available;
  rt.mcpRunner.timeoutMs = s.mcpRunner.timeoutMs;
  rt.mcpRunner.budgetMs = s.mcpRunner.budgetMs;
  rt.webhookEngine.configure({ timeoutMs: s.webhookTimeoutMs });
}

/** The settings with the overrides applied. */
export function overridden(s: LiveSettings, o: SettingOverrides): LiveSettings {
  return {
    strictEgress: o.strictEgress ?? s.strictEgress,
    mcpRunner: { ...s.mcpRunner, timeoutMs: o.mcpTimeoutMs ?? s.mcpRunner.timeoutMs },
    webhookTimeoutMs: o.webhookTimeoutMs ?? s.webhookTimeoutMs,
  };
}

/** Why a stored value is not a settings object, or undefined when it is one. */
export function settingsProblem(v: unknown): string | undefined {
  const s = v as LiveSettings | undefined;
  if (!s || typeof s !== 'object') return 'settings are missing';
  if (typeof s.strictEgress !== 'boolean') return 'settings.strictEgress is not a boolean';
  const r = s.mcpRunner;
  if (!r || typeof r.available !== 'boolean' || !Number.isInteger(r.timeoutMs) || !Number.isInteger(r.budgetMs)) return 'settings.mcpRunner is incomplete';
  if (!Number.isInteger(s.webhookTimeoutMs) || s.webhookTimeoutMs <= 0) return 'settings.webhookTimeoutMs is not a positive integer';
  return undefined;
}
