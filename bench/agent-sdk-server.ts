// The server side of the Agent SDK bench: the Agent SDK family on an HTTP port with the test
// host's stand-in for the calls family, until the family is wired into the simulator. Prints
// `READY <port> <accountId> <apiKey> <number>`; `POST /bench/inbound` with a count places that many
// inbound calls to the number at once (their phones say nothing).
import { parseArgs } from 'node:util';
import { ACCOUNT, KEY, NUMBERS, startHost, type Host } from '../simulator/test/agent-sdk-harness.ts';

const { values } = parseArgs({ options: { clock: { type: 'string', default: 'manual' } } });
let host: Host;
host = await startHost({
  clock: values.clock === 'realtime' ? 'realtime' : 'manual',
  dispatch: (req) => {
    const n = Number(Buffer.from(req.body ?? '').toString());
    for (let i = 0; i < n; i++) host.inbound(Array(1000).fill(''));
    return { status: 200, headers: {}, body: '' };
  },
});
process.stdout.write(`READY ${new URL(host.baseUrl).port} ${ACCOUNT} ${KEY} ${NUMBERS[0]}\n`);
process.on('SIGTERM', () => void host.close().then(() => process.exit(0)));
