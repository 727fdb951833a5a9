// What the SIP server needs from others (core/scope.ts), and its clock job. SIP auth answers who
// a login is (its credential, account, stored HA1s, whether it may authenticate now), whether a
// credential's IP ACL admits an address, and records lastUsedAt (spec Authentication 6).
import { Type } from '@sinclair/typebox';
import { port, type ModelScope } from '../../core/scope.ts';

/** A digest login as SIP auth resolves it (a WebRTC token stands for its parent credential). */
export interface SipLoginView {
  credentialId: string;
  accountId: string;
  username: string;
  realm: string;
  ha1: { readonly MD5?: string; readonly 'SHA-256'?: string };
  enabled: boolean;
  allowedNumbers: readonly string[];
}

/** SIP auth's answers for the wire (the sip-auth family offers them). */
export interface SipLogins {
  login(realm: string, username: string): SipLoginView | undefined;
  admits(credentialId: string, ip: string | undefined): boolean;
  realmsOf(username: string): string[];
  markUsed(credentialId: string): void;
}

export const needs = {
  sipAuth: port<SipLogins>(),
};

/** Its job kind: a registration binding reaches its expiry (names and payloads are in snapshots: keep them). */
export const jobs = {
  'sipServer.bindingExpires': Type.Object({ bindingId: Type.String() }, { additionalProperties: false }),
};

/** What the model is built from. */
export type SipServerModelScope = ModelScope<typeof needs, {}, typeof jobs>;
