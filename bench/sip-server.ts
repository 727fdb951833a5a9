// The SIP bench's simulator process: the default fixture in realtime at 100 times speed (a call
// rings and is answered within tens of milliseconds), one SIP credential, the listener on a free
// port offering MD5 (the bench client's digest). Prints READY <udp port>.
import { createSimulator } from '../simulator/index.ts';

const sim = createSimulator({ clock: 'realtime:100' });
const sip = await sim.listenSip(0, '127.0.0.1', { digest: ['MD5'] });
const res = await sim.handle({
  method: 'POST',
  url: '/v1/accounts/AC1a2b3c4d/sip-credentials',
  headers: { authorization: 'Bearer sk_test_acme_4f9c2b7e1d3a5c8f', 'content-type': 'application/json' },
  body: JSON.stringify({ name: 'bench', username: 'bench_01', password: 'bench password 1' }),
});
if (res.status !== 201) throw new Error(`credential: ${res.status} ${res.body}`);
process.stdout.write(`READY ${sip.udp}\n`);
process.on('SIGTERM', () => void sim.close().then(() => process.exit(0)));
