// Call flows: named graphs of blocks that handle calls (spec "Call flow", "Call flows"). The model
// validates and fills graphs (graph.ts), owns the voice-ownership registry behind 403
// call_flow_voice_forbidden, answers the numbers family's `callFlow` reference check, and offers
// the calls engine a narrow read port (`find`). Built from its scope (ports.ts): numbers are
// reached only through a port; the runtime runs its snapshot part and its fixture part loads
// the seed voices and flows (index.ts, fixture.ts).
import { Table } from '../../core/store.ts';
import type { FieldError } from '../../core/errors.ts';
import { freshId } from '../../core/ids.ts';
import { deriveVariables, parseGraph, readStoredGraph } from './graph.ts';
import type { CallFlowsModelScope } from './ports.ts';
import { CALL_FLOW_IDS, FLOWS_PER_ACCOUNT, GRAPH_MAX_BYTES, NAME_MAX, type FlowGraph, type VoiceProvider } from './schema.ts';
import { type CallFlowFixtureT, type CallFlowRow, type CallFlowsState, type VoiceOwner } from './records.ts';

import { callFlowErrors } from './errors.ts';

export { callFlowErrors };

/** A flow as the calls engine reads it (the filled graph, null when unreadable, and its variables): one object per stored row, shared by every reader (read only). */
export interface StoredFlow {
  readonly id: string;
  readonly accountId: string;
  readonly name: string;
  readonly graph: FlowGraph | null;
  readonly variables: readonly string[];
}

/** The read port other families take (calls, batches): undefined for an unknown or foreign id. */
export interface CallFlowsReader {
  find(accountId: string, id: string): StoredFlow | undefined;
}

export interface CallFlowBody {
  name?: unknown;
  graph?: unknown;
}

/** What a stored row reads as, kept per row object (rows are replaced, never changed). */
interface FlowView {
  graph: FlowGraph | null;
  variables: string[];
  stored?: StoredFlow;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export class CallFlowsModel implements CallFlowsReader {
  flows = new Table<CallFlowRow>(); // maps a call flow id to its name, stored graph and owner
  voices = new Map<string, VoiceOwner>(); // maps "provider:voiceId" to the account that registered (cloned) it
  private readonly ownerLookups: ((provider: VoiceProvider, voiceId: string) => string | undefined)[] = []; // other families that know voices' owners (voice clones)
  /** Parsed view per stored row (rows are immutable, so the row object is the cache key). */
  private readonly views = new WeakMap<CallFlowRow, FlowView>();

  constructor(private readonly scope: CallFlowsModelScope) {
    scope.refs.register('callFlow', (accountId, id) => this.flows.get(id)?.accountId === accountId);
  }

  clear(): void {
    this.flows = new Table();
    this.voices = new Map();
  }

  /**
   * Seed flows (checked when the fixture loaded), oldest first by `at`; a flow without an id
   * draws one that none of the seeds names.
   */
  loadFlows(seeds: readonly { accountId: string; flow: CallFlowFixtureT; graph: FlowGraph; at: string }[]): void {
    for (const { accountId, flow, graph, at } of seeds) {
      const id = flow.callFlowId ?? freshId(this.scope.random, CALL_FLOW_IDS.callFlow, (x) => this.flows.has(x) || seeds.some((s) => s.flow.callFlowId === x));
      this.flows.insert({ id, accountId, name: flow.name, graph, canvas: null, dateCreated: at, dateUpdated: at });
    }
  }

  snapshot(): CallFlowsState {
    return { flows: [...this.flows.all()], voices: [...this.voices.values()] };
  }

  /** A part the runtime validated (index.ts). */
  restore(s: CallFlowsState): void {
    this.flows = new Table(s.flows);
    this.voices = new Map(s.voices.map((v) => [voiceKey(v.provider, v.voiceId), v]));
  }

  // --- reads ---

  find(accountId: string, id: string): StoredFlow | undefined {
    const row = this.flows.get(id);
    if (!row || row.accountId !== accountId) return undefined;
    // Made once per stored row (a call asks at each step of its walk).
    const v = this.view(row);
    return (v.stored ??= { id: row.id, accountId: row.accountId, name: row.name, graph: v.graph, variables: v.variables });
  }

  /** The stored graph read under the current schema, and the variables it asks for. */
  view(row: CallFlowRow): FlowView {
    let v = this.views.get(row);
    if (!v) {
      const graph = readStoredGraph(row.graph);
      v = { graph, variables: graph ? deriveVariables(graph) : [] };
      this.views.set(row, v);
    }
    return v;
  }

  phoneNumbers(row: CallFlowRow): string[] {
    return [...this.scope.numbers.routedToCallFlow(row.accountId, row.id)];
  }

  /** The account's flows, newest first (reference). */
  listFor(accountId: string): CallFlowRow[] {
    return this.flows.newestFirst((f) => f.accountId === accountId);
  }

  get(accountId: string, id: string): CallFlowRow {
    const row = this.flows.get(id);
    if (!row || row.accountId !== accountId) throw callFlowErrors.NOT_FOUND(`no call flow ${id} in this account`);
    return row;
  }

  // --- writes ---

  create(accountId: string, body: unknown): CallFlowRow {
    const { name, graph } = this.checkBody(accountId, body, 'full');
    if (this.flows.all().filter((f) => f.accountId === accountId).length >= FLOWS_PER_ACCOUNT) {
      throw callFlowErrors.LIMIT_REACHED(`the account already has ${FLOWS_PER_ACCOUNT} call flows; delete one first`);
    }
    const now = this.scope.clock.nowIso();
    const id = freshId(this.scope.random, CALL_FLOW_IDS.callFlow, (x) => this.flows.has(x));
    return this.flows.insert({ id, accountId, name: name!, graph: graph!, canvas: null, dateCreated: now, dateUpdated: now });
  }

  /** PUT: name and graph both required; the graph replaces the stored one and the canvas goes. */
  replace(accountId: string, id: string, body: unknown): CallFlowRow {
    const current = this.get(accountId, id);
    const { name, graph } = this.checkBody(accountId, body, 'full');
    return this.flows.replace({ ...current, name: name!, graph: graph!, canvas: null, dateUpdated: this.scope.clock.nowIso() });
  }

  /** PATCH: name and/or one whole graph; the console's canvas coordinates stay. */
  update(accountId: string, id: string, body: unknown): CallFlowRow {
    const current = this.get(accountId, id);
    const { name, graph } = this.checkBody(accountId, body, 'partial');
    return this.flows.replace({
      ...current,
      name: name ?? current.name,
      graph: graph ?? current.graph,
      dateUpdated: this.scope.clock.nowIso(),
    });
  }

  delete(accountId: string, id: string): void {
    const current = this.get(accountId, id);
    const numbers = this.phoneNumbers(current);
    if (numbers.length > 0) {
      throw callFlowErrors.IN_USE(`call flow ${id} is in use: ${numbers.join(', ')} route inbound calls to it; route them elsewhere first`, { phoneNumbers: numbers });
    }
    this.flows.delete(id);
  }

  // --- control plane ---

  /** Marks a paid voice id as registered (cloned) by an account; others then get 403. */
  /**
   * Another family that knows who owns voices registers here (voice clones: a clone's voice is
   * its account's); a voice it names for another account is 403 as the registry's are.
   */
  addVoiceOwners(lookup: (provider: VoiceProvider, voiceId: string) => string | undefined): void {
    this.ownerLookups.push(lookup);
  }

  /** Flows of the account whose voice is this one (a clone in use cannot be deleted). */
  flowsSpeaking(accountId: string, provider: VoiceProvider, voiceId: string): string[] {
    return this.flows
      .all()
      .filter((f) => f.accountId === accountId && this.view(f).graph?.voice.provider === provider && this.view(f).graph?.voice.voiceId?.toLowerCase() === voiceId.toLowerCase())
      .map((f) => `call flow ${f.id}`);
  }

  registerVoice(accountId: string, provider: VoiceProvider, voiceId: string): VoiceOwner {
    const owner = { provider, voiceId, accountId };
    this.voices.set(voiceKey(provider, voiceId), owner);
    return owner;
  }

  /** Stores any JSON as the flow's graph, as an old or hand-edited flow would have (no checks). */
  plantGraph(id: string, graph: unknown): CallFlowRow | undefined {
    const current = this.flows.get(id);
    if (!current) return undefined;
    return this.flows.replace({ ...current, graph: structuredClone(graph) });
  }

  /** Sets the console editor's canvas coordinates (never visible over the API). */
  setCanvas(id: string, canvas: unknown): CallFlowRow | undefined {
    const current = this.flows.get(id);
    if (!current) return undefined;
    return this.flows.replace({ ...current, canvas: structuredClone(canvas) });
  }

  // --- checks ---

  /**
   * Checks the whole body before anything changes: body fields and name (validation), graph
   * size, graph structure and links (issues[]), then voice ownership (403).
   */
  private checkBody(accountId: string, body: unknown, mode: 'full' | 'partial'): { name?: string; graph?: FlowGraph } {
    const errors: FieldError[] = [];
    if (!isObject(body)) throw callFlowErrors.VALIDATION('the body must be a JSON object with name and graph', { errors: [{ path: '', message: 'must be an object' }] });
    for (const key of Object.keys(body)) if (key !== 'name' && key !== 'graph') errors.push({ path: key, message: 'is not a known field' });
    if (mode === 'full') {
      if (body.name === undefined) errors.push({ path: 'name', message: 'is required' });
      if (body.graph === undefined) errors.push({ path: 'graph', message: 'is required' });
    } else if (body.name === undefined && body.graph === undefined) {
      errors.push({ path: '', message: 'give name, graph or both' });
    }
    if (body.name !== undefined) {
      if (typeof body.name !== 'string') errors.push({ path: 'name', message: 'must be a string' });
      else if (body.name.trim() === '') errors.push({ path: 'name', message: 'must not be blank' });
      else if ([...body.name].length > NAME_MAX) errors.push({ path: 'name', message: `must be at most ${NAME_MAX} characters` });
    }
    if (body.graph === null) errors.push({ path: 'graph', message: 'must be a graph object' });
    if (errors.length > 0) {
      const first = errors[0]!;
      throw callFlowErrors.VALIDATION(`request body is invalid: ${first.path ? `${first.path}: ` : ''}${first.message}`, { errors });
    }
    const out: { name?: string; graph?: FlowGraph } = {};
    if (typeof body.name === 'string') out.name = body.name;
    if (body.graph !== undefined) {
      const bytes = Buffer.byteLength(JSON.stringify(body.graph));
      if (bytes > GRAPH_MAX_BYTES) {
        throw callFlowErrors.GRAPH_TOO_LARGE(`the graph is ${bytes} bytes; the limit is ${GRAPH_MAX_BYTES} bytes (256 KB)`, { limit: GRAPH_MAX_BYTES, size: bytes });
      }
      const parsed = parseGraph(body.graph);
      if (!parsed.ok) {
        const first = parsed.issues[0]!;
        const where = first.path ? `${first.path}: ` : '';
        const more = parsed.issues.length > 1 ? ` (and ${parsed.issues.length - 1} more)` : '';
        throw callFlowErrors.INVALID_GRAPH(`the call flow graph is invalid: ${where}${first.message}${more}`, { issues: parsed.issues });
      }
      const voice = parsed.graph.voice;
      if (voice.voiceId !== undefined) {
        const owner = this.voices.get(voiceKey(voice.provider, voice.voiceId))?.accountId ?? this.ownerLookups.map((l) => l(voice.provider as VoiceProvider, voice.voiceId!)).find((x) => x !== undefined);
        if (owner !== undefined && owner !== accountId) {
          throw callFlowErrors.VOICE_FORBIDDEN(`voice ${voice.voiceId} (${voice.provider}) was registered by another organization`);
        }
      }
      out.graph = parsed.graph;
    }
    return out;
  }
}

function voiceKey(provider: string, voiceId: string): string {
  return `${provider}:${voiceId}`;
}
