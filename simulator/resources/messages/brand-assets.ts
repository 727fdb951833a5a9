// What brand messages (type bms) are built from: brand templates, planted through the control
// plane as the messenger would hold them (no review: listed means sendable), and brand images the
// account uploads. Both belong to the messages family's state (docs/compatibility.md).
import { createHash } from '../../core/node-crypto.ts';
import { Table } from '../../core/store.ts';
import { freshId } from '../../core/ids.ts';
import type { VirtualClock } from '../../core/clock.ts';
import type { SeededRandom } from '../../core/random.ts';
import { messageErrors as E } from './errors.ts';
import { variablesOrRefuse } from './templates.ts';
import { MESSAGE_IDS, type BrandImageRow, type BrandTemplateRow, type CreateBrandTemplateInput } from './schema.ts';

/** Brand images: JPEG or PNG, at most 500 KB (the messenger's own ceiling for bubble images). */
export const BRAND_IMAGE_MAX_BYTES = 500 * 1024;

/** Where an image sits in its bubble: `sub` is the small item image of a wide list (today's SDK); `main` the default. */
export const BRAND_IMAGE_SLOTS = ['main', 'sub'] as const;

interface Kernel {
  clock: VirtualClock;
  random: () => SeededRandom;
}

export class BrandTemplates {
  readonly rows = new Table<BrandTemplateRow>(); // maps a templateId to its brand template

  constructor(private readonly k: Kernel) {}

  find(accountId: string, channelId: string, templateId: string): BrandTemplateRow | undefined {
    const t = this.rows.get(templateId);
    return t && t.accountId === accountId && t.channelId === channelId ? t : undefined;
  }

  list(accountId: string, channelId: string): BrandTemplateRow[] {
    return this.rows.newestFirst((t) => t.accountId === accountId && t.channelId === channelId);
  }

  create(accountId: string, input: CreateBrandTemplateInput): BrandTemplateRow {
    if (input.templateId !== undefined && this.rows.has(input.templateId)) throw E.TEMPLATE_EXISTS(`brand template ${input.templateId} already exists`);
    const content = input.content ?? null;
    const header = input.header ?? null;
    // The placeholders of both text slots, checked as a notification template's are.
    const declared = variablesOrRefuse(`${content ?? ''}\n${header ?? ''}`, input.variables);
    const id = input.templateId ?? freshId(this.k.random(), MESSAGE_IDS.brandTemplate, (x) => this.rows.has(x));
    const now = this.k.clock.nowIso();
    return this.rows.insert({
      id,
      accountId,
      channelId: input.channelId,
      name: input.name ?? id,
      chatBubbleType: input.chatBubbleType ?? 'TEXT',
      content,
      header,
      variables: declared,
      createdAt: now,
      updatedAt: now,
    });
  }

  remove(accountId: string, templateId: string): void {
    const t = this.rows.get(templateId);
    if (!t || t.accountId !== accountId) throw E.TEMPLATE_NOT_FOUND(`account ${accountId} has no brand template ${templateId}`);
    this.rows.delete(templateId);
  }
}

/** The image type from the file's first bytes (a declared type or file name proves nothing). */
export function sniffImageType(bytes: Uint8Array): 'image/jpeg' | 'image/png' | undefined {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length >= png.length && png.every((b, i) => bytes[i] === b)) return 'image/png';
  return undefined;
}

export class BrandImages {
  readonly rows = new Table<BrandImageRow>(); // maps an image id to the uploaded image's description

  constructor(private readonly k: Kernel) {}

  get(accountId: string, id: string): BrandImageRow | undefined {
    const r = this.rows.get(id);
    return r && r.accountId === accountId ? r : undefined;
  }

  list(accountId: string): BrandImageRow[] {
    return this.rows.newestFirst((r) => r.accountId === accountId);
  }

  /** Checks and records an upload; refused uploads store nothing. */
  upload(accountId: string, input: { bytes: Uint8Array; bubbleType: string; slot: string; name: string | null }): BrandImageRow {
    if (input.bytes.length === 0) throw E.BRAND_IMAGE_INVALID('the image part is empty', { errors: [{ path: 'image', message: 'is empty' }] });
    if (input.bytes.length > BRAND_IMAGE_MAX_BYTES) {
      throw E.BRAND_IMAGE_TOO_LARGE(`the image is ${input.bytes.length} bytes; at most ${BRAND_IMAGE_MAX_BYTES}`, { errors: [{ path: 'image', message: `over ${BRAND_IMAGE_MAX_BYTES} bytes` }] });
    }
    const contentType = sniffImageType(input.bytes);
    if (!contentType) throw E.BRAND_IMAGE_INVALID('the image must be a JPEG or PNG file', { errors: [{ path: 'image', message: 'not a JPEG or PNG image' }] });
    return this.rows.insert({
      id: freshId(this.k.random(), MESSAGE_IDS.brandImage, (x) => this.rows.has(x)),
      accountId,
      bubbleType: input.bubbleType,
      slot: input.slot,
      name: input.name,
      contentType,
      size: input.bytes.length,
      sha256: createHash('sha256').update(input.bytes).digest('hex'),
      createdAt: this.k.clock.nowIso(),
    });
  }
}
