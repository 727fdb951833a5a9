// The server side of the Agent SDK bench: the simulator itself on an HTTP port (the fixture's
// demo account and number), with the clock mode asked. Prints
// `READY <port> <accountId> <apiKey> <number>`; calls are placed through its control plane.
import { parseArgs } from 'node:util';
import { createSimulator } from '../simulator/index.ts';

const { values } = parseArgs({ options: { clock: { type: 'string', default: 'manual' } } });
const sim = createSimulator({ clock: values.clock });
const server = await sim.listen();
const account = sim.fixture.accounts[0]!;
const first = account.numbers![0]!;
process.stdout.write(`READY ${server.port} ${account.accountId} ${account.apiKeys![0]} ${typeof first === 'string' ? first : first.number}\n`);
process.on('SIGTERM', () => void server.close().then(() => sim.close()).then(() => process.exit(0)));
