// The fake DNS's scope (core/scope.ts): it needs nothing from the rest of the house; families
// that look names up (email domains) and the egress guard use it through ports they declare.
import { scopedOperations } from '../../core/operation.ts';
import type { HandlerScope } from '../../core/scope.ts';
import type { FakeDns } from './model.ts';

export const needs = {};

/** What the DNS's control routes see: the zone as `dns`. */
export type DnsScope = HandlerScope<'dns', FakeDns, typeof needs>;

export const operation = scopedOperations<DnsScope>();
