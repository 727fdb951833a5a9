// SDP offer/answer for calls on the wire (RFC 3264, RFC 4566): the server speaks G.711 μ-law
// (PCMU, static payload type 0) at 8 kHz in 20 ms packets, and telephone-event (RFC 4733) when
// the offer has it. An offer is read for the client's RTP address and port and whether it offers
// PCMU; the answer names the listener's RTP port. Only the first audio stream is used; other
// streams are refused with port 0 in the answer, as RFC 3264 §6 asks. An answer to the server's
// own offer (a dialed device's 200, a late offer's ACK) is read the same way and must hold PCMU.

/** What an offer says about its audio. */
export interface AudioOffer {
  /** Where the client wants RTP (the stream's `c=` or the session's). */
  address: string;
  port: number;
  /** Whether PCMU is among its formats. */
  pcmu: boolean;
  /** The payload type it gives telephone-event, if any. */
  telephoneEvent: number | undefined;
  /** Every `m=` line's media and protocol, in order, to answer each. */
  streams: { media: string; protocol: string; formats: string[] }[];
  /** Index of the audio stream used. */
  audioIndex: number;
  /** a=sendonly / recvonly / inactive of the audio stream (or the session), else sendrecv. */
  direction: 'sendrecv' | 'sendonly' | 'recvonly' | 'inactive';
}

export type OfferResult = { ok: true; offer: AudioOffer } | { ok: false; problem: string };

const DIRECTIONS = ['sendrecv', 'sendonly', 'recvonly', 'inactive'] as const;

/** Reads an SDP offer; a problem names what is wrong in words (for a Warning). */
export function readOffer(body: string): OfferResult {
  const lines = body.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '');
  if (lines[0] !== 'v=0') return { ok: false, problem: 'the SDP body does not start with v=0' };
  let sessionAddress: string | undefined;
  let sessionDirection: AudioOffer['direction'] = 'sendrecv';
  const streams: (AudioOffer['streams'][number] & { port: number; address?: string; rtpmap: Map<string, string>; direction?: AudioOffer['direction'] })[] = [];
  for (const line of lines) {
    const current = streams[streams.length - 1];
    if (line.startsWith('m=')) {
      const m = /^m=(\S+) (\d+)(?:\/\d+)? (\S+) (.+)$/.exec(line);
      if (!m) return { ok: false, problem: `malformed media line: ${line}` };
      streams.push({ media: m[1]!, port: Number(m[2]), protocol: m[3]!, formats: m[4]!.trim().split(/\s+/), rtpmap: new Map() });
    } else if (line.startsWith('c=')) {
      const c = /^c=IN IP4 (\d{1,3}(?:\.\d{1,3}){3})(?:\/\d+)?$/.exec(line);
      if (!c) return { ok: false, problem: `only IPv4 connection lines are understood: ${line}` };
      if (current) current.address = c[1];
      else sessionAddress = c[1];
    } else if (line.startsWith('a=rtpmap:')) {
      const r = /^a=rtpmap:(\d+) ([^/\s]+)\//.exec(line);
      if (r && current) current.rtpmap.set(r[1]!, r[2]!.toLowerCase());
    } else if ((DIRECTIONS as readonly string[]).includes(line.slice(2)) && line.startsWith('a=')) {
      const d = line.slice(2) as AudioOffer['direction'];
      if (current) current.direction = d;
      else sessionDirection = d;
    }
  }
  const audioIndex = streams.findIndex((s) => s.media === 'audio' && s.protocol === 'RTP/AVP' && s.port > 0);
  if (audioIndex < 0) return { ok: false, problem: 'the offer has no audio stream over RTP/AVP' };
  const audio = streams[audioIndex]!;
  const address = audio.address ?? sessionAddress;
  if (address === undefined) return { ok: false, problem: 'the offer has no connection address (c=)' };
  const pcmu = audio.formats.some((f) => f === '0' || audio.rtpmap.get(f) === 'pcmu');
  const event = audio.formats.find((f) => audio.rtpmap.get(f) === 'telephone-event');
  return {
    ok: true,
    offer: {
      address,
      port: audio.port,
      pcmu,
      telephoneEvent: event === undefined ? undefined : Number(event),
      streams: streams.map(({ media, protocol, formats }) => ({ media, protocol, formats })),
      audioIndex,
      direction: audio.direction ?? sessionDirection,
    },
  };
}

/** An SDP answer to the server's offer (a device's 200, a late offer's ACK), or why it cannot carry media: no SDP, unreadable, no PCMU. */
export function answerOf(body: string): { answer: AudioOffer } | { problem: string } {
  if (body.trim() === '') return { problem: 'the answer carries no SDP' };
  const read = readOffer(body);
  if (!read.ok) return { problem: read.problem };
  return read.offer.pcmu ? { answer: read.offer } : { problem: 'the SDP answer has no G.711 mu-law (PCMU, payload 0)' };
}

/** The direction that answers an offered one (RFC 3264 §6.1). */
function answerDirection(offered: AudioOffer['direction']): AudioOffer['direction'] {
  return offered === 'sendonly' ? 'recvonly' : offered === 'recvonly' ? 'sendonly' : offered;
}

export interface AnswerParts {
  host: string;
  rtpPort: number;
  /** o= session id and version: the version rises with each new answer in the dialog (RFC 3264 §8). */
  sessionId: string;
  version: number;
}

/** The answer to an offer (or, with no offer, the server's own offer: PCMU and telephone-event 101). */
export function writeAnswer(p: AnswerParts, offer: AudioOffer | undefined): string {
  const head = ['v=0', `o=platform-simulator ${p.sessionId} ${p.version} IN IP4 ${p.host}`, 's=platform-simulator', `c=IN IP4 ${p.host}`, 't=0 0'];
  const audio = (event: number | undefined, direction: AudioOffer['direction']) => [
    `m=audio ${p.rtpPort} RTP/AVP 0${event === undefined ? '' : ` ${event}`}`,
    'a=rtpmap:0 PCMU/8000',
    ...(event === undefined ? [] : [`a=rtpmap:${event} telephone-event/8000`, `a=fmtp:${event} 0-15`]),
    'a=ptime:20',
    `a=${direction}`,
  ];
  if (!offer) return [...head, ...audio(101, 'sendrecv'), ''].join('\r\n');
  const body = offer.streams.flatMap((s, i) => (i === offer.audioIndex ? audio(offer.telephoneEvent, answerDirection(offer.direction)) : [`m=${s.media} 0 ${s.protocol} ${s.formats.join(' ')}`]));
  return [...head, ...body, ''].join('\r\n');
}
