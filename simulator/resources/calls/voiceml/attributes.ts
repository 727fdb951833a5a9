// Reading a VoiceML verb's attributes and nested elements (the walker's vocabulary): defaults
// and bounds, whole numbers, methods, booleans, key sets, Say's voice and language, Gather's
// settings and prompt, Connect's stream and Dial's target. Each refusal is an AttrError naming
// the verb and attribute as written, which the walker turns into the call's error end. Choices
// where the guides are silent are in docs/decisions.md "VoiceML".
import { PROVIDER_ALIASES, VOICE_PROVIDERS } from '../../call-flows/schema.ts';
import type { Nested, Verb } from './document.ts';

export const DEFAULTS = {
  pauseLength: 1,
  gatherTimeout: 5,
  gatherFinishOnKey: '#',
  recordMaxLength: 60,
  recordFinishOnKey: '1234567890*#',
  dialTimeout: 30,
  loop: 1,
} as const;
export const BOUNDS = { pause: [1, 600], gatherTimeout: [1, 60], numDigits: [1, 20], maxLength: [1, 600], dialTimeout: [5, 120], loop: [1, 10] } as const;
const KEYS = '0123456789*#';
const LANGUAGE = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;


export class AttrError extends Error {}

export function intAttr(v: Verb | Nested, name: string, fallback: number, [min, max]: readonly [number, number]): number {
  const raw = v.attrs[name];
  if (raw === undefined) return fallback;
  if (!/^\d{1,6}$/.test(raw.trim())) throw new AttrError(`<${v.name} ${name}="${raw}"> is not a whole number`);
  const n = Number(raw.trim());
  if (n < min || n > max) throw new AttrError(`<${v.name} ${name}="${raw}"> is outside ${min}..${max}`);
  return n;
}

export function methodAttr(v: Verb | Nested, name = 'method'): 'GET' | 'POST' {
  const raw = (v.attrs[name] ?? 'POST').toUpperCase();
  if (raw !== 'GET' && raw !== 'POST') throw new AttrError(`<${v.name} ${name}="${v.attrs[name]}"> must be GET or POST`);
  return raw;
}

export function boolAttr(v: Verb, name: string, fallback: boolean): boolean {
  const raw = v.attrs[name];
  if (raw === undefined) return fallback;
  if (raw === 'true' || raw === 'false') return raw === 'true';
  throw new AttrError(`<${v.name} ${name}="${raw}"> must be true or false`);
}

/** Say's voice and language: the call flows' voice values (provider or its alias) and language codes. */
export function checkVoice(v: Verb | Nested): void {
  const voice = v.attrs.voice;
  if (voice !== undefined && !(VOICE_PROVIDERS as readonly string[]).includes(voice) && !Object.hasOwn(PROVIDER_ALIASES, voice)) {
    throw new AttrError(`<Say voice="${voice}"> is not a voice of call flows (${[...VOICE_PROVIDERS, ...Object.keys(PROVIDER_ALIASES)].join(', ')})`);
  }
  const lang = v.attrs.language;
  if (lang !== undefined && !LANGUAGE.test(lang)) throw new AttrError(`<Say language="${lang}"> is not a language code`);
}

export function keySet(v: Verb, name: string, fallback: string): string {
  const raw = v.attrs[name] ?? fallback;
  if ([...raw].some((k) => !KEYS.includes(k))) throw new AttrError(`<${v.name} ${name}="${raw}"> may hold only 0-9, * and #`);
  return raw;
}

export function gatherSettings(v: Verb): { finishOnKey: string; numDigits: number | null } {
  const finishOnKey = v.attrs.finishOnKey ?? DEFAULTS.gatherFinishOnKey;
  if (finishOnKey.length > 1 || (finishOnKey !== '' && !KEYS.includes(finishOnKey))) throw new AttrError(`<Gather finishOnKey="${finishOnKey}"> must be one key (0-9, *, #) or empty`);
  const numDigits = v.attrs.numDigits === undefined ? null : intAttr(v, 'numDigits', 1, BOUNDS.numDigits);
  intAttr(v, 'timeout', DEFAULTS.gatherTimeout, BOUNDS.gatherTimeout);
  if (v.attrs.action !== undefined) methodAttr(v);
  return { finishOnKey, numDigits };
}

/** What the phone hears while Gather waits: its nested Say texts, in order. */
export function promptOf(v: Verb): string {
  const parts: string[] = [];
  for (const c of v.children) {
    if (c.name === 'Say') {
      checkVoice(c);
      parts.push(c.text);
    } else if (c.name !== 'Play' && c.name !== 'Pause') throw new AttrError(`<${c.name}> cannot be nested in <Gather> (Say, Play, Pause)`);
  }
  return parts.filter((p) => p !== '').join(' ');
}

const STREAM_ATTRS = ['url', 'name'];

/** Connect's one <Stream>: an absolute ws:// or wss:// `url`, an optional `name`; other attributes are refused. */
export function streamOf(v: Verb): { url: string; name: string | null } {
  for (const a of Object.keys(v.attrs)) if (a !== 'action' && a !== 'method') throw new AttrError(`<Connect ${a}> is not supported (action, method)`);
  const s = v.children[0];
  if (!s || v.children.length > 1 || s.name !== 'Stream') throw new AttrError('<Connect> holds exactly one <Stream> (media streams are the only connection simulated)');
  for (const a of Object.keys(s.attrs)) if (!STREAM_ATTRS.includes(a)) throw new AttrError(`<Stream ${a}> is not supported (${STREAM_ATTRS.join(', ')})`);
  const url = s.attrs.url;
  if (url === undefined || url === '') throw new AttrError('<Stream> needs a url');
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new AttrError(`<Stream url="${url}"> is not an absolute URL`);
  }
  if (u.protocol !== 'ws:' && u.protocol !== 'wss:') throw new AttrError(`<Stream url="${url}"> is not a ws:// or wss:// URL`);
  const name = s.attrs.name ?? null;
  if (name !== null && (name.length === 0 || name.length > 64)) throw new AttrError('<Stream name> must be 1 to 64 characters');
  return { url: u.href, name };
}

/** Dial's target: a nested <Number> or <Sip> (the first), else the number written as its text. */
export function dialTarget(v: Verb): { kind: 'number' | 'sip'; value: string; callback: Nested | null } {
  const child = v.children[0];
  if (v.children.length > 1) throw new AttrError('<Dial> dials one <Number> or <Sip>');
  if (child) {
    if (child.name !== 'Number' && child.name !== 'Sip') throw new AttrError(`<${child.name}> cannot be nested in <Dial> (Number, Sip)`);
    if (child.text === '') throw new AttrError(`<${child.name}> needs the target as its text`);
    if (child.name === 'Sip' && !/^sips?:/i.test(child.text)) throw new AttrError(`<Sip>${child.text}</Sip> is not a SIP URI`);
    return { kind: child.name === 'Sip' ? 'sip' : 'number', value: child.text, callback: child.attrs.statusCallback === undefined ? null : child };
  }
  if (v.text === '') throw new AttrError('<Dial> needs a number as its text or a nested <Number> or <Sip>');
  return { kind: /^sips?:/i.test(v.text) ? 'sip' : 'number', value: v.text, callback: null };
}
