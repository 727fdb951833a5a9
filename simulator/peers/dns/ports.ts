// What the fake DNS needs from the rest of the house (core/scope.ts): nothing. The email domains'
// checks and the egress guard use it through ports they declare.
export const needs = {};
