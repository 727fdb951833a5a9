// The SIP server's state and views: registration bindings (RFC 3261 §10: an address-of-record
// bound to a contact until it expires on the virtual clock), and the registrar's limits.
import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Nullable, StringEnum } from '../../core/schema.ts';

/** Expiry a client gets when it asks for none (RFC 3261 §10.2.1.1 suggests 3600). */
export const DEFAULT_EXPIRES = 3600;
/** The shortest registration accepted; shorter is 423 with Min-Expires (RFC 3261 §10.3 step 7). */
export const MIN_EXPIRES = 60;
/** The longest registration granted; longer requests are shortened to it. */
export const MAX_EXPIRES = 3600;
/** Contacts one credential may keep bound at once. */
export const MAX_CONTACTS_PER_LOGIN = 10;

const bindingFields = {
  id: Type.String({ description: 'RB + 32 hex, derived from the credential and the contact.' }),
  accountId: Type.String(),
  credentialId: Type.String({ description: 'The credential that registered (a WebRTC token\'s parent).' }),
  username: Type.String({ description: 'The digest username (an ephemeral one for a WebRTC token).' }),
  aor: Type.String({ description: 'The address-of-record, sip:username@realm.' }),
  contact: Type.String({ description: 'The contact URI the device is reached at.' }),
  callId: Type.String(),
  cseq: Type.Integer(),
  expires: Type.Integer({ description: 'Seconds granted by the last REGISTER.' }),
  expiresAt: DateTime(),
  registeredAt: DateTime({ description: 'When the binding was first made.' }),
  refreshedAt: DateTime({ description: 'When the last REGISTER renewed it.' }),
  transport: StringEnum(['udp', 'tcp', 'ws'] as const),
  sourceAddress: Type.String(),
  sourcePort: Type.Integer(),
  userAgent: Nullable(Type.String()),
};

export const BindingRowSchema = Type.Object(
  { ...bindingFields, jobId: Type.Integer({ description: 'The clock job that removes it at expiresAt.' }) },
  { additionalProperties: false },
);
export type BindingRow = Static<typeof BindingRowSchema>;

export const SipServerStateSchema = Type.Object({ bindings: Type.Array(BindingRowSchema) }, { additionalProperties: false });

export const Registration = Type.Object(bindingFields, { $id: 'SimSipRegistration', additionalProperties: false });

export { SipListeningSchema } from '../../core/sip-listening.ts';

/** The largest SIP message read (a datagram, or a message on a stream); larger ones are 513 (RFC 3261 §21.5.14). */
export const MAX_MESSAGE_BYTES = 32 * 1024;
