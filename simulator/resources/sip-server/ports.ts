// What the SIP server needs from others (core/scope.ts), and its clock job. SIP auth answers who
// a login is (its credential, account, stored HA1s, whether it may authenticate now), whether a
// credential's IP ACL admits an address, which trunks an address speaks for, which caller ids a
// login may present, and records lastUsedAt (spec Authentication 6). The calls family places the
// calls INVITEs ask for, hangs them up, and hands them to the SIP server's call handler.
import { Type } from '@sinclair/typebox';
import { port, type ModelScope } from '../../core/scope.ts';
import type { LiveClock } from '../../core/live-clock.ts';
import type { CallActions, CallFacts, CallHandler, OfferedCallActions } from '../calls/handlers.ts';
import type { WireDialer } from '../calls/wire-dial.ts';
import type { SipDns } from './reach.ts';

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
  /** Whether the login may present `number` (domestic digits) as its caller id. */
  mayPresent(login: SipLoginView, number: string): boolean;
  /** Active, enabled credentials whose IP ACL admits `ip`, oldest first. */
  trunksAt(ip: string): SipLoginView[];
}

/** The calls family as the SIP server uses it (calls/handlers.ts: the handler seam). */
export interface SipCalls {
  /** Places an outbound call for a handler; a refusal throws the API error createCall would. */
  placeForHandler(accountId: string, input: { From: string; To: string; handler: { kind: 'sip'; target: string } }): { id: string };
  /** Hangs up a connected call, cancels one not yet answered; an ended call throws. */
  hangUp(accountId: string, callId: string): unknown;
  readonly handled: CallFacts & OfferedCallActions & Pick<CallActions, 'transfer' | 'hangUp' | 'phoneTurn'> & { readonly handlers: { register(kind: 'sip', handler: CallHandler): void } };
  /** Where the server registers the dialer that rings SIP URIs of dial blocks, VoiceML and transfers (dials.ts). */
  readonly wireDialers: { use(dialer: WireDialer): void };
}

/** SIP endpoints: where a number routed `sip` is offered, and the routes' use and failures. */
export interface SipRoutes {
  listFor(accountId: string, status: 'active'): readonly { id: string }[];
  endpointById(id: string): { accountId: string; status: string; maxConcurrent: number | null } | undefined;
  routesOf(endpointId: string): readonly { id: string; uri: string; priority: number; weight: number; transport: string; status: string }[];
  routeUsed(routeId: string): void;
  routeFailed(routeId: string): void;
}

/** Whole-call recordings: the SIP server hands the recordings family what its clients sent. */
export interface CallAudio {
  provideAudio(source: (callId: string) => Buffer | undefined): void;
}

export const needs = {
  sipAuth: port<SipLogins>(),
  calls: port<SipCalls>(),
  recordings: port<CallAudio>(),
  sipEndpoints: port<SipRoutes>(),
  liveClock: port<LiveClock>(),
  dns: port<SipDns>(),
};

/** Its job kind: a registration binding reaches its expiry (names and payloads are in snapshots: keep them). */
export const jobs = {
  'sipServer.bindingExpires': Type.Object({ bindingId: Type.String() }, { additionalProperties: false }),
  /** An INVITE the server sent got no answer in time (`attempt` guards against a later attempt's). */
  'sipServer.offerTimeout': Type.Object({ callId: Type.String(), attempt: Type.Integer() }, { additionalProperties: false }),
  /** A dial the server sent (dials.ts) reaches its deadline (`deadline` guards against a later one). */
  'sipServer.dialTimeout': Type.Object({ dialId: Type.String(), deadline: Type.Integer() }, { additionalProperties: false }),
};

/** What the model is built from. */
export type SipServerModelScope = ModelScope<typeof needs, {}, typeof jobs>;
