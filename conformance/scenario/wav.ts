// The kit's own reading of a WAV answer (RIFF): the format chunk and the length of the data
// chunk, walked chunk by chunk as the RIFF layout allows (other chunks may sit between them).
// It shares nothing with any implementation: a recording is judged by its bytes alone.

export interface WavFacts {
  /** 1 is PCM. */
  format: number;
  channels: number;
  sampleRate: number;
  bitsPerSample: number;
  /** Audio length: data bytes over the byte rate. */
  seconds: number;
  dataBytes: number;
}

/** The facts of a WAV file, or why the bytes are not one. */
export function readWav(bytes: Uint8Array): WavFacts | string {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (b.length < 12) return `${b.length} bytes: too short for a RIFF header`;
  if (b.toString('latin1', 0, 4) !== 'RIFF' || b.toString('latin1', 8, 12) !== 'WAVE') return 'not a RIFF/WAVE file (the first 12 bytes are not "RIFF....WAVE")';
  if (b.readUInt32LE(4) !== b.length - 8) return `the RIFF size says ${b.readUInt32LE(4) + 8} bytes, the file has ${b.length}`;
  let fmt: Omit<WavFacts, 'seconds' | 'dataBytes'> | undefined;
  let blockAlign = 0;
  let at = 12;
  while (at + 8 <= b.length) {
    const id = b.toString('latin1', at, at + 4);
    const size = b.readUInt32LE(at + 4);
    const body = at + 8;
    if (body + size > b.length) return `chunk "${id}" runs past the end of the file`;
    if (id === 'fmt ') {
      if (size < 16) return `the fmt chunk has ${size} bytes, fewer than 16`;
      fmt = { format: b.readUInt16LE(body), channels: b.readUInt16LE(body + 2), sampleRate: b.readUInt32LE(body + 4), bitsPerSample: b.readUInt16LE(body + 14) };
      blockAlign = b.readUInt16LE(body + 12);
    } else if (id === 'data') {
      if (!fmt) return 'the data chunk comes before the fmt chunk';
      const byteRate = fmt.sampleRate * blockAlign;
      if (byteRate === 0) return 'the fmt chunk gives a byte rate of 0';
      if (size % blockAlign !== 0) return `the data chunk's ${size} bytes are not whole samples of ${blockAlign} bytes`;
      return { ...fmt, seconds: size / byteRate, dataBytes: size };
    }
    at = body + size + (size % 2); // chunks are padded to an even length
  }
  return fmt ? 'no data chunk' : 'no fmt chunk';
}
