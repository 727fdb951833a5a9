// What a send request puts on the wire: its type (chosen when Type is omitted), body, subject
// and images, checked against each type's limits, and for ata the approved template with its
// variables substituted. Pure rules, no state: the model looks templates up and passes them in.
import { ApiError, type ErrorFactory } from '../../core/errors.ts';
import { messageErrors as E } from './errors.ts';
import { variableName } from './templates.ts';
import type { BrandSent, FallbackPlan, MessageType, SendMessageInput, TemplateRow, TextType } from './schema.ts';

/** The carrier's SMS ceiling (API document: 90 EUC-KR bytes, 45 Hangul). */
export const SMS_MAX_BYTES = 90;
/** LMS and MMS bodies (API document: 2000 characters). */
export const LONG_MAX_CHARS = 2000;
/** Rendered messenger template text (ours: the messenger's own template limit). */
export const ATA_MAX_CHARS = 1000;
const IMAGE_EXTENSIONS = ['jpg', 'jpeg', 'png', 'bmp'];

/** Width in EUC-KR (as carriers count it): ASCII is one byte, every other character two. */
export function eucKrBytes(text: string): number {
  let n = 0;
  for (const ch of text) n += ch.codePointAt(0)! < 0x80 ? 1 : 2;
  return n;
}

export function charCount(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** The type the API document picks when Type is omitted (Kakao is handled before). */
export function chooseTextType(body: string, subject: string | null, mediaCount: number): TextType {
  if (mediaCount > 0) return 'mms';
  if (subject !== null || eucKrBytes(body) > SMS_MAX_BYTES) return 'lms';
  return 'sms';
}

export function refuse(factory: ErrorFactory, path: string, message: string): never {
  throw factory(message, { errors: [{ path, message }] });
}

/** Limits of one text message; `prefix` names the fields in errors ("" or "Fallback."). */
export function checkText(type: TextType, body: string, subject: string | null, mediaUrl: readonly string[], prefix = ''): void {
  if (type === 'sms') {
    if (subject !== null) refuse(E.SMS_NO_SUBJECT, `${prefix}Subject`, 'an sms has no subject; send it as lms or mms');
    if (mediaUrl.length > 0) refuse(E.SMS_NO_MEDIA, `${prefix}MediaUrl`, 'an sms carries no images; send it as mms');
    const bytes = eucKrBytes(body);
    if (bytes > SMS_MAX_BYTES) {
      refuse(E.BODY_TOO_LONG, `${prefix}Body`, `an sms body is at most ${SMS_MAX_BYTES} EUC-KR bytes (45 Hangul characters); this one is ${bytes}. Send it as lms, or omit Type`);
    }
  } else {
    if (type === 'lms' && mediaUrl.length > 0) refuse(E.LMS_NO_MEDIA, `${prefix}MediaUrl`, 'an lms carries no images; send it as mms');
    const chars = charCount(body);
    if (chars > LONG_MAX_CHARS) refuse(E.BODY_TOO_LONG, `${prefix}Body`, `an ${type} body is at most ${LONG_MAX_CHARS} characters; this one is ${chars}`);
  }
  checkMediaUrls(mediaUrl, `${prefix}MediaUrl`);
}

/** Images must be fetchable over http(s) and named as jpg, jpeg, png or bmp. */
export function checkMediaUrls(urls: readonly string[], path: string): void {
  urls.forEach((raw, i) => {
    const at = `${path}[${i}]`;
    let url: URL | undefined;
    try {
      url = new URL(raw);
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
      refuse(E.MEDIA_DOWNLOAD_FAILED, at, `image processing failed (${i}): only http and https URLs can be fetched`);
    }
    const name = url.pathname.split('/').pop() ?? '';
    const dot = name.lastIndexOf('.');
    const ext = dot >= 0 ? name.slice(dot + 1).toLowerCase() : '';
    if (!IMAGE_EXTENSIONS.includes(ext)) {
      refuse(E.INVALID_MEDIA_EXT, at, `image ${i} has extension ${ext || '(none)'}; use ${IMAGE_EXTENSIONS.join(', ')}`);
    }
  });
}

/** The template's text with each #{name} replaced; every variable required, no other accepted. */
export function renderTemplate(
  template: Pick<TemplateRow, 'body' | 'variables'>,
  given: Record<string, string> | null | undefined,
  field = 'Kakao.Variables',
): string {
  const values = new Map<string, string>();
  for (const [key, value] of Object.entries(given ?? {})) {
    const name = variableName(key);
    const path = `${field}.${key}`;
    if (!template.variables.includes(name)) {
      refuse(E.KAKAO_VARIABLE_UNKNOWN, path, `the template has no variable "${name}" (its variables: ${template.variables.join(', ') || 'none'})`);
    }
    if (values.has(name)) throw ApiError.validation(`variable "${name}" is given twice (with and without #{})`, [{ path, message: 'given twice' }]);
    values.set(name, value);
  }
  // An empty value counts as missing: the messenger accepts it and then fails the message.
  const missing = template.variables.filter((v) => !values.get(v));
  if (missing.length > 0) {
    throw E.KAKAO_VARIABLE_MISSING(`the template needs ${missing.map((m) => `"${m}"`).join(', ')} in ${field} (non-empty)`, {
      errors: missing.map((m) => ({ path: `${field}.${m}`, message: 'is required' })),
    });
  }
  return template.body.replace(/#\{([^{}]+)\}/g, (whole, name: string) => values.get(name) ?? whole);
}

export interface PlannedContent {
  type: MessageType;
  /** null only for a brand bubble without a text slot. */
  body: string | null;
  subject: string | null;
  mediaUrl: string[];
  template: TemplateRow | null;
  fallback: FallbackPlan | null;
  /** What a bms message is built from (brand-content.ts); null for every other type. */
  brand: BrandSent | null;
}

/** Checks the content of a send request (every 400 of it) and says what would be sent. */
export function planContent(input: SendMessageInput, findTemplate: (channelId: string, templateId: string) => TemplateRow | undefined): PlannedContent {
  if (input.Type === 'bms') refuse(E.KAKAO_BRAND_REQUIRED, 'Brand', 'Type bms needs Brand {ChannelId, TemplateId or Free}');
  const kakao = input.Kakao ?? null;
  if (input.Type === 'ata' && !kakao) refuse(E.KAKAO_TYPE_MISMATCH, 'Kakao', 'Type ata needs Kakao {ChannelId, TemplateId, Variables}');
  if (kakao && input.Type && input.Type !== 'ata') {
    refuse(E.KAKAO_TYPE_MISMATCH, 'Type', `Kakao sends an ata message; omit Type or set it to ata (got ${input.Type})`);
  }
  if (input.Fallback && !kakao) refuse(E.FALLBACK_WITHOUT_KAKAO, 'Fallback', 'Fallback applies only to Kakao (ata) messages');
  const subject = input.Subject ? input.Subject : null; // "" is no subject
  const mediaUrl = input.MediaUrl ?? [];

  if (kakao) {
    if (input.Body !== undefined && input.Body !== null) refuse(E.KAKAO_BODY_NOT_ALLOWED, 'Body', 'Body cannot be sent with Kakao; the template is the body, fill Kakao.Variables');
    if (subject !== null) refuse(E.KAKAO_FIELD_NOT_ALLOWED, 'Subject', 'Subject cannot be sent with Kakao');
    if (mediaUrl.length > 0) refuse(E.KAKAO_FIELD_NOT_ALLOWED, 'MediaUrl', 'MediaUrl cannot be sent with Kakao');
    const template = findTemplate(kakao.ChannelId, kakao.TemplateId);
    if (!template) {
      refuse(E.KAKAO_TEMPLATE_NOT_FOUND, 'Kakao.TemplateId', `the account has no template ${kakao.TemplateId} on channel ${kakao.ChannelId}`);
    }
    const body = renderTemplate(template, kakao.Variables);
    const chars = charCount(body);
    if (chars > ATA_MAX_CHARS) refuse(E.BODY_TOO_LONG, 'Kakao.Variables', `the rendered template is ${chars} characters; at most ${ATA_MAX_CHARS}`);
    return { type: 'ata', body, subject: null, mediaUrl: [], template, fallback: planFallback(input.Fallback, body), brand: null };
  }

  if (input.Body === undefined || input.Body === null) throw ApiError.validation('Body is required for sms, lms and mms', [{ path: 'Body', message: 'is required' }]);
  if (input.Body === '') refuse(E.INVALID_INPUT, 'Body', 'Body is empty');
  const type = (input.Type as TextType | undefined) ?? chooseTextType(input.Body, subject, mediaUrl.length);
  checkText(type, input.Body, subject, mediaUrl);
  return { type, body: input.Body, subject, mediaUrl: [...mediaUrl], template: null, fallback: null, brand: null };
}

/** The text sent when an ata message fails: none when disabled, else checked like any text. */
function planFallback(fallback: SendMessageInput['Fallback'], rendered: string): FallbackPlan | null {
  if (fallback?.Disabled) return null;
  const body = fallback?.Body ? fallback.Body : rendered;
  const subject = fallback?.Subject ? fallback.Subject : null;
  const type = fallback?.Type ?? chooseTextType(body, subject, 0);
  checkText(type, body, subject, [], 'Fallback.');
  return { type, body, subject };
}
