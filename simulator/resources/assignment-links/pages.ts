// Pages a person opens in a browser: the issuing page at a link's url (GET /assign/{token}) and
// the fake identity provider's page (GET and form POST /identity/{id}), which sends the person
// back to the issuing page with the verification id so the page resumes. Both are steps of the
// issuing flow, so they are the assignment links' pages; the provider's state is read through
// the family's port on it.
import { Type } from '@sinclair/typebox';
import { ApiError } from '../../core/errors.ts';
import { StringEnum } from '../../core/schema.ts';
import type { Reply } from '../../core/operation.ts';
import { kycErrors, type KycResult } from '../../peers/kyc/model.ts';
import { sessionErrors } from './errors.ts';
import { closedPage, flowPage, identityPage, type ClosedReason } from './page-html.ts';
import { langOf, TEXTS } from './page-texts.ts';
import { operation } from './scope.ts';

const TAG = 'Issuing pages';
const HTML = { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'x-frame-options': 'DENY' };
const lang = { lang: StringEnum(['ko', 'en'], { description: 'Page language; Korean by default.' }) };

/** The provider page's form (documented; the handler reads it: a missing field shows the form again). */
const IdentityForm = Type.Object({
  action: Type.Optional(Type.String({ description: 'cancel abandons the check; any other value (verify) confirms it.' })),
  name: Type.Optional(Type.String({ description: 'The person\'s name.' })),
  birthDate: Type.Optional(Type.String({ description: 'YYYY-MM-DD.' })),
});

function html(status: number, raw: string): Reply {
  return { status, raw, headers: HTML };
}

function closedReason(e: ApiError): ClosedReason | undefined {
  if (e.code === sessionErrors.SESSION_NOT_FOUND.info.code) return 'notFound';
  if (e.code === sessionErrors.ADDON_INACTIVE.info.code) return 'disabled';
  if (e.code === sessionErrors.SESSION_GONE.info.code) return e.extra.status === 'revoked' ? 'revoked' : 'expired';
  return undefined;
}

function formFields(body: string | Uint8Array | undefined): URLSearchParams {
  const text = body === undefined ? '' : typeof body === 'string' ? body : Buffer.from(body).toString('utf8');
  return new URLSearchParams(text);
}

export const operations = [
  operation({
    operationId: 'assignPage',
    method: 'GET',
    path: '/assign/{token}',
    tag: TAG,
    summary: 'The end user\'s issuing page (a link\'s url)',
    description: 'HTML in Korean (?lang=en for English). Walks the person through the session operations. A link that is unknown, expired, revoked, used or switched off gets a page that says so (data-reason on its heading); the status is 200 either way, since the page is for a person and the session operations carry the machine answer.',
    origin: 'simulator',
    basis: 'spec: the hosted end-user page lives at {assign_url}; docs/decisions.md "Assignment links".',
    auth: 'none',
    params: { token: Type.String() },
    query: lang,
    responses: { 200: { description: 'The issuing flow.', contentType: 'text/html' } },
    handler: ({ scope, params, query }) => {
      const l = langOf(query.lang);
      const path = `/assign/${encodeURIComponent(params.token)}`;
      try {
        const session = scope.assignmentLinks.sessions.get(params.token);
        if (session.status === 'consumed') return html(200, closedPage(l, 'used', path));
        return html(200, flowPage(l, session, path));
      } catch (e) {
        const reason = e instanceof ApiError ? closedReason(e) : undefined;
        if (!reason) throw e;
        return html(200, closedPage(l, reason, path));
      }
    },
  }),
  operation({
    operationId: 'identityProviderPage',
    method: 'GET',
    path: '/identity/{identityVerificationId}',
    tag: TAG,
    summary: 'The fake identity provider\'s page',
    description: 'A form for name and birth date (Verify) or Cancel; posts to itself.',
    origin: 'simulator',
    auth: 'none',
    params: { identityVerificationId: Type.String() },
    query: lang,
    responses: { 200: { description: 'The provider page.', contentType: 'text/html' } },
    handler: ({ scope, params, query }) => {
      const v = scope.kyc.get(params.identityVerificationId);
      return html(200, identityPage(langOf(query.lang), v, `/identity/${encodeURIComponent(params.identityVerificationId)}`));
    },
  }),
  operation({
    operationId: 'identityProviderSubmit',
    method: 'POST',
    path: '/identity/{identityVerificationId}',
    tag: TAG,
    summary: 'The person finishes on the fake identity provider\'s page',
    description: 'Form-encoded `action` (verify or cancel), `name`, `birthDate`. Answers 303 back to the issuing page with `identityVerificationId`, where the page resumes the session; 200 with the form again when a field is missing, or a page saying the check is already finished. The control plane\'s nextResult applies.',
    origin: 'simulator',
    auth: 'none',
    params: { identityVerificationId: Type.String() },
    query: lang,
    bodyDoc: { required: false, content: { 'application/x-www-form-urlencoded': { schema: IdentityForm } } },
    responses: {
      200: { description: 'The form again with what to fix, or the page saying the check is finished.', contentType: 'text/html' },
      303: { description: 'Back to the issuing page.' },
    },
    errors: [kycErrors.VERIFICATION_NOT_FOUND],
    handler: ({ scope, params, query, request }) => {
      const l = langOf(query.lang);
      const id = params.identityVerificationId;
      const v = scope.kyc.require(id);
      if (v.status !== 'pending') return html(200, identityPage(l, v, `/identity/${encodeURIComponent(id)}`));
      const form = formFields(request.body);
      const result: KycResult | undefined = form.get('action') === 'cancel' ? 'abandoned' : undefined;
      try {
        scope.kyc.complete(id, { result, name: form.get('name') ?? undefined, birthDate: form.get('birthDate') ?? undefined });
      } catch (e) {
        if (e instanceof ApiError && e.status === 400) {
          const t = TEXTS[l];
          return html(200, identityPage(l, v, `/identity/${encodeURIComponent(id)}`, `${t.idName}, ${t.idBirthDate}: ${e.message}`));
        }
        throw e;
      }
      const back = `/assign/${encodeURIComponent(v.linkId)}?identityVerificationId=${encodeURIComponent(id)}&lang=${l}`;
      return { status: 303, raw: '', headers: { location: back, 'cache-control': 'no-store' } };
    },
  }),
];
