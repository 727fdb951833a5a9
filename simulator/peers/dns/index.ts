// The fake DNS, a peer behind its door: the zone tests script through its /_sim routes
// (control.ts), looked up by the email domains' checks and the egress guard. Its state is the
// zone, the scripted failures and rebinding answers; the runtime validates a snapshot's part
// against its schema before the model normalises it back in.
import { ownPart } from '../../core/table-state.ts';
import { defineFamily } from '../../resources/family.ts';
import { DnsStateSchema, FakeDns, type DnsState } from './model.ts';
import { operations as control } from './control.ts';
import { needs } from './ports.ts';

export const dns = defineFamily({
  key: 'dns',
  needs,
  create: () => new FakeDns(),
  state: ownPart<DnsState, FakeDns>(DnsStateSchema),
  control,
  capabilities: ['dns'],
});
