// Knowledge documents of a managed agent (public API document): list newest first, create from
// JSON text or one multipart file (extracted, chunked and indexed inside the request: 201 ready),
// delete (204), reindex (200). Refusals name the field and store nothing.
import { Type } from '@sinclair/typebox';
import { reply } from '../../core/operation.ts';
import { operation } from './scope.ts';
import { ApiError, errorCodes } from '../../core/errors.ts';
import { agentErrors } from './errors.ts';
import { knowledgeErrors, KNOWLEDGE_FILE_MAX_BYTES, type KnowledgeUpload } from './knowledge/intake.ts';
import { knowledgeWire } from './knowledge/store.ts';
import { AgentKnowledgeDocument, AgentKnowledgeList, CreateKnowledgeFormBody, CreateKnowledgeJsonBody } from './schema.ts';
import { formFile, formText, onlyFields, readUpload } from '../../core/uploads.ts';

const TAG = 'Agents';
const BASIS = 'public API document (agent knowledge operations); guides "Managed agents"';
const agentParams = { accountId: Type.String({ description: 'Account id.' }), agentId: Type.String({ description: 'Agent id.' }) };
const documentParams = { ...agentParams, documentId: Type.String({ description: 'Knowledge document id.' }) };

/** Multipart framing on top of the 10 MB file. */
const FORM_OVERHEAD = 64 * 1024;

async function uploadOf(request: Parameters<typeof readUpload>[0]): Promise<KnowledgeUpload> {
  const up = await readUpload(request, CreateKnowledgeJsonBody, 'the knowledge document');
  if (up.kind === 'json') {
    const v = up.value as { title?: string; text: string };
    return { kind: 'json', text: v.text, ...(v.title === undefined ? {} : { title: v.title }) };
  }
  if (up.form.has('text')) throw ApiError.validation('send either JSON text or one file, not both', [{ path: 'text', message: 'not with a file' }]);
  onlyFields(up.form, ['title', 'file']);
  const file = await formFile(up.form, 'file');
  if (!file) throw ApiError.validation('the form needs a file part named file', [{ path: 'file', message: 'is required' }]);
  const title = formText(up.form, 'title');
  return { kind: 'file', fileName: file.name, bytes: file.bytes, ...(title === null ? {} : { title }) };
}

export const knowledgeOperations = [
  operation({
    operationId: 'listAgentKnowledgeDocuments',
    method: 'GET',
    path: '/v1/accounts/{accountId}/agents/{agentId}/knowledge',
    tag: TAG,
    summary: 'List an agent\'s knowledge documents',
    description: 'Newest first, `{ data }`, with each document\'s chunk count.',
    origin: 'reference',
    basis: BASIS,
    auth: 'account',
    params: agentParams,
    responses: { 200: { description: 'The documents.', schema: AgentKnowledgeList } },
    errors: [agentErrors.NOT_FOUND],
    handler: (ctx) => {
      const a = ctx.scope.agents.get(ctx.accountId, ctx.params.agentId);
      return reply.ok({ data: ctx.scope.agents.knowledge.list(a.id).map(knowledgeWire) });
    },
  }),
  operation({
    operationId: 'createAgentKnowledgeDocument',
    method: 'POST',
    path: '/v1/accounts/{accountId}/agents/{agentId}/knowledge',
    tag: TAG,
    summary: 'Add a knowledge document',
    description:
      `JSON \`{ title?, text }\` or multipart/form-data with one \`file\` (.txt, .text, .md, .markdown, or a text-based .pdf; no OCR) and an optional \`title\` (default the file name), not both. Files up to ${KNOWLEDGE_FILE_MAX_BYTES} bytes (413 \`knowledge_too_large\`), extracted text up to 200,000 characters (413). Extracted, chunked and indexed inside the request: 201 with status ready. A 502 means indexing failed (scripted): the document is kept with status failed.`,
    origin: 'reference',
    basis: BASIS,
    auth: 'account',
    params: agentParams,
    maxBodyBytes: KNOWLEDGE_FILE_MAX_BYTES + FORM_OVERHEAD,
    bodyDoc: {
      required: true,
      content: {
        'application/json': { schema: CreateKnowledgeJsonBody },
        'multipart/form-data': { schema: CreateKnowledgeFormBody, encoding: { file: { contentType: 'text/plain, text/markdown, application/pdf' } } },
      },
    },
    responses: { 201: { description: 'The document, ready for search.', schema: AgentKnowledgeDocument } },
    errors: [errorCodes.VALIDATION, agentErrors.NOT_FOUND, knowledgeErrors.FILE_TYPE, knowledgeErrors.UNREADABLE, knowledgeErrors.TOO_LARGE, agentErrors.EMBEDDING_FAILED],
    handler: async (ctx) => {
      const m = ctx.scope.agents;
      const a = m.get(ctx.accountId, ctx.params.agentId);
      const upload = await uploadOf(ctx.request);
      const row = await m.knowledge.create(ctx.accountId, a.id, upload, () => void m.get(ctx.accountId, a.id));
      return reply.created(knowledgeWire(row));
    },
  }),
  operation({
    operationId: 'deleteAgentKnowledgeDocument',
    method: 'DELETE',
    path: '/v1/accounts/{accountId}/agents/{agentId}/knowledge/{documentId}',
    tag: TAG,
    summary: 'Delete a knowledge document and its chunks',
    origin: 'reference',
    basis: BASIS,
    auth: 'account',
    params: documentParams,
    responses: { 204: { description: 'Deleted.' } },
    errors: [agentErrors.NOT_FOUND, agentErrors.KNOWLEDGE_NOT_FOUND],
    handler: (ctx) => {
      const a = ctx.scope.agents.get(ctx.accountId, ctx.params.agentId);
      ctx.scope.agents.knowledge.delete(a.id, ctx.params.documentId);
      return reply.noContent();
    },
  }),
  operation({
    operationId: 'reindexAgentKnowledgeDocument',
    method: 'POST',
    path: '/v1/accounts/{accountId}/agents/{agentId}/knowledge/{documentId}/reindex',
    tag: TAG,
    summary: 'Chunk and index a document\'s stored text again',
    description: 'A failed document becomes ready; 502 when indexing fails (scripted).',
    origin: 'reference',
    basis: BASIS,
    auth: 'account',
    params: documentParams,
    responses: { 200: { description: 'The document.', schema: AgentKnowledgeDocument } },
    errors: [agentErrors.NOT_FOUND, agentErrors.KNOWLEDGE_NOT_FOUND, agentErrors.EMBEDDING_FAILED],
    handler: (ctx) => {
      const a = ctx.scope.agents.get(ctx.accountId, ctx.params.agentId);
      return reply.ok(knowledgeWire(ctx.scope.agents.knowledge.reindex(a.id, ctx.params.documentId)));
    },
  }),
];
