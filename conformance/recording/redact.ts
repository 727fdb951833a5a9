// What a recording never holds: API keys and other bearer credentials, webhook signatures
// (X-Signature), MCP secrets, SIP passwords, tokens and signed-link signatures, cookies. Each
// secret value becomes a placeholder `[secret:N]`, the same N wherever the same value shows up
// in the recording (a header, a JSON or form field, a query parameter, inside a longer string),
// so a replay can tell which key a request used and follow a key an answer handed out without
// ever knowing it. Signatures and cookies differ on every message: they become `[redacted]`.
import { SECRET_FIELD } from '../secrets.ts';

/** Fields whose values are secrets, beyond the kit's own list: what the platform's bodies call them. */
const MORE_SECRET_FIELDS = /^(authorization|credential|sipPassword|mediaToken|accessToken|refreshToken|privateKey)$/i;
/** Query parameters that carry secrets (media tokens, signed links, keys). */
const SECRET_QUERY = /^(token|signature|sig|key|api_?key|secret|password|access_token)$/i;
/** Headers redacted whole, every time: per-message signatures and cookies. */
const OPAQUE_HEADERS = new Set(['x-signature', 'cookie', 'set-cookie', 'proxy-authorization']);
/** Headers whose value is a credential (kept apart by placeholder). */
const CREDENTIAL_HEADERS = new Set(['authorization', 'x-api-key']);
/** Shorter values would be replaced by chance inside ordinary text. */
const MIN_SECRET = 6;

export const REDACTED = '[redacted]';
const PLACEHOLDER = /^\[secret:(\d+)\]$/;

export function isSecretField(name: string): boolean {
  return SECRET_FIELD.test(name) || MORE_SECRET_FIELDS.test(name);
}

/** The number of a `[secret:N]` placeholder, or undefined. */
export function placeholderNumber(value: string): number | undefined {
  const m = PLACEHOLDER.exec(value);
  return m ? Number(m[1]) : undefined;
}

export class Redactor {
  private readonly numbers = new Map<string, number>(); // maps a secret value to its placeholder number

  /** The placeholder of a secret value (a new number for a value not seen before). */
  placeholder(value: string): string {
    let n = this.numbers.get(value);
    if (n === undefined) this.numbers.set(value, (n = this.numbers.size + 1));
    return `[secret:${n}]`;
  }

  header(name: string, value: string): string {
    const n = name.toLowerCase();
    if (OPAQUE_HEADERS.has(n)) return REDACTED;
    if (CREDENTIAL_HEADERS.has(n)) {
      const m = /^(\w+)\s+(.+)$/.exec(value.trim());
      return m ? `${m[1]} ${this.placeholder(m[2]!)}` : this.placeholder(value.trim());
    }
    return this.known(value);
  }

  headers(h: Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(h)) out[k] = this.header(k, v);
    return out;
  }

  /** Path and query: secret parameters' values become placeholders. */
  path(p: string): string {
    const q = p.indexOf('?');
    if (q === -1) return this.known(p);
    const params = new URLSearchParams(p.slice(q + 1));
    const kept: string[] = [];
    for (const [k, v] of params) kept.push(`${encodeURIComponent(k)}=${SECRET_QUERY.test(k) && v.length > 0 ? this.placeholder(v) : encodeURIComponent(this.known(v))}`);
    return `${this.known(p.slice(0, q))}?${kept.join('&')}`;
  }

  /** A text body by its content type: JSON and form fields named like secrets, then every secret already known. */
  body(text: string, contentType: string | undefined): string {
    if (/json/i.test(contentType ?? '') || /^\s*[[{]/.test(text)) {
      try {
        return JSON.stringify(this.json(JSON.parse(text)));
      } catch {
        // JSON that does not parse (a body cut at the limit): its secret fields by pattern
        return this.known(this.jsonPairs(text));
      }
    }
    if (/x-www-form-urlencoded/i.test(contentType ?? '')) {
      const form = new URLSearchParams(text);
      const out = new URLSearchParams();
      for (const [k, v] of form) out.append(k, isSecretField(k) && v.length > 0 ? this.placeholder(v) : this.known(v));
      return out.toString();
    }
    return this.known(text);
  }

  private json(v: unknown): unknown {
    if (typeof v === 'string') return this.known(v);
    if (Array.isArray(v)) return v.map((x) => this.json(x));
    if (v && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) out[k] = isSecretField(k) && typeof x === 'string' && x.length > 0 ? this.placeholder(x) : this.json(x);
      return out;
    }
    return v;
  }

  /** `"field": "value"` pairs of secret fields in JSON text that does not parse. */
  private jsonPairs(text: string): string {
    return text.replace(/"([A-Za-z_]+)"(\s*:\s*)"((?:[^"\\]|\\.)+)"/g, (pair, name: string, colon: string, value: string) => (isSecretField(name) ? `"${name}"${colon}"${this.placeholder(value)}"` : pair));
  }

  /** Every secret already known, wherever it occurs in the text (a key inside a URL, say). */
  private known(text: string): string {
    if (text.length < MIN_SECRET) return text;
    let out = text;
    for (const [value, n] of this.numbers) if (value.length >= MIN_SECRET && out.includes(value)) out = out.split(value).join(`[secret:${n}]`);
    return out;
  }
}
