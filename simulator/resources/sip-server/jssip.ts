// JsSIP's RFC 3261 grammar and message parser (docs/decisions.md "SIP on the wire"), required on
// the first SIP message rather than imported: loading them costs about 18 ms of CPU, which a
// simulator without a SIP listener must not pay at start-up (the bundle leaves jssip out).
import { createRequire } from 'node:module';
import type ParserModule from 'jssip/lib/Parser.js';
import type GrammarModule from 'jssip/lib/Grammar.js';

let loaded: { Parser: typeof ParserModule; Grammar: typeof GrammarModule } | undefined;

export function jssip(): { Parser: typeof ParserModule; Grammar: typeof GrammarModule } {
  if (!loaded) {
    const require = createRequire(import.meta.url);
    loaded = { Parser: require('jssip/lib/Parser.js') as typeof ParserModule, Grammar: require('jssip/lib/Grammar.js') as typeof GrammarModule };
  }
  return loaded;
}
