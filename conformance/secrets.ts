// Secrets the run knows (API keys, the control token, passwords it sent) so that no report,
// message or terminal line ever shows them, and so that the no-secret-echoed check can look
// for them in responses.

/** Request body fields whose values are secrets (write-only by the spec: passwords, MCP secrets). */
export const SECRET_FIELD = /^(password|secret|authSecret|apiKey|token|clientSecret|signingKey)$/i;

/** Shorter strings would match by chance inside ordinary text. */
const MIN_SECRET_LENGTH = 6;

export class SecretSet {
  private readonly values = new Set<string>();

  add(value: unknown): void {
    if (typeof value === 'string' && value.length >= MIN_SECRET_LENGTH) this.values.add(value);
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

  /** The first secret found in `text`, if any. */
  foundIn(text: string): string | undefined {
    for (const s of this.values) if (text.includes(s)) return s;
    return undefined;
  }

  redact(text: string): string {
    let out = text;
    // Longest first, so a secret that contains another is hidden whole.
    for (const s of [...this.values].sort((a, b) => b.length - a.length)) out = out.split(s).join('***');
    return out;
  }

  /**
   * Redacts every string (and object key) inside a JSON-like value. It walks the value rather
   * than redacting its JSON text: a numeric secret such as a one-time code "482913" would
   * otherwise also match inside a number (a duration of 1.4829131 ms) and break the JSON.
   */
  redactValue<T>(value: T): T {
    const walk = (v: unknown): unknown => {
      if (typeof v === 'string') return this.redact(v);
      if (Array.isArray(v)) return v.map(walk);
      if (v && typeof v === 'object') {
        const out: Record<string, unknown> = {};
        for (const [k, x] of Object.entries(v)) out[this.redact(k)] = walk(x);
        return out;
      }
      return v;
    };
    return walk(JSON.parse(JSON.stringify(value) ?? 'null')) as T;
  }
}
