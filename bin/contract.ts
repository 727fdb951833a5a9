// `npm run contract -- [--check|--write]`: conformance/contract.json, the contract the kit
// carries, is the simulator's own OpenAPI document (GET /openapi.json: the schemas that validate
// its requests), pretty-printed. It is built here, on the simulator's side, and committed, so
// the kit never loads the simulator to read it and a run against a URL needs nothing from the
// target. bin/test/contract.test.ts fails while the committed file is stale.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createSimulator } from '../simulator/index.ts';

export const CONTRACT_PATH = fileURLToPath(new URL('../conformance/contract.json', import.meta.url));

/** The contract text exactly as it should be committed. */
export async function contractText(): Promise<string> {
  const sim = createSimulator();
  try {
    const res = await sim.handle({ method: 'GET', url: '/openapi.json', headers: {} });
    if (res.status !== 200) throw new Error(`GET /openapi.json answered ${res.status}`);
    return `${JSON.stringify(JSON.parse(res.body), null, 2)}\n`;
  } finally {
    await sim.close();
  }
}

/** Whether the committed contract matches the simulator's operations. */
export async function contractIsCurrent(file = CONTRACT_PATH): Promise<boolean> {
  let committed: string;
  try {
    committed = readFileSync(file, 'utf8');
  } catch {
    return false;
  }
  return committed === (await contractText());
}

interface Io {
  out: { write(s: string): unknown };
  err: { write(s: string): unknown };
}

/** The command: --check (default) exits 0 when current, 1 when stale; --write regenerates. */
export async function main(argv: string[], io: Io, file = CONTRACT_PATH): Promise<number> {
  const shown = path.relative(process.cwd(), file);
  if (argv.length > 1 || argv.some((a) => a !== '--check' && a !== '--write')) {
    io.err.write('usage: npm run contract -- [--check|--write]\n');
    return 2;
  }
  if (argv[0] === '--write') {
    writeFileSync(file, await contractText());
    io.out.write(`wrote ${shown}\n`);
    return 0;
  }
  const current = await contractIsCurrent(file);
  io.out.write(current ? `${shown} is current\n` : `${shown} is stale: run \`npm run contract -- --write\`\n`);
  return current ? 0 : 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2), { out: process.stdout, err: process.stderr }).then(
    (code) => void (process.exitCode = code),
    (e: unknown) => {
      process.stderr.write(`contract: ${(e as Error)?.stack ?? String(e)}\n`);
      process.exitCode = 3;
    },
  );
}
