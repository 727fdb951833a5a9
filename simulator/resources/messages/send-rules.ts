// The rules across the fields of a send (content.ts planContent, brand-content.ts), as JSON
// Schema for the OpenAPI document: each names the code the handler answers when it is broken.
import { present, type SchemaRule } from '../../core/schema-rules.ts';

// "Present" means given and not null; a Subject or MediaUrl counts when non-empty.
const nonEmpty = (field: string, kind: 'string' | 'array') => ({ required: [field], properties: { [field]: kind === 'string' ? { type: 'string', minLength: 1 } : { type: 'array', minItems: 1 } } });
const typeIs = (...types: string[]) => ({ required: ['Type'], properties: { Type: { enum: types } } });
const none = (...schemas: object[]) => ({ not: { anyOf: schemas } });

export const SEND_RULES: SchemaRule[] = [
  { description: 'Type bms needs Brand.', code: 'kakao_brand_required', schema: { if: typeIs('bms'), then: present('Brand') } },
  { description: 'Type ata needs Kakao; Kakao goes with Type ata or none; Brand with Type bms or none.', code: 'kakao_type_mismatch', schema: { allOf: [{ if: typeIs('ata'), then: present('Kakao') }, { if: present('Kakao'), then: { properties: { Type: { enum: ['ata', null] } } } }, { if: present('Brand'), then: { properties: { Type: { enum: ['bms', null] } } } }] } },
  { description: 'Fallback only with Kakao.', code: 'fallback_without_kakao', schema: { if: present('Fallback'), then: { anyOf: [present('Kakao'), present('Brand')] } } },
  { description: 'No Fallback with Brand.', code: 'kakao_fallback_not_allowed', schema: { if: present('Brand'), then: { not: present('Fallback') } } },
  { description: 'No Body with Kakao (the template is the body).', code: 'kakao_body_not_allowed', schema: { if: present('Kakao'), then: { not: present('Body') } } },
  { description: 'No Subject or MediaUrl with Kakao; nothing of Body, Subject, MediaUrl, Kakao beside Brand.', code: 'kakao_field_not_allowed', schema: { allOf: [{ if: present('Kakao'), then: none(nonEmpty('Subject', 'string'), nonEmpty('MediaUrl', 'array')) }, { if: present('Brand'), then: none(present('Body'), present('Subject'), present('MediaUrl'), present('Kakao')) }] } },
  { description: 'Without Kakao or Brand, Body is required.', code: 'VALIDATION', schema: { anyOf: [present('Kakao'), present('Brand'), present('Body')] } },
  { description: 'Body is not empty.', code: 'invalid_input', schema: { properties: { Body: { minLength: 1 } } } },
  { description: 'An sms has no Subject.', code: 'sms_no_subject', schema: { if: typeIs('sms'), then: { not: nonEmpty('Subject', 'string') } } },
  { description: 'An sms carries no MediaUrl.', code: 'sms_no_media', schema: { if: typeIs('sms'), then: { not: nonEmpty('MediaUrl', 'array') } } },
  { description: 'An lms carries no MediaUrl.', code: 'lms_no_media', schema: { if: typeIs('lms'), then: { not: nonEmpty('MediaUrl', 'array') } } },
  { description: 'A Body of 2000 characters at most (an sms: 90 EUC-KR bytes, said in words).', code: 'body_too_long', schema: { properties: { Body: { maxLength: 2000 } } } },
];
