// Fake image host: the web servers an MMS `MediaUrl` points at. The service downloads every
// image when it accepts a send (guides: at most 300 KB, a 10-second download limit, an image
// content type), so a test needs a way to make a download fail. Scripts are set per URL through
// the control plane (docs/control-plane.md, "Image host"); an unscripted http(s) URL answers a
// 1x1 white image of the type its extension names, so sends work with no scripting at all.
// Nothing here touches the network.
import { Type, type Static } from '@sinclair/typebox';
import { ApiError } from '../../core/errors.ts';
import { Nullable } from '../../core/schema.ts';

/** The largest image the service accepts, in bytes (guides: 300 KB = 307,200 bytes). */
export const MAX_IMAGE_BYTES = 307_200;
/** Downloads slower than this fail (guides: 10 seconds). */
export const DOWNLOAD_TIMEOUT_SECONDS = 10;
/** Content types the service accepts from an image server (guides). */
export const IMAGE_CONTENT_TYPES = ['image/jpeg', 'image/png', 'image/bmp'];
/** A scripted body larger than this is refused: the fake stores what it serves. */
export const MAX_SCRIPTED_BYTES = 4 * 1024 * 1024;

// 1x1 white pixels, made once with ImageMagick. Converting the PNG or BMP one to JPEG gives the
// JPEG one exactly, which is what lets the simulator convert its own default images faithfully.
const WHITE_PIXEL: Record<string, string> = {
  'image/jpeg':
    '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAMCAgMCAgMDAwMEAwMEBQgFBQQEBQoHBwYIDAoMDAsKCwsNDhIQDQ4RDgsLEBYQERMUFRUVDA8XGBYUGBIUFRT/wAALCAABAAEBAREA/8QAFAABAAAAAAAAAAAAAAAAAAAACf/EABQQAQAAAAAAAAAAAAAAAAAAAAD/2gAIAQEAAD8AVN//2Q==',
  'image/png': 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABAQAAAAA3bvkkAAAACklEQVQI12NoAAAAggCB3UNq9AAAAABJRU5ErkJggg==',
  'image/bmp': 'Qk06AAAAAAAAADYAAAAoAAAAAQAAAAEAAAABABgAAAAAAAQAAAAAAAAAAAAAAAAAAAAAAAAA////AA==',
};
const TYPE_OF_EXTENSION: Record<string, string> = { jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', bmp: 'image/bmp' };

export const ImageScriptSchema = Type.Object(
  {
    url: Type.String({ description: 'The URL exactly as a MediaUrl will name it (compared after URL parsing: host case, default port).' }),
    status: Type.Integer({ minimum: 100, maximum: 599, description: 'HTTP status the server answers; anything but 2xx fails the download ("HTTP 404").' }),
    contentType: Type.String({ description: 'Content-Type the server sends; one not image/jpeg, png or bmp fails the download.' }),
    sizeBytes: Type.Integer({ minimum: 0, description: 'Size of the body; over 307,200 bytes fails the download (SIZE_EXCEEDED).' }),
    base64: Nullable(Type.String({ pattern: '^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$', description: 'The body itself, base64 (padded); null: the default 1x1 image of the content type, padded with zero bytes to sizeBytes.' })),
    seconds: Type.Number({ minimum: 0, description: 'How long the download takes; over 10 fails it (TIMEOUT).' }),
  },
  { $id: 'SimImageScript', additionalProperties: false },
);
export type ImageScript = Static<typeof ImageScriptSchema>;

export const ImageHostStateSchema = Type.Object({ scripts: Type.Array(ImageScriptSchema) }, { additionalProperties: false });
export type ImageHostState = Static<typeof ImageHostStateSchema>;

/** What a test gives: everything but the URL is optional. */
export interface ImageScriptInput {
  url: string;
  status?: number;
  contentType?: string;
  sizeBytes?: number;
  base64?: string | null;
  seconds?: number;
}

export type Download =
  | { ok: true; contentType: string; bytes: Buffer; scripted: boolean }
  | { ok: false; cause: string };

/** The canonical spelling of a URL (WHATWG parsing); undefined when it is not http(s). */
export function imageUrlKey(raw: string): string | undefined {
  try {
    const u = new URL(raw);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : undefined;
  } catch {
    return undefined;
  }
}

function extensionType(href: string): string {
  const name = new URL(href).pathname.split('/').pop() ?? '';
  const ext = name.includes('.') ? name.slice(name.lastIndexOf('.') + 1).toLowerCase() : '';
  return TYPE_OF_EXTENSION[ext] ?? 'image/jpeg';
}

function mediaType(contentType: string): string {
  return contentType.split(';')[0]!.trim().toLowerCase();
}

/** The 1x1 white image of a type (JPEG for types the fake has none of). */
export function whitePixel(contentType: string): Buffer {
  return Buffer.from(WHITE_PIXEL[mediaType(contentType)] ?? WHITE_PIXEL['image/jpeg']!, 'base64');
}

function fit(bytes: Buffer, size: number): Buffer {
  if (bytes.length === size) return bytes;
  return bytes.length > size ? bytes.subarray(0, size) : Buffer.concat([bytes, Buffer.alloc(size - bytes.length)]);
}

export class FakeImageHost {
  private scripts = new Map<string, ImageScript>(); // maps a URL key to its script, in the order set

  clear(): void {
    this.scripts = new Map();
  }

  snapshot(): ImageHostState {
    return { scripts: this.list() };
  }

  /** A state the runtime validated against ImageHostStateSchema; each script is completed as when set. */
  restore(state: ImageHostState): void {
    const scripts = new Map<string, ImageScript>();
    state.scripts.forEach((s, i) => {
      const script = this.complete(s, `imageHost.scripts[${i}]`);
      scripts.set(script.url, script);
    });
    this.scripts = scripts;
  }

  list(): ImageScript[] {
    return [...this.scripts.values()].map((s) => ({ ...s }));
  }

  /** Sets (or replaces) what one URL answers; returns the complete script. */
  set(input: ImageScriptInput): ImageScript {
    const script = this.complete(input, '');
    this.scripts.set(script.url, script);
    return { ...script };
  }

  /** Removes one URL's script; false when it had none. */
  remove(rawUrl: string): boolean {
    const key = imageUrlKey(rawUrl);
    return key !== undefined && this.scripts.delete(key);
  }

  /** Downloads like the service does: the first rule broken names the cause (guides' wording). */
  download(rawUrl: string): Download {
    const key = imageUrlKey(rawUrl);
    if (key === undefined) return { ok: false, cause: 'UNSUPPORTED_URL' };
    const script = this.scripts.get(key);
    if (!script) {
      const contentType = extensionType(key);
      return { ok: true, contentType, bytes: whitePixel(contentType), scripted: false };
    }
    if (script.seconds > DOWNLOAD_TIMEOUT_SECONDS) return { ok: false, cause: 'TIMEOUT' };
    if (script.status < 200 || script.status > 299) return { ok: false, cause: `HTTP ${script.status}` };
    const type = mediaType(script.contentType);
    if (!IMAGE_CONTENT_TYPES.includes(type)) return { ok: false, cause: `CONTENT_TYPE:${type || '(none)'}` };
    if (script.sizeBytes > MAX_IMAGE_BYTES) return { ok: false, cause: 'SIZE_EXCEEDED' };
    const bytes = script.base64 === null ? fit(whitePixel(type), script.sizeBytes) : Buffer.from(script.base64, 'base64');
    return { ok: true, contentType: type, bytes, scripted: script.base64 !== null };
  }

  /** Fills the defaults and checks the fields; `at` prefixes error paths ("" for a request). */
  private complete(input: ImageScriptInput, at: string): ImageScript {
    const path = (field: string) => (at ? `${at}.${field}` : field);
    const url = imageUrlKey(input.url);
    if (url === undefined) throw ApiError.validation('url must be an absolute http or https URL', [{ path: path('url'), message: 'is not an http(s) URL' }]);
    const contentType = input.contentType ?? extensionType(url);
    let base64 = input.base64 ?? null;
    let sizeBytes: number;
    if (base64 !== null) {
      if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64) || base64.length % 4 !== 0) {
        throw ApiError.validation('base64 is not valid base64', [{ path: path('base64'), message: 'is not base64' }]);
      }
      const bytes = Buffer.from(base64, 'base64');
      if (input.sizeBytes !== undefined && input.sizeBytes !== bytes.length) {
        throw ApiError.validation(`sizeBytes (${input.sizeBytes}) differs from the decoded base64 (${bytes.length} bytes); give one of them`, [
          { path: path('sizeBytes'), message: 'contradicts base64' },
        ]);
      }
      sizeBytes = bytes.length;
      base64 = bytes.toString('base64');
    } else {
      sizeBytes = input.sizeBytes ?? whitePixel(contentType).length;
    }
    if (sizeBytes > MAX_SCRIPTED_BYTES) {
      throw ApiError.validation(`the fake serves at most ${MAX_SCRIPTED_BYTES} bytes; anything over ${MAX_IMAGE_BYTES} already fails as SIZE_EXCEEDED`, [
        { path: path('sizeBytes'), message: 'is too large' },
      ]);
    }
    return { url, status: input.status ?? 200, contentType, sizeBytes, base64, seconds: input.seconds ?? 0 };
  }
}
