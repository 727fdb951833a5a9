// The kit's recording downloads: its own RIFF reading (format, channels, rate, bits, seconds;
// chunks walked, not assumed at fixed offsets), the filters that turn a webhook's Variables into
// a download path, and a redirect followed once on the target with the same headers.
import { describe, expect, it } from 'vitest';
import { readWav } from '../scenario/wav.ts';
import { followRedirect } from '../scenario/download.ts';
import { Scope, SeededRandom } from '../scenario/interpolate.ts';
import type { Target, WireRequest, WireResponse } from '../target.ts';

/** A RIFF file built by hand: chunks in order, each id + size + body (+ pad byte). */
function riff(chunks: [string, Buffer][]): Buffer {
  const parts = chunks.map(([id, body]) => {
    const head = Buffer.alloc(8);
    head.write(id, 0, 'latin1');
    head.writeUInt32LE(body.length, 4);
    return Buffer.concat([head, body, Buffer.alloc(body.length % 2)]);
  });
  const all = Buffer.concat(parts);
  const header = Buffer.alloc(12);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(all.length + 4, 4);
  header.write('WAVE', 8, 'latin1');
  return Buffer.concat([header, all]);
}

function fmt(rate: number, channels: number, bits: number): Buffer {
  const b = Buffer.alloc(16);
  const align = (channels * bits) / 8;
  b.writeUInt16LE(1, 0);
  b.writeUInt16LE(channels, 2);
  b.writeUInt32LE(rate, 4);
  b.writeUInt32LE(rate * align, 8);
  b.writeUInt16LE(align, 12);
  b.writeUInt16LE(bits, 14);
  return b;
}

describe('readWav', () => {
  it('reads the format and the length, past chunks it does not know', () => {
    const file = riff([['fmt ', fmt(8000, 1, 16)], ['LIST', Buffer.from('INFOxyz')], ['data', Buffer.alloc(8000 * 2 * 3)]]);
    expect(readWav(file)).toEqual({ format: 1, channels: 1, sampleRate: 8000, bitsPerSample: 16, seconds: 3, dataBytes: 48000 });
    expect(readWav(riff([['fmt ', fmt(16000, 2, 16)], ['data', Buffer.alloc(16000 * 4)]]))).toMatchObject({ channels: 2, sampleRate: 16000, seconds: 1 });
    expect(readWav(riff([['fmt ', fmt(8000, 1, 16)], ['data', Buffer.alloc(0)]]))).toMatchObject({ seconds: 0 });
  });

  it('says why bytes are not a WAV file', () => {
    expect(readWav(Buffer.from('{"error":"x"}'))).toMatch(/not a RIFF\/WAVE/);
    expect(readWav(Buffer.alloc(4))).toMatch(/too short/);
    const good = riff([['fmt ', fmt(8000, 1, 16)], ['data', Buffer.alloc(16)]]);
    expect(readWav(good.subarray(0, good.length - 4))).toMatch(/RIFF size/);
    expect(readWav(riff([['data', Buffer.alloc(16)], ['fmt ', fmt(8000, 1, 16)]]))).toMatch(/before the fmt chunk/);
    expect(readWav(riff([['fmt ', fmt(8000, 1, 16)]]))).toBe('no data chunk');
    expect(readWav(riff([['fmt ', fmt(8000, 1, 16)], ['data', Buffer.alloc(3)]]))).toMatch(/not whole samples/);
  });
});

describe('download links', () => {
  it('field reads a JSON object text (callflow.ended Variables); urlPath keeps the path of a link', () => {
    const s = new Scope(new SeededRandom(1));
    s.set('vars', JSON.stringify({ memo: 'https://api.example/v1/accounts/AC1/recordings/CA1/verb/verbrec-CA1-1?x=1', rel: '/v1/r' }));
    expect(s.resolve('{{ vars | field(memo) | urlPath }}')).toBe('/v1/accounts/AC1/recordings/CA1/verb/verbrec-CA1-1?x=1');
    expect(s.resolve('{{ vars | field(rel) | urlPath }}')).toBe('/v1/r');
    expect(s.resolve('{{ vars | field(nothing) }}')).toBeUndefined();
  });

  it('follows a redirect to a path on the target once, with the same headers', async () => {
    const asked: WireRequest[] = [];
    const wav = riff([['fmt ', fmt(8000, 1, 16)], ['data', Buffer.alloc(16000)]]);
    const target = {
      send: async (req: WireRequest): Promise<WireResponse> => {
        asked.push(req);
        return { status: 200, headers: { 'content-type': 'audio/wav' }, text: '', json: undefined, bytes: wav, ms: 1 };
      },
    } as unknown as Target;
    const sent: WireRequest = { method: 'GET', path: '/v1/x', headers: { authorization: 'Bearer k' } };
    const moved: WireResponse = { status: 302, headers: { location: '/files/x.wav' }, text: '', json: undefined, ms: 1 };
    const res = await followRedirect(target, sent, moved);
    expect(asked).toEqual([{ method: 'GET', path: '/files/x.wav', headers: { authorization: 'Bearer k' } }]);
    expect(readWav(res.bytes!)).toMatchObject({ seconds: 1 });
    const ok: WireResponse = { status: 200, headers: {}, text: '', json: undefined, ms: 1 };
    expect(await followRedirect(target, sent, ok)).toBe(ok);
    expect(asked).toHaveLength(1);
  });
});
