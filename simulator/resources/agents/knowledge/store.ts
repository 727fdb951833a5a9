// An agent's knowledge documents: intake (intake.ts) and chunking (chunk.ts) finish inside the
// request, as the reference says; the text is stored and its chunks recomputed when needed; the
// lexical index (rank.ts) of each agent is rebuilt after any change to its documents. Indexing
// fails with 502 only when the control plane says so; the document is then kept `failed`.
import { Table } from '../../../core/store.ts';
import { freshId } from '../../../core/ids.ts';
import type { KernelParts } from '../../../core/scope.ts';
import { agentErrors } from '../errors.ts';
import { AGENT_IDS, EMBEDDING_MODEL, type KnowledgeRow } from '../schema.ts';
import { chunkText } from './chunk.ts';
import { charCount, readKnowledge, titleOf, type KnowledgeUpload } from './intake.ts';
import { LexicalIndex, type Hit } from './rank.ts';

export function knowledgeWire(r: KnowledgeRow) {
  return {
    documentId: r.id,
    title: r.title,
    sourceType: r.sourceType,
    status: r.status,
    charCount: r.charCount,
    chunkCount: r.chunkCount,
    embeddingModel: EMBEDDING_MODEL,
    dateCreated: r.dateCreated,
    dateUpdated: r.dateUpdated,
  };
}

export class KnowledgeStore {
  readonly rows = new Table<KnowledgeRow>(); // maps a document id to the document and its text
  /** false: indexing fails (502) and documents are kept failed (control plane). */
  embeddingAvailable = true;
  private readonly indexes = new Map<string, { rows: readonly KnowledgeRow[]; index: LexicalIndex }>(); // agent id → its index and the rows it was built from

  constructor(private readonly ports: Pick<KernelParts, 'clock' | 'random'>) {}

  /** Newest first (reference: "newest registration first"). */
  list(agentId: string): KnowledgeRow[] {
    return this.rows.newestFirst((r) => r.agentId === agentId);
  }

  get(agentId: string, documentId: string): KnowledgeRow {
    const r = this.rows.get(documentId);
    if (!r || r.agentId !== agentId) throw agentErrors.KNOWLEDGE_NOT_FOUND(`no knowledge document ${documentId} for agent ${agentId}`);
    return r;
  }

  /**
   * createAgentKnowledgeDocument: reads the upload (PDFs asynchronously), then `stillThere`
   * confirms the agent was not deleted meanwhile before anything is stored.
   */
  async create(accountId: string, agentId: string, upload: KnowledgeUpload, stillThere: () => void): Promise<KnowledgeRow> {
    const source = await readKnowledge(upload);
    stillThere();
    const now = this.ports.clock.nowIso();
    const id = freshId(this.ports.random, AGENT_IDS.knowledgeDocument, (x) => this.rows.has(x));
    const row = this.rows.insert({
      id,
      accountId,
      agentId,
      title: source.title,
      sourceType: source.sourceType,
      status: 'failed',
      text: source.text,
      charCount: charCount(source.text),
      chunkCount: 0,
      dateCreated: now,
      dateUpdated: now,
    });
    return this.index(row);
  }

  /** A fixture's text document: stored and indexed at `at` (ready: a fixture's indexing never fails). */
  seed(agent: { id: string; accountId: string }, doc: { title?: string; text: string; sourceType: 'text' | 'markdown' }, at: string): KnowledgeRow {
    const id = freshId(this.ports.random, AGENT_IDS.knowledgeDocument, (x) => this.rows.has(x));
    const text = doc.text;
    return this.rows.insert({ id, accountId: agent.accountId, agentId: agent.id, title: doc.title ?? titleOf(text), sourceType: doc.sourceType, status: 'ready', text, charCount: charCount(text), chunkCount: chunkText(text, doc.sourceType).length, dateCreated: at, dateUpdated: at });
  }

  /** reindexAgentKnowledgeDocument: chunks the stored text again; a failed document becomes ready. */
  reindex(agentId: string, documentId: string): KnowledgeRow {
    const row = this.get(agentId, documentId);
    return this.index({ ...row, dateUpdated: this.ports.clock.nowIso() });
  }

  private index(row: KnowledgeRow): KnowledgeRow {
    if (!this.embeddingAvailable) {
      this.rows.replace({ ...row, status: 'failed', chunkCount: 0 });
      throw agentErrors.EMBEDDING_FAILED(`indexing document ${row.id} failed; it is kept with status failed: reindex it later`, { documentId: row.id });
    }
    return this.rows.replace({ ...row, status: 'ready', chunkCount: chunkText(row.text, row.sourceType).length });
  }

  delete(agentId: string, documentId: string): void {
    this.rows.delete(this.get(agentId, documentId).id);
  }

  removeAgent(agentId: string): void {
    for (const r of this.rows.all().filter((x) => x.agentId === agentId)) this.rows.delete(r.id);
  }

  /** The best `k` chunks of the agent's ready documents for the query (older documents win ties). */
  search(agentId: string, query: string, k: number): Hit[] {
    const rows = this.rows.all().filter((r) => r.agentId === agentId && r.status === 'ready');
    let cached = this.indexes.get(agentId);
    if (!cached || cached.rows.length !== rows.length || cached.rows.some((r, i) => r !== rows[i])) {
      const chunks = rows.flatMap((r) => chunkText(r.text, r.sourceType).map((text, index) => ({ documentId: r.id, index, text })));
      cached = { rows, index: new LexicalIndex(chunks) };
      this.indexes.set(agentId, cached);
    }
    return cached.index.search(query, k);
  }
}
