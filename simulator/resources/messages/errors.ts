// Wire error codes of sending: one named error per code. The 422 refusals and the phone codes
// are the spec's; the 400 content codes are the public guides' and API document's; the rest
// are ours where those are silent (docs/decisions.md, "Messages").
import { defineError } from '../../core/errors.ts';
import { outboundErrors } from '../../rules/outbound.ts';

export const messageErrors = {
  MESSAGE_NOT_FOUND: defineError({
    code: 'message_not_found', status: 404, origin: 'simulator',
    description: 'No message with this id in the account.',
  }),
  MEDIA_NOT_FOUND: defineError({
    code: 'media_not_found', status: 404, origin: 'simulator',
    description: 'The message has no image at this index (indexes start at 0).',
  }),
  FROM_NOT_REGISTERED: outboundErrors.FROM_NOT_REGISTERED, // shared with every outbound send (rules/outbound.ts)
  INVALID_INPUT: defineError({
    code: 'invalid_input', status: 400, origin: 'reference',
    description: 'A required field is present but empty (e.g. Body "").',
  }),
  BODY_TOO_LONG: defineError({
    code: 'body_too_long', status: 400, origin: 'reference',
    description: 'The body exceeds its type\'s limit: sms 90 EUC-KR bytes, lms and mms 2000 characters, ata 1000 characters.',
  }),
  SMS_NO_SUBJECT: defineError({
    code: 'sms_no_subject', status: 400, origin: 'reference',
    description: 'An sms cannot have a Subject (use lms or mms).',
  }),
  SMS_NO_MEDIA: defineError({
    code: 'sms_no_media', status: 400, origin: 'reference',
    description: 'An sms cannot carry MediaUrl (use mms).',
  }),
  LMS_NO_MEDIA: defineError({
    code: 'lms_no_media', status: 400, origin: 'reference',
    description: 'An lms cannot carry MediaUrl (use mms).',
  }),
  INVALID_MEDIA_EXT: defineError({
    code: 'invalid_media_ext', status: 400, origin: 'reference',
    description: 'A MediaUrl path does not end in jpg, jpeg, png or bmp.',
  }),
  MEDIA_DOWNLOAD_FAILED: defineError({
    code: 'media_download_failed', status: 400, origin: 'reference',
    description: 'An image cannot be fetched or is not acceptable; the message names its position and the cause: TIMEOUT (over 10 s), HTTP <status>, CONTENT_TYPE:<type>, SIZE_EXCEEDED (over 307,200 bytes), or a URL that is not http(s). Script causes through /_sim/images.',
  }),
  KAKAO_TYPE_MISMATCH: defineError({
    code: 'kakao_type_mismatch', status: 400, origin: 'simulator',
    description: 'Type ata and Kakao go together: Type ata without Kakao, or Kakao with another Type.',
  }),
  KAKAO_BODY_NOT_ALLOWED: defineError({
    code: 'kakao_body_not_allowed', status: 400, origin: 'reference',
    description: 'Body cannot be sent with Kakao; the approved template is the body.',
  }),
  KAKAO_FIELD_NOT_ALLOWED: defineError({
    code: 'kakao_field_not_allowed', status: 400, origin: 'simulator',
    description: 'Subject and MediaUrl cannot be sent with Kakao (the template is sent as approved).',
  }),
  FALLBACK_WITHOUT_KAKAO: defineError({
    code: 'fallback_without_kakao', status: 400, origin: 'simulator',
    description: 'Fallback applies only to Kakao (ata) messages.',
  }),
  KAKAO_TEMPLATE_NOT_FOUND: defineError({
    code: 'kakao_template_not_found', status: 400, origin: 'simulator',
    description: 'The account has no template with this TemplateId on this ChannelId.',
  }),
  KAKAO_VARIABLE_MISSING: defineError({
    code: 'kakao_variable_missing', status: 400, origin: 'reference',
    description: 'A variable of the template is missing from Kakao.Variables (or empty).',
  }),
  KAKAO_VARIABLE_UNKNOWN: defineError({
    code: 'kakao_variable_unknown', status: 400, origin: 'reference',
    description: 'Kakao.Variables names a variable the template does not have.',
  }),
  KAKAO_TEMPLATE_NOT_SENDABLE: defineError({
    code: 'kakao_template_not_sendable', status: 422, origin: 'reference',
    description: 'The template is not approved or is dormant.',
  }),
  NO_SUBSCRIPTION: outboundErrors.NO_SUBSCRIPTION, // shared with every outbound send (rules/outbound.ts)
  MESSAGING_BLOCKED: defineError({
    code: 'messaging_blocked', status: 403, origin: 'reference',
    description: 'The service\'s operations staff barred the account from texting (the simulator: PATCH /_sim/accounts/{id} messagingOps.blocked).',
  }),
  OVERRIDE_QUOTA_EXCEEDED: defineError({
    code: 'override_quota_exceeded', status: 422, origin: 'reference',
    description: 'The cap operations set on the account\'s outbound messages of all types this calendar month (UTC) is reached; overage add-ons do not lift it (the simulator: messagingOps.monthlyCap).',
  }),
  RECIPIENT_BLOCKED: outboundErrors.RECIPIENT_BLOCKED, // shared with every outbound send (rules/outbound.ts)
  TYPE_NOT_SUPPORTED: defineError({
    code: 'type_not_supported', status: 422, origin: 'reference',
    description: 'The plan does not offer this message type (its monthly cap is 0).',
  }),
  QUOTA_EXCEEDED: defineError({
    code: 'quota_exceeded', status: 422, origin: 'spec',
    description: 'The plan\'s monthly cap for this message type is reached and no overage add-on lifts it; works again next calendar month (UTC).',
  }),
  TEMPLATE_NOT_FOUND: defineError({
    code: 'template_not_found', status: 404, origin: 'simulator',
    description: 'Control plane: the account has no template with this id.',
  }),
  TEMPLATE_EXISTS: defineError({
    code: 'template_exists', status: 409, origin: 'simulator',
    description: 'Control plane: a template with this id already exists.',
  }),
  // Brand messages (type bms), the codes the official Node SDK documents (docs/compatibility.md).
  KAKAO_BRAND_REQUIRED: defineError({
    code: 'kakao_brand_required', status: 400, origin: 'reference',
    description: 'Type bms needs Brand {ChannelId, TemplateId or Free}; Brand goes with type bms only.',
  }),
  KAKAO_BRAND_NIGHT_BLOCKED: defineError({
    code: 'kakao_brand_night_blocked', status: 422, origin: 'reference',
    description: 'Brand messages cannot be sent from 20:50 to 08:00 Korea time (KST); nothing is stored. Send again after 08:00 KST.',
  }),
  KAKAO_FALLBACK_NOT_ALLOWED: defineError({
    code: 'kakao_fallback_not_allowed', status: 400, origin: 'reference',
    description: 'Brand messages have no fallback text; drop Fallback.',
  }),
  KAKAO_BRAND_TEMPLATE_NOT_FOUND: defineError({
    code: 'kakao_brand_template_not_found', status: 400, origin: 'reference',
    description: 'The account has no brand template with this TemplateId on this ChannelId.',
  }),
  KAKAO_BRAND_BODY_EMPTY: defineError({
    code: 'kakao_brand_body_empty', status: 400, origin: 'reference',
    description: 'A free-form TEXT bubble needs non-empty content.',
  }),
  KAKAO_BRAND_IMAGE_NOT_FOUND: defineError({
    code: 'kakao_brand_image_not_found', status: 400, origin: 'reference',
    description: 'Brand.Free.imageId names no brand image of the account (upload it with createKakaoBrandImage), or an IMAGE/WIDE bubble has none.',
  }),
  BRAND_IMAGE_INVALID: defineError({
    code: 'kakao_brand_image_invalid', status: 400, origin: 'simulator',
    description: 'The brand image upload is not a multipart form with a JPEG or PNG `image` part and a `bubbleType`.',
  }),
  BRAND_IMAGE_TOO_LARGE: defineError({
    code: 'kakao_brand_image_too_large', status: 413, origin: 'simulator',
    description: 'A brand image is at most 500 KB.',
  }),
};
