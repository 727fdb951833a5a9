// What the fake geo-IP database needs from the rest of the house (core/scope.ts): nothing. The
// request pipeline (app.ts) asks it whether a client address is foreign.
export const needs = {};
