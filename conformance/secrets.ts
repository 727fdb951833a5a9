// Secrets the run knows (API keys, the control token, passwords it sent) so that no report,
// message or terminal line ever shows them, and so that the no-secret-echoed check can look
// for them in responses.

/** Request body fields whose values are secrets (write-only by the spec: passwords, MCP secrets). */
export const SECRET_FIELD = /^(password|secret|authSecret|apiKey|token|clientSecret|signingKey)$/i;

/** Shorter strings would match by chance inside ordinary text. */
const MIN_SECRET_LENGTH = 6;

export class SecretSet {
  private readonly values = new Set<string>();
  /**
   * The secrets by their first MIN_SECRET_LENGTH characters, longest first in each bucket. A run
   * learns hundreds of secrets (most of them API keys that share a prefix) and redacts ~10^5
   * strings: one native search per prefix replaces one per secret (seconds of silence after the
   * last unit), and a new secret costs nothing (a combined pattern would be compiled again after
   * every account the run makes).
   */
  private readonly byPrefix = new Map<string, string[]>();
  /**
   * The same prefixes as an array, in the order they were first seen: occurrences() walks them for
   * every string it is given (~2*10^5 strings a run), and iterating the map made an entry pair per
   * prefix each time (about a fifth of what a kit run allocated).
   */
  private readonly prefixes: string[] = [];

  add(value: unknown): void {
    if (typeof value !== 'string' || value.length < MIN_SECRET_LENGTH || this.values.has(value)) return;
    this.values.add(value);
    const key = value.slice(0, MIN_SECRET_LENGTH);
    let bucket = this.byPrefix.get(key);
    if (!bucket) {
      bucket = [];
      this.byPrefix.set(key, bucket);
      this.prefixes.push(key);
    }
    bucket.push(value);
    bucket.sort((a, b) => b.length - a.length);
  }

  /** Adds the values of secret-named fields anywhere inside a request body. */
  addFromBody(body: unknown): void {
    if (Array.isArray(body)) body.forEach((b) => this.addFromBody(b));
    else if (body && typeof body === 'object') {
      for (const [k, v] of Object.entries(body)) {
        if (SECRET_FIELD.test(k)) this.add(v);
        else this.addFromBody(v);
      }
    }
  }

  list(): string[] {
    return [...this.values];
  }

  /** Where secrets occur in `text` ([start, end), the longest one at each start), in no particular order. */
  private occurrences(text: string, firstOnly = false): [number, number][] {
    const found: [number, number][] = [];
    if (text.length < MIN_SECRET_LENGTH) return found;
    for (const prefix of this.prefixes) {
      let at = text.indexOf(prefix);
      if (at < 0) continue;
      const bucket = this.byPrefix.get(prefix)!;
      for (; at >= 0; at = text.indexOf(prefix, at + 1)) {
        const hit = bucket.find((secret) => text.startsWith(secret, at));
        if (!hit) continue;
        found.push([at, at + hit.length]);
        if (firstOnly) return found;
      }
    }
    return found;
  }

  /** A secret found in `text`, if any. */
  foundIn(text: string): string | undefined {
    const [first] = this.occurrences(text, true);
    return first && text.slice(first[0], first[1]);
  }

  /**
   * Every character of every secret in `text` hidden: each stretch where secrets occur
   * (overlapping ones together, so neither shows a part) becomes one ***.
   */
  redact(text: string): string {
    const found = this.occurrences(text);
    if (found.length === 0) return text;
    found.sort((a, b) => a[0] - b[0]);
    let out = '';
    let copied = 0;
    for (const [start, end] of found) {
      if (start >= copied) out += `${text.slice(copied, start)}***`;
      copied = Math.max(copied, end);
    }
    return out + text.slice(copied);
  }

  /**
   * Redacts every string (and object key) inside a JSON-like value. It walks the value rather
   * than redacting its JSON text: a numeric secret such as a one-time code "482913" would
   * otherwise also match inside a number (a duration of 1.4829131 ms) and break the JSON.
   */
  redactValue<T>(value: T): T {
    // A report repeats a few dozen keys ~10^5 times: each is redacted once per call (no secret is added meanwhile).
    const keys = new Map<string, string>();
    const key = (k: string): string => {
      let out = keys.get(k);
      if (out === undefined) keys.set(k, (out = this.redact(k)));
      return out;
    };
    const walk = (v: unknown): unknown => {
      if (typeof v === 'string') return this.redact(v);
      if (Array.isArray(v)) return v.map(walk);
      if (v && typeof v === 'object') {
        const out: Record<string, unknown> = {};
        for (const [k, x] of Object.entries(v)) out[key(k)] = walk(x);
        return out;
      }
      return v;
    };
    return walk(JSON.parse(JSON.stringify(value) ?? 'null')) as T;
  }
}
