// HTML of the pages a person looks at: the end user's issuing page at a link's url (the flow, or a
// clear page for a link that is unknown, expired, revoked, used or switched off) and the fake
// identity provider's page. Plain HTML with labels, headings, a live region and a language switch.
import type { KycVerification } from '../../peers/kyc/model.ts';
import type { AssignmentSessionWire } from './schema.ts';
import { REQUIRED_CLAUSES, OPTIONAL_CLAUSES } from './session.ts';
import { ASSIGN_CLIENT_SCRIPT } from './page-client.ts';
import { TEXTS, type Lang, type Texts } from './page-texts.ts';

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** JSON safe inside a <script> element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
}

const STYLE = `
:root { --accent: #2454d6; font-family: system-ui, "Apple SD Gothic Neo", "Noto Sans KR", sans-serif; color: #1b1b1f; background: #f4f5f8; }
body { margin: 0; }
main { max-width: 32rem; margin: 2rem auto; background: #fff; padding: 1.5rem 1.75rem 2rem; border-radius: 12px; box-shadow: 0 1px 4px rgba(0,0,0,.12); }
header { display: flex; justify-content: space-between; align-items: baseline; gap: 1rem; }
.org { margin: 0; color: #555; font-size: .95rem; }
h1 { font-size: 1.5rem; margin: .25rem 0 1rem; }
h2 { font-size: 1.2rem; margin: 1rem 0 .75rem; }
h2:focus { outline: 2px solid var(--accent); outline-offset: 4px; }
ol.progress { display: flex; gap: .5rem; padding: 0; list-style: none; font-size: .8rem; color: #666; flex-wrap: wrap; }
ol.progress li[aria-current="step"] { color: var(--accent); font-weight: 700; text-decoration: underline; }
fieldset { border: 1px solid #ccd; border-radius: 8px; padding: .75rem 1rem; }
label { display: block; padding: .4rem 0; }
button, .button { display: inline-block; margin-top: 1rem; padding: .7rem 1.2rem; font-size: 1rem; border: 0; border-radius: 8px; background: var(--accent); color: #fff; text-decoration: none; cursor: pointer; }
button:focus-visible, .button:focus-visible, a:focus-visible, input:focus-visible { outline: 3px solid #f0b400; outline-offset: 2px; }
button.secondary { background: #666; }
#alert:not(:empty) { margin: 1rem 0; padding: .75rem 1rem; border-radius: 8px; background: #fdecec; color: #8a1010; }
.logo { display: block; max-height: 40px; margin-bottom: .5rem; }
.number { font-size: 1.6rem; font-weight: 700; letter-spacing: .05em; }
input[type="text"], input[type="date"] { font-size: 1rem; padding: .5rem; width: 100%; box-sizing: border-box; }
`;

function shell(lang: Lang, title: string, body: string, opts: { switchTo?: string; accent?: string | null } = {}): string {
  const t = TEXTS[lang];
  const switcher = opts.switchTo !== undefined ? `<a href="${escapeHtml(opts.switchTo)}" lang="${t.otherLangCode}" hreflang="${t.otherLangCode}">${t.otherLang}</a>` : '';
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style>${STYLE}${opts.accent && /^#[0-9A-Fa-f]{6}$/.test(opts.accent) ? `:root { --accent: ${opts.accent}; }` : ''}</style>
</head>
<body>
<main id="main" aria-busy="false">
<header><nav aria-label="Language / 언어">${switcher}</nav></header>
${body}
</main>
</body>
</html>
`;
}

export type ClosedReason = 'notFound' | 'expired' | 'revoked' | 'used' | 'disabled';

/** The page for a link that cannot be used (the HTTP status is the session's: 404, 410, 409, 403). */
export function closedPage(lang: Lang, reason: ClosedReason, path: string): string {
  const t = TEXTS[lang];
  const [heading, text] = {
    notFound: [t.notFoundHeading, t.notFoundText],
    expired: [t.expiredHeading, t.expiredText],
    revoked: [t.revokedHeading, t.revokedText],
    used: [t.usedHeading, t.usedText],
    disabled: [t.disabledHeading, t.disabledText],
  }[reason] as [string, string];
  return shell(lang, heading, `<h1 id="closed" data-reason="${reason}">${escapeHtml(heading)}</h1>\n<p>${escapeHtml(text)}</p>`, { switchTo: `${path}?lang=${t.otherLangCode}` });
}

function clauseBox(t: Texts, key: string, required: boolean): string {
  const id = `clause-${key.replace(/\W/g, '-')}`;
  const mark = required ? `<span class="required">(${t.required})</span>` : `<span>(${t.optional})</span>`;
  return `<label for="${id}"><input type="checkbox" id="${id}" name="clause" value="${escapeHtml(key)}"${required ? ' aria-required="true"' : ''}> ${escapeHtml(t.clauses[key] ?? key)} ${mark}</label>`;
}

/** The issuing flow for a pending link; the script shows the session's current step. */
export function flowPage(lang: Lang, session: AssignmentSessionWire, path: string): string {
  const t = TEXTS[lang];
  const steps = (['selectType', 'consents', 'verify', 'ready', 'done'] as const)
    .map((s) => `<li id="progress-${s}">${escapeHtml(t.steps[s])}</li>`)
    .join('');
  const logo = session.brandLogoUrl ? `<img class="logo" src="${escapeHtml(session.brandLogoUrl)}" alt="" height="40">` : '';
  const body = `${logo}<p class="org">${escapeHtml(session.brandServiceName ?? session.orgName)}</p>
<h1>${escapeHtml(t.title)}</h1>
<ol class="progress" aria-label="${escapeHtml(t.stepsLabel)}">${steps}</ol>
<div id="alert" role="alert" aria-live="assertive"></div>

<section id="step-selectType" aria-labelledby="heading-selectType" hidden>
<h2 id="heading-selectType" tabindex="-1">${escapeHtml(t.typeHeading)}</h2>
<form id="form-type">
<fieldset><legend>${escapeHtml(t.typeLegend)}</legend>
<label for="type-individual"><input type="radio" id="type-individual" name="subscriberType" value="individual"${session.subscriberType === 'individual' ? ' checked' : ''}> ${escapeHtml(t.individual)}</label>
<label for="type-corporate"><input type="radio" id="type-corporate" name="subscriberType" value="corporate"${session.subscriberType === 'corporate' ? ' checked' : ''}> ${escapeHtml(t.corporate)}</label>
</fieldset>
<button type="submit">${escapeHtml(t.next)}</button>
</form>
</section>

<section id="step-consents" aria-labelledby="heading-consents" hidden>
<h2 id="heading-consents" tabindex="-1">${escapeHtml(t.consentsHeading)}</h2>
<form id="form-consents">
<fieldset><legend>${escapeHtml(t.consentsLegend)}</legend>
${REQUIRED_CLAUSES.map((k) => clauseBox(t, k, true)).join('\n')}
${OPTIONAL_CLAUSES.map((k) => clauseBox(t, k, false)).join('\n')}
</fieldset>
<button type="submit">${escapeHtml(t.next)}</button>
</form>
</section>

<section id="step-verify" aria-labelledby="heading-verify" hidden>
<h2 id="heading-verify" tabindex="-1">${escapeHtml(t.verifyHeading)}</h2>
<p>${escapeHtml(t.verifyText)}</p>
<button type="button" id="verify-start">${escapeHtml(t.verifyButton)}</button>
</section>

<section id="step-ready" aria-labelledby="heading-ready" hidden>
<h2 id="heading-ready" tabindex="-1">${escapeHtml(t.readyHeading)}</h2>
<p>${escapeHtml(t.readyText)}</p>
<button type="button" id="finalize">${escapeHtml(t.finalizeButton)}</button>
</section>

<section id="step-done" aria-labelledby="heading-done" hidden>
<h2 id="heading-done" tabindex="-1">${escapeHtml(t.doneHeading)}</h2>
<p>${escapeHtml(t.doneNumber)}: <span class="number" id="assigned-number"></span></p>
<a class="button" id="return" href="#" hidden>${escapeHtml(t.returnButton)}</a>
<p id="return-soon" hidden>${escapeHtml(t.returnSoon)}</p>
</section>

<script type="application/json" id="texts">${scriptJson({ errors: t.errors })}</script>
<script type="application/json" id="session">${scriptJson({ step: session.step, returnUrl: session.returnUrl })}</script>
<script>${ASSIGN_CLIENT_SCRIPT}</script>`;
  return shell(lang, t.title, body, { switchTo: `${path}?lang=${t.otherLangCode}`, accent: session.brandColor });
}

/** The fake identity provider's page: a form for the person's name and birth date, or cancel. */
export function identityPage(lang: Lang, v: KycVerification | undefined, path: string, error?: string): string {
  const t = TEXTS[lang];
  if (!v) return shell(lang, t.idNotFound, `<h1>${escapeHtml(t.idNotFound)}</h1>`);
  if (v.status !== 'pending') {
    return shell(lang, t.idDoneHeading, `<h1>${escapeHtml(t.idDoneHeading)}</h1>\n<p><a href="/assign/${encodeURIComponent(v.linkId)}?lang=${lang}">${escapeHtml(t.idBack)}</a></p>`);
  }
  const alert = `<div id="alert" role="alert">${error ? escapeHtml(error) : ''}</div>`;
  const body = `<h1>${escapeHtml(t.idTitle)}</h1>
<p>${escapeHtml(t.idIntro)}</p>
${alert}
<form method="post" action="${escapeHtml(path)}?lang=${lang}">
<label for="kyc-name">${escapeHtml(t.idName)}</label>
<input type="text" id="kyc-name" name="name" autocomplete="name" maxlength="50">
<label for="kyc-birth">${escapeHtml(t.idBirthDate)}</label>
<input type="date" id="kyc-birth" name="birthDate" autocomplete="bday">
<button type="submit" name="action" value="verify">${escapeHtml(t.idVerify)}</button>
<button type="submit" name="action" value="cancel" class="secondary" formnovalidate>${escapeHtml(t.idCancel)}</button>
</form>`;
  return shell(lang, t.idTitle, body, { switchTo: `${path}?lang=${t.otherLangCode}` });
}
