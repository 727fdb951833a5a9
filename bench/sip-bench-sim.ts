// The SIP benches' simulator: the default fixture, the SIP listener on a free loopback port
// offering MD5 (the bench clients' digest), and one SIP credential of ACME (bench_01).
import { createSimulator, type SimulatorOptions } from '../simulator/index.ts';

export async function sipBenchSimulator(options: SimulatorOptions = {}) {
  const sim = createSimulator(options);
  const sip = await sim.listenSip(0, '127.0.0.1', { digest: ['MD5'] });
  const res = await sim.handle({
    method: 'POST',
    url: '/v1/accounts/AC1a2b3c4d/sip-credentials',
    headers: { authorization: 'Bearer sk_test_acme_4f9c2b7e1d3a5c8f', 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench', username: 'bench_01', password: 'bench password 1' }),
  });
  if (res.status !== 201) throw new Error(`credential: ${res.status} ${res.body}`);
  return { sim, sip };
}
