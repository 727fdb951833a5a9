// The families' WebSocket endpoints (their `upgrades`), matched like operations by path template.
// app.ts answers upgrade requests with them; a plain GET to one of these paths is told to upgrade.
import { Router, type MatchResult } from './core/router.ts';
import type { UpgradeRoute } from './resources/family.ts';
import { registry } from './registry.ts';

type OwnedRoute = UpgradeRoute & { owner: string };

let shared: Router<OwnedRoute> | undefined;

/** The upgrade route at `path`, if any. */
export function matchUpgrade(path: string): MatchResult<OwnedRoute> {
  if (!shared) {
    const r = new Router<OwnedRoute>();
    for (const u of registry().upgrades) r.add('GET', u.path, u);
    shared = r;
  }
  return shared.match('GET', path);
}
