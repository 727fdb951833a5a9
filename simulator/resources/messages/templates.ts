// Messenger notification templates (the `ata` type): approved text with #{variable}
// placeholders, per account and channel. They come from the fixture or the control plane; the
// public interface only sends with them.
import { Table } from '../../core/store.ts';
import { ApiError } from '../../core/errors.ts';
import { freshId } from '../../core/ids.ts';
import { MESSAGE_IDS } from './schema.ts';
import type { KernelParts } from '../../core/scope.ts';
import type { Fixture } from '../../fixture/schema.ts';
import { messageErrors as E } from './errors.ts';
import type { CreateTemplateInput, TemplateRow, UpdateTemplateInput } from './schema.ts';

/** What the model uses beyond its own tables; the descriptor passes the runtime. */
export type TemplatesPorts = Pick<KernelParts, 'clock' | 'random'>;

/** "#{name}" and "name" both name the variable `name` (API document: both spellings accepted). */
export function variableName(key: string): string {
  return key.startsWith('#{') && key.endsWith('}') ? key.slice(2, -1) : key;
}

/** The distinct #{...} placeholders of a template text, in order of appearance. */
export function placeholders(body: string): string[] {
  return [...new Set([...body.matchAll(/#\{([^{}]+)\}/g)].map((m) => m[1]!))];
}

/**
 * The variables a template needs: `declared` (with or without #{}) when given, which must
 * cover every placeholder of the body; else the body's placeholders. Returns the missing
 * placeholders instead when `declared` leaves some out.
 */
export function templateVariables(body: string, declared: readonly string[] | undefined): { variables: string[] } | { missing: string[] } {
  const inBody = placeholders(body);
  if (declared === undefined) return { variables: inBody };
  const names = [...new Set(declared.map(variableName))];
  const missing = inBody.filter((p) => !names.includes(p));
  return missing.length > 0 ? { missing } : { variables: names };
}

export function templateWire(r: TemplateRow) {
  return {
    templateId: r.id,
    accountId: r.accountId,
    channelId: r.channelId,
    name: r.name,
    body: r.body,
    variables: r.variables,
    status: r.status,
    sendable: r.status === 'APPROVED',
    createdAt: r.createdAt,
  };
}

/** The variables a template needs, or a 400 naming the placeholders `declared` leaves out. */
export function variablesOrRefuse(body: string, declared: readonly string[] | undefined): string[] {
  const v = templateVariables(body, declared);
  if ('missing' in v) {
    throw ApiError.validation(`variables must include every placeholder of body; missing ${v.missing.join(', ')}`, [{ path: 'variables', message: `missing ${v.missing.join(', ')}` }]);
  }
  return v.variables;
}

export class KakaoTemplates {
  readonly rows = new Table<TemplateRow>(); // maps a templateId to its template

  constructor(private readonly rt: TemplatesPorts) {}

  /** The fixture's templates, into a cleared table (the messages' fixture part). */
  seed(f: Fixture): void {
    for (const a of f.accounts) {
      for (const t of a.kakaoTemplates ?? []) {
        this.rows.insert({
          id: t.templateId,
          accountId: a.accountId,
          channelId: t.channelId,
          name: t.name ?? t.templateId,
          body: t.body,
          variables: variablesOrRefuse(t.body, t.variables), // the loader has checked them
          status: t.status ?? 'APPROVED',
          createdAt: t.createdAt ?? f.clock.start,
        });
      }
    }
  }

  /** The account's template on that channel, or undefined. */
  find(accountId: string, channelId: string, templateId: string): TemplateRow | undefined {
    const t = this.rows.get(templateId);
    return t && t.accountId === accountId && t.channelId === channelId ? t : undefined;
  }

  list(accountId: string): TemplateRow[] {
    return this.rows.newestFirst((t) => t.accountId === accountId);
  }

  get(accountId: string, templateId: string): TemplateRow {
    const t = this.rows.get(templateId);
    if (!t || t.accountId !== accountId) throw E.TEMPLATE_NOT_FOUND(`account ${accountId} has no template ${templateId}`);
    return t;
  }

  create(accountId: string, input: CreateTemplateInput): TemplateRow {
    if (input.templateId !== undefined && this.rows.has(input.templateId)) throw E.TEMPLATE_EXISTS(`template ${input.templateId} already exists`);
    const variables = variablesOrRefuse(input.body, input.variables);
    const id = input.templateId ?? freshId(this.rt.random, MESSAGE_IDS.kakaoTemplate, (id) => this.rows.has(id));
    return this.rows.insert({
      id,
      accountId,
      channelId: input.channelId,
      name: input.name ?? id,
      body: input.body,
      variables,
      status: input.status ?? 'APPROVED',
      createdAt: this.rt.clock.nowIso(),
    });
  }

  update(accountId: string, templateId: string, input: UpdateTemplateInput): TemplateRow {
    const t = this.get(accountId, templateId);
    const body = input.body ?? t.body;
    // A new body without a new list re-derives the variables from the body.
    const variables = input.variables !== undefined || input.body !== undefined ? variablesOrRefuse(body, input.variables) : t.variables;
    return this.rows.replace({ ...t, name: input.name ?? t.name, body, variables, status: input.status ?? t.status, updatedAt: this.rt.clock.nowIso() });
  }

  remove(accountId: string, templateId: string): void {
    this.get(accountId, templateId);
    this.rows.delete(templateId);
  }
  /** Every template of the account on a channel (the channel was disconnected). */
  removeChannel(accountId: string, channelId: string): number {
    const gone = this.rows.all().filter((t) => t.accountId === accountId && t.channelId === channelId);
    for (const t of gone) this.rows.delete(t.id);
    return gone.length;
  }

}
