// Control plane of managed agents (docs/control-plane.md "Agents"): the fixed behaviour contract
// (PUT/GET/DELETE /_sim/agents/{agentId}/behaviour, an agent addressed by id alone), and the
// switch that makes knowledge indexing fail (502) to test that path.
import { Type } from '@sinclair/typebox';
import { reply } from '../../core/operation.ts';
import { operation } from './scope.ts';
import { agentErrors } from './errors.ts';
import { BehaviourInput, BehaviourSchema } from './behaviour.ts';
import type { AgentsModel } from './model.ts';
import type { AgentRow } from './schema.ts';

const TAG = 'Control plane';
const agentParam = { agentId: Type.String({ description: 'Agent id (any account).' }) };

const IndexingView = Type.Object(
  { available: Type.Boolean({ description: 'false: creating and reindexing knowledge documents answer 502 and keep the document failed.' }) },
  { $id: 'SimKnowledgeIndexing', additionalProperties: false },
);

function agentOf(ctx: { scope: { agents: AgentsModel }; params: { agentId: string } }): AgentRow {
  const a = ctx.scope.agents.anyAccount(ctx.params.agentId);
  if (!a) throw agentErrors.NOT_FOUND(`no agent ${ctx.params.agentId}`);
  return a;
}

export const operations = [
  operation({
    operationId: 'simPutAgentBehaviour',
    method: 'PUT',
    path: '/_sim/agents/{agentId}/behaviour',
    tag: TAG,
    summary: 'Script what a managed agent says and does (its "brain")',
    description:
      'Fixed contract (docs/agents.md): `{ greeting?, rules: [{ heard, say?, tool?: { name, arguments? }, transfer?: { to, mode? }, optOut?, hangup? }], fallback?, maxTurns? }`. The first rule whose `heard` (case-insensitive regular expression) matches an utterance runs: tool, say, optOut, transfer, hangup. Refused with 400 naming the field: a pattern that does not compile or nests quantifiers, a tool not among the agent\'s allowedTools, a transfer target that is no number or SIP URI, a template reference that names nothing. Answers the stored behaviour, defaults filled.',
    origin: 'simulator',
    basis: 'issue contract: managed agents',
    auth: 'control',
    params: agentParam,
    body: BehaviourInput,
    bodyRequired: true,
    responses: { 200: { description: 'The stored behaviour.', schema: BehaviourSchema } },
    errors: [agentErrors.NOT_FOUND],
    handler: (ctx) => reply.ok(ctx.scope.agents.setBehaviour(agentOf(ctx), ctx.body)),
  }),
  operation({
    operationId: 'simGetAgentBehaviour',
    method: 'GET',
    path: '/_sim/agents/{agentId}/behaviour',
    tag: TAG,
    summary: 'Read a managed agent\'s behaviour (custom false: the default)',
    origin: 'simulator',
    basis: 'issue contract: managed agents',
    auth: 'control',
    params: agentParam,
    responses: { 200: { description: 'The behaviour.', schema: BehaviourSchema } },
    errors: [agentErrors.NOT_FOUND],
    handler: (ctx) => reply.ok(ctx.scope.agents.behaviourView(agentOf(ctx))),
  }),
  operation({
    operationId: 'simDeleteAgentBehaviour',
    method: 'DELETE',
    path: '/_sim/agents/{agentId}/behaviour',
    tag: TAG,
    summary: 'Restore a managed agent\'s default behaviour',
    origin: 'simulator',
    basis: 'issue contract: managed agents',
    auth: 'control',
    params: agentParam,
    responses: { 204: { description: 'The default applies again.' } },
    errors: [agentErrors.NOT_FOUND],
    handler: (ctx) => {
      ctx.scope.agents.resetBehaviour(agentOf(ctx));
      return reply.noContent();
    },
  }),
  operation({
    operationId: 'simSetKnowledgeIndexing',
    method: 'PUT',
    path: '/_sim/agents/knowledge-indexing',
    tag: TAG,
    summary: 'Make knowledge indexing fail or work',
    description: 'With `available: false`, creating or reindexing a knowledge document answers 502 `knowledge_embedding_failed` and keeps the document with status failed. Part of the state (reset restores true).',
    origin: 'simulator',
    auth: 'control',
    body: IndexingView,
    bodyRequired: true,
    responses: { 200: { description: 'The switch.', schema: IndexingView } },
    handler: (ctx) => {
      ctx.scope.agents.knowledge.embeddingAvailable = ctx.body.available;
      return reply.ok({ available: ctx.scope.agents.knowledge.embeddingAvailable });
    },
  }),
];
