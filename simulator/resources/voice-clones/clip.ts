// What a voice clone's clip is, judged by its first bytes (the reference accepts wav, mp3,
// flac, ogg, webm and m4a): the container's signature, never the file name or content type.

export const CLIP_FORMATS = ['wav', 'mp3', 'flac', 'ogg', 'webm', 'm4a'] as const;
export type ClipFormat = (typeof CLIP_FORMATS)[number];

const ascii = (b: Uint8Array, at: number, text: string) => [...text].every((c, i) => b[at + i] === c.charCodeAt(0));

/** The audio format of the clip's bytes, or undefined when it is none of the accepted ones. */
export function clipFormat(b: Uint8Array): ClipFormat | undefined {
  if (b.length >= 12 && ascii(b, 0, 'RIFF') && ascii(b, 8, 'WAVE')) return 'wav';
  if (b.length >= 4 && ascii(b, 0, 'fLaC')) return 'flac';
  if (b.length >= 4 && ascii(b, 0, 'OggS')) return 'ogg';
  if (b.length >= 4 && b[0] === 0x1a && b[1] === 0x45 && b[2] === 0xdf && b[3] === 0xa3) return 'webm';
  if (b.length >= 12 && ascii(b, 4, 'ftyp')) return 'm4a';
  if (b.length >= 3 && ascii(b, 0, 'ID3')) return 'mp3';
  // An MPEG audio frame header: 11 sync bits, a valid version and layer III.
  if (b.length >= 2 && b[0] === 0xff && (b[1]! & 0xe0) === 0xe0 && (b[1]! & 0x06) === 0x02 && (b[1]! & 0x18) !== 0x08) return 'mp3';
  return undefined;
}
