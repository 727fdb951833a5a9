// What the fake image host needs from the rest of the house (core/scope.ts): nothing. Messages
// download a send's images from it through a port they declare.
export const needs = {};
