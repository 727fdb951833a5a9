// What a run shares between its units (the target, the contract, what was learnt of the target so
// far): its own file, so the step runner's helpers (missing operations, operation presence,
// webhook and agent steps) take it without importing the step runner back.
import type { Contract } from '../contract/contract.ts';
import type { SecretSet } from '../secrets.ts';
import type { Target } from '../target.ts';
import type { ReceivedWebhook } from '../checks/webhooks.ts';
import type { WebhookReceiver } from '../webhook-receiver.ts';

/** Everything a run shares between its units. */
export interface RunContext {
  target: Target;
  contract: Contract;
  capabilities: Set<string>;
  /** `fail`: sim-level mismatches fail (the simulator); `observe`: they are observations. */
  simLevel: 'fail' | 'observe';
  secrets: SecretSet;
  /** Probe keys already run, so that each probe runs once per operation per run. */
  probesDone: Set<string>;
  /** Operations found not to be served at this target, with the message that said so (reported once). */
  missingOperations: Map<string, string>;
  /** By operation: `served` once an answer showed it, else why a 404/405 of it proves nothing (operation-presence.ts). */
  operationPresence: Map<string, string>;
  seed: number;
  /** When set, a step naming a clause outside the catalogue is a defect of the kit (properties build steps in code). */
  knownClause?: (id: string) => boolean;
  /** The kit's webhook receiver, when the run started one (capability `receiver`). */
  receiver?: WebhookReceiver;
  /** Webhooks already put through the webhook checks (each once per run). */
  webhooksChecked: Set<ReceivedWebhook>;
  /** Signing keys given for a target without the webhooks control plane, by account name (main, alt). */
  signingKeys?: Map<string, string>;
  /** How long to wait for deliveries after a virtual advance when the target cannot say they settled. */
  webhookGraceMs?: number;
  /** Keep each API answer's body in its step result (for `diff`). */
  recordResponses?: boolean;
}
