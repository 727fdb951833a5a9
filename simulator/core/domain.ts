// Domain-name normalisation (spec "Email domain": case, trailing dot and internationalised
// names to punycode). One parser serves both email sender domains (host names: letters,
// digits, hyphens) and the names of the fake DNS (which also hold `_dmarc`, `_domainkey`).
// Node's WHATWG `domainToASCII` does the IDNA mapping; the label rules are checked here,
// because domainToASCII keeps empty labels and hyphen edges and silently drops a URL path.
import { domainToASCII } from 'node:url';

export interface DomainRules {
  /** Whether `_` may appear in labels (DNS owner names such as `_dmarc`); host names refuse it. */
  underscore: boolean;
  /** Fewest labels the name must have (2 for a sender domain: a bare TLD cannot send mail). */
  minLabels: number;
}

export const HOST_NAME: DomainRules = { underscore: false, minLabels: 2 };
export const DNS_NAME: DomainRules = { underscore: true, minLabels: 1 };

const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
/** An ASCII host name of two labels or more, the last starting with a letter (not an address), an optional final dot: HOST_NAME, unanchored. */
export const HOST_NAME_BODY = `(?:${LABEL}\\.)+[A-Za-z](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.?`;

const DNS_LABEL = '[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?';
/** A name of the fake DNS (DNS_NAME: underscores allowed, one label or more, the last not numeric), surrounding spaces and a final dot allowed. */
export const DNS_NAME_PATTERN = `^\\s*(?:${DNS_LABEL}\\.)*[A-Za-z_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?\\.?\\s*$`;

export const MAX_NAME_LENGTH = 253; // RFC 1035 2.3.4, in its presentation form without the root dot
export const MAX_LABEL_LENGTH = 63;

export type DomainResult = { ok: true; name: string } | { ok: false; message: string };

/** Normalises `input` (lowercase, punycode, no trailing dot) or says why it is not a name. */
export function parseDomainName(input: unknown, rules: DomainRules): DomainResult {
  if (typeof input !== 'string') return bad('must be a string');
  const text = input.trim();
  if (text === '') return bad('is empty');
  if (text.includes('@')) return bad('must be a domain only, not an email address (drop the part up to "@")');
  if (/[/:?#\\]/.test(text)) return bad('must be a bare domain name, not a URL (no scheme, port or path)');
  const allowedAscii = rules.underscore ? /[^A-Za-z0-9._-]/ : /[^A-Za-z0-9.-]/;
  const ascii = [...text].filter((c) => c.charCodeAt(0) < 0x80).join('');
  const stray = allowedAscii.exec(ascii);
  if (stray) return bad(`contains the character ${JSON.stringify(stray[0])}, which a domain name cannot hold`);

  const mapped = domainToASCII(text);
  if (mapped === '') return bad('is not a valid internationalised domain name');
  const name = mapped.endsWith('.') ? mapped.slice(0, -1) : mapped;
  if (name === '') return bad('is only a dot');
  if (name.length > MAX_NAME_LENGTH) return bad(`is ${name.length} characters long after normalisation; at most ${MAX_NAME_LENGTH}`);
  const labels = name.split('.');
  const label = rules.underscore ? /^[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?$/ : /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
  for (const l of labels) {
    if (l === '') return bad('has an empty label (two dots in a row, or a leading dot)');
    if (l.length > MAX_LABEL_LENGTH) return bad(`has a label of ${l.length} characters; at most ${MAX_LABEL_LENGTH}`);
    if (!label.test(l)) {
      return bad(`has the label "${l}": labels hold letters, digits and inner hyphens${rules.underscore ? ' (and underscores)' : ''}`);
    }
  }
  if (labels.length < rules.minLabels) return bad(`needs at least ${rules.minLabels} labels (a top-level domain alone is not enough)`);
  // WHATWG hosts whose last label is numeric are IPv4 addresses ("1.2.3" becomes 1.2.0.3).
  if (/^(?:\d+|0x[0-9a-f]*)$/.test(labels[labels.length - 1]!)) return bad('is an IP address, not a domain name');
  return { ok: true, name };
}

/** True when `name` is `ancestor` or lies under it (`a.b.example.com` under `example.com`). */
export function isWithin(name: string, ancestor: string): boolean {
  return name === ancestor || name.endsWith(`.${ancestor}`);
}

function bad(message: string): DomainResult {
  return { ok: false, message };
}
