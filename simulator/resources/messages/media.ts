// MMS images: downloaded from the fake image host when a message is accepted, stored with the
// message, and served back by getMessageMedia. A message's `mediaUrl` lists absolute API URLs to
// that endpoint, as the service's do (guides); the URLs the sender gave stay with the stored image.
// The row stores the paths only and each answer puts the origin it was reached at in front, so a
// forged Host reaches no other reader and a restored snapshot points at the serving simulator.
import { whitePixel } from '../../peers/image-host/model.ts';
import { messageErrors as E } from './errors.ts';
import type { ImageDownloads } from './ports.ts';
import type { StoredMedia } from './schema.ts';

/**
 * Downloads every image; the first failure refuses the send (400 media_download_failed naming the
 * image's zero-based position and the cause). The service re-encodes PNG and BMP to JPEG; the
 * simulator does so for the host's default 1x1 white images (their JPEG is known exactly) and keeps
 * scripted PNG or BMP bytes as they are, having no image codec (docs/decisions.md, "Messages").
 */
export function downloadMedia(host: ImageDownloads, urls: readonly string[], field: string): StoredMedia[] {
  return urls.map((source, i) => {
    const got = host.download(source);
    if (!got.ok) {
      const message = `image processing failed (${i}): ${got.cause}`;
      throw E.MEDIA_DOWNLOAD_FAILED(message, { errors: [{ path: `${field}[${i}]`, message: got.cause }] });
    }
    const convert = !got.scripted && got.contentType !== 'image/jpeg';
    const contentType = convert ? 'image/jpeg' : got.contentType;
    const bytes = convert ? whitePixel('image/jpeg') : got.bytes;
    return { source, contentType, base64: bytes.toString('base64') };
  });
}

/** The API paths of a message's images (getMessageMedia, index from 0), as stored. */
export function mediaApiPaths(accountId: string, messageId: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `/v1/accounts/${accountId}/messages/${messageId}/media/${i}`);
}

/** Stored media paths as the absolute URLs a client reached at `origin` uses. */
export function mediaUrlsAt(origin: string, paths: readonly string[]): string[] {
  // A snapshot taken before paths were stored holds absolute URLs: their path counts.
  return paths.map((p) => `${origin}${p.startsWith('/') ? p : new URL(p).pathname}`);
}
