// The SIP bench's simulator process: the default fixture in realtime at 100 times speed (a call
// rings and is answered within tens of milliseconds), one SIP credential, the listener on a free
// port offering MD5 (the bench client's digest). Prints READY <udp port>.
import { sipBenchSimulator } from './sip-bench-sim.ts';

const { sim, sip } = await sipBenchSimulator({ clock: 'realtime:100' });
process.stdout.write(`READY ${sip.udp}\n`);
process.on('SIGTERM', () => void sim.close().then(() => process.exit(0)));
