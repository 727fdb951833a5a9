// WAV files of telephone audio: RIFF, PCM 16-bit little-endian, mono, 8 kHz (the format the
// recordings serve). One writer for any 16-bit samples.

export const WAV_RATE = 8000;
export const WAV_HEADER_BYTES = 44;

/** The 44-byte RIFF/WAVE header of `dataBytes` of 16-bit mono PCM at `rate`. */
export function wavHeader(dataBytes: number, rate = WAV_RATE): Buffer {
  const h = Buffer.alloc(WAV_HEADER_BYTES);
  h.write('RIFF', 0, 'ascii');
  h.writeUInt32LE(36 + dataBytes, 4);
  h.write('WAVE', 8, 'ascii');
  h.write('fmt ', 12, 'ascii');
  h.writeUInt32LE(16, 16); // fmt chunk size
  h.writeUInt16LE(1, 20); // PCM
  h.writeUInt16LE(1, 22); // mono
  h.writeUInt32LE(rate, 24);
  h.writeUInt32LE(rate * 2, 28); // byte rate
  h.writeUInt16LE(2, 32); // block align
  h.writeUInt16LE(16, 34); // bits per sample
  h.write('data', 36, 'ascii');
  h.writeUInt32LE(dataBytes, 40);
  return h;
}

/** A WAV file of the samples. */
export function pcmWav(samples: Int16Array, rate = WAV_RATE): Buffer {
  const out = Buffer.alloc(WAV_HEADER_BYTES + samples.length * 2);
  wavHeader(samples.length * 2, rate).copy(out, 0);
  for (let i = 0; i < samples.length; i++) out.writeInt16LE(samples[i]!, WAV_HEADER_BYTES + i * 2);
  return out;
}
