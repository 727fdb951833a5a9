// Recording links issued before 2026-07-28 are signed (spec Limits): the path plus `expires` and
// `signature`. The default fixture's clock starts before that date, so tests that check a link
// by its path compare with this form.
import { expect } from 'vitest';

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Matches the signed link of `path` (any expiry and signature of the documented form). */
export function signedLink(path: string) {
  return expect.stringMatching(new RegExp(`^${escape(path)}\\?expires=\\d+&signature=[0-9a-f]{64}$`));
}
