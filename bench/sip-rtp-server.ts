// The SIP media bench's simulator process: the default fixture on a manual clock, one SIP
// credential, the listener offering MD5, and a carrier script under which every called number
// answers after a second and says one line. Driven over stdin, one command a line:
// `advance <ms>` reads what the clients sent, then moves virtual time (the media of every call
// goes out as it moves) and prints `OK`; `heard` prints `HEARD <packets>`, the RTP packets the
// server took from the clients of every call (GET /_sim/sip/calls/{callId}/media); `cpu` prints
// `CPU <microseconds>` (process.cpuUsage, user + system). Prints READY <udp port> <rtp port>.
import { createInterface } from 'node:readline';
import { sipBenchSimulator } from './sip-bench-sim.ts';

const PHONE_LINE = 'Hello, you have reached the bench phone. Please hold the line.';

const { sim, sip } = await sipBenchSimulator();
await sim.control.request('POST', '/carrier/scripts', { prefix: '0108', outcome: 'delivered', types: ['call'], delaySeconds: 1, lines: [PHONE_LINE] });
const cpu = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};
/**
 * A few turns of the event loop, so the datagrams the clients sent before this command are read
 * first (libuv reads at most 32 datagrams per socket per turn): the step's packets are taken before
 * its time passes, as paced clients' would be.
 */
async function drained(): Promise<void> {
  for (let i = 0; i < 40; i++) await new Promise((r) => setImmediate(r));
}

/** RTP packets taken from the clients of every call of the account. */
async function heard(): Promise<number> {
  let total = 0;
  for (let page = 0; ; page++) {
    const r = await sim.handle({ method: 'GET', url: `/v1/accounts/AC1a2b3c4d/calls?pageSize=100&page=${page}`, headers: { authorization: 'Bearer sk_test_acme_4f9c2b7e1d3a5c8f' } });
    const calls = (JSON.parse(r.body ?? '{}').data ?? []) as { callId: string }[];
    for (const c of calls) total += (await sim.control.request<{ received: { packets: number } | null }>('GET', `/sip/calls/${c.callId}/media`)).received?.packets ?? 0;
    if (calls.length < 100) return total;
  }
}
createInterface({ input: process.stdin }).on('line', (line) => {
  const [command, arg] = line.trim().split(' ');
  if (command === 'cpu') process.stdout.write(`CPU ${cpu()}\n`);
  else if (command === 'heard') void heard().then((n) => process.stdout.write(`HEARD ${n}\n`));
  else if (command === 'advance') void drained().then(() => sim.clock.advance({ seconds: Number(arg) / 1000 })).then(() => process.stdout.write('OK\n'));
});
process.stdout.write(`READY ${sip.udp} ${sip.rtp}\n`);
process.on('SIGTERM', () => void sim.close().then(() => process.exit(0)));
