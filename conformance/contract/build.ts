// Builds the contract the kit carries: the OpenAPI 3.1 document generated from the simulator's
// operation declarations, i.e. the same schemas that validate requests and serve /openapi.json.
// It is committed as conformance/contract.json so that a run against a remote URL needs
// nothing from the target; a test fails when the committed file is stale.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { openApiDocument } from '../../simulator/operations.ts';

export const CONTRACT_PATH = fileURLToPath(new URL('../contract.json', import.meta.url));

/** The contract text exactly as it should be committed. */
export function contractText(): string {
  return `${JSON.stringify(openApiDocument(), null, 2)}\n`;
}

/** Whether the committed contract matches the simulator's declarations. */
export function contractIsCurrent(path = CONTRACT_PATH): boolean {
  try {
    return readFileSync(path, 'utf8') === contractText();
  } catch {
    return false;
  }
}

export function writeContract(path = CONTRACT_PATH): void {
  writeFileSync(path, contractText());
}
