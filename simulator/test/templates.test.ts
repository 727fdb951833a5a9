// A flow template renders as one regular-expression replacement over it would (fast-check, fixed
// seed from setup.ts): the split kept per template (resources/calls/templates.ts) gives the same
// text for generated templates (names, spaces, broken braces, `$&` in values, surrogates) and
// variables, rendered twice (the second from the kept split); and speech lasts by characters as
// the string iterator counts them.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { render } from '../resources/calls/templates.ts';
import { speechSeconds } from '../resources/calls/interpreter.ts';

const REF = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;
const piece = fc.oneof(fc.string({ maxLength: 4 }), fc.constantFrom('{{name}}', '{{ name }}', '{{x}}', '{{', '}}', '{{1a}}', '{{constructor}}', '😀', '\ud800', '$&'));

describe('templates', () => {
  it('render as the replacement over the template', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), fc.dictionary(fc.constantFrom('name', 'x', 'y'), fc.oneof(fc.string({ maxLength: 3 }), fc.constant('$&'))), (pieces, vars) => {
        const template = pieces.join('');
        const expected = template.replace(REF, (_, n: string) => (Object.hasOwn(vars, n) ? vars[n]! : ''));
        expect(render(template, vars)).toBe(expected);
        expect(render(template, vars)).toBe(expected);
      }),
    );
  });

  it('time speech by characters, a surrogate pair being one', () => {
    fc.assert(fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
      const text = pieces.join('');
      expect(speechSeconds(text)).toBe(Math.max(1, Math.ceil([...text].length / 10)));
    }));
  });
});
