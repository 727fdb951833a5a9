// Types for the one internal module of JsSIP the SIP server uses (its message parser; JsSIP ships
// types for its URI, NameAddrHeader, SIPMessage and Grammar modules, not for this one).
declare module 'jssip/lib/Parser.js' {
  import type { IncomingRequest, IncomingResponse } from 'jssip/lib/SIPMessage.js';

  const Parser: {
    /** A request or response parsed from the message text, or undefined when a line or a known header is malformed. */
    parseMessage(data: string, ua: unknown): IncomingRequest | IncomingResponse | undefined;
  };
  export default Parser;
}
