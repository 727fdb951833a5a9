// Every property the kit runs, in report order. A resource family adds its lists to lists.ts
// (paging, filters and phone properties pick them up) and its own model-based suite here.
import type { Contract } from '../contract/contract.ts';
import { agentConversationsProperty } from './agent-conversations.ts';
import { assignmentLinkModel } from './assignment-links-model.ts';
import { blockListModel } from './blocklists-model.ts';
import { callFlowGraphProperty } from './call-flow-graphs.ts';
import { callFlowWalkProperty } from './call-flow-walk.ts';
import { callTransfersProperty } from './call-transfers.ts';
import { callBatchesProperty } from './call-batches.ts';
import { emailDomainZoneProperty } from './email-domain-zone.ts';
import { egressProperty } from './egress.ts';
import { filterProperties } from './filters.ts';
import { fuzzProperty } from './fuzz.ts';
import { pagingProperties } from './paging.ts';
import { phoneProperties } from './phone.ts';
import { verificationModel } from './verifications-model.ts';
import { voicemlWalkProperty } from './voiceml-walk.ts';
import type { PropertyDef } from './types.ts';

export function allProperties(contract: Contract): PropertyDef[] {
  return [...pagingProperties, ...phoneProperties, ...filterProperties, blockListModel, verificationModel, assignmentLinkModel, emailDomainZoneProperty, callFlowGraphProperty, callFlowWalkProperty, callTransfersProperty, voicemlWalkProperty, callBatchesProperty, agentConversationsProperty, egressProperty, fuzzProperty(contract)];
}
