// node:crypto loaded on its first use rather than imported: loading it is about 3 ms of start-up
// CPU (some twenty internal modules) and nothing up to the first answer needs it, so `npm start`
// does not pay for it (docs/decisions.md "node:crypto on first use"). Every simulator file takes
// its hashes, HMACs and ciphers from here.
import type * as Crypto from 'node:crypto';

/** The node:crypto module (loaded at the first call; Node keeps it loaded after). */
export const nodeCrypto = (): typeof Crypto => process.getBuiltinModule('node:crypto');

export const createHash: typeof Crypto.createHash = (algorithm, options) => nodeCrypto().createHash(algorithm, options);

export const createHmac: typeof Crypto.createHmac = (algorithm, key, options) => nodeCrypto().createHmac(algorithm, key, options);

export const timingSafeEqual: typeof Crypto.timingSafeEqual = (a, b) => nodeCrypto().timingSafeEqual(a, b);
