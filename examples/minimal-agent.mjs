// A minimal "bring your own agent" in plain Node (only the `ws` package): it holds the control
// socket of one number, answers each call, greets with a short tone, waits for the caller to
// press a digit, confirms with a second tone and hangs up with the protocol's handshake. Run it
// against the simulator (README "Test your own agent") or any server of the same protocol:
//
//   node examples/minimal-agent.mjs <baseUrl> <accountId> <apiKey> <number> [--once]
//
// It prints what happens; with --once it exits after the first call has ended.
import WebSocket from 'ws';

const [baseUrl, accountId, apiKey, number] = process.argv.slice(2);
const once = process.argv.includes('--once');
if (!number) {
  console.error('usage: node examples/minimal-agent.mjs <baseUrl> <accountId> <apiKey> <number> [--once]');
  process.exit(2);
}
const socketBase = baseUrl.replace(/^http/, 'ws');
const auth = { authorization: `Bearer ${apiKey}` };

/** G.711 μ-law of one 16-bit sample. */
function mulaw(sample) {
  let s = Math.max(-32635, Math.min(32635, Math.round(sample)));
  const sign = s < 0 ? 0x80 : 0;
  if (s < 0) s = -s;
  s += 0x84;
  let exponent = 7;
  for (let mask = 0x4000; (s & mask) === 0 && exponent > 0; exponent--, mask >>= 1);
  return ~(sign | (exponent << 4) | ((s >> (exponent + 3)) & 0x0f)) & 0xff;
}

/** `ms` of a sine tone at `hz`, 8 kHz μ-law. */
function tone(hz, ms) {
  const out = Buffer.alloc((ms * 8000) / 1000);
  for (let i = 0; i < out.length; i++) out[i] = mulaw(8000 * Math.sin((2 * Math.PI * hz * i) / 8000));
  return out;
}

function answer(callId, mediaUrl) {
  const media = new WebSocket(mediaUrl, { headers: auth });
  const send = (msg) => media.readyState === WebSocket.OPEN && media.send(JSON.stringify(msg));
  let hangupMark;
  media.on('message', (data) => {
    const msg = JSON.parse(data.toString());
    if (msg.event === 'start') {
      console.log(`[${callId}] media started (stream ${msg.start.streamId}); greeting`);
      // Audio can go out in any size: the platform paces it at 20 ms per 160 bytes.
      send({ event: 'media', media: { payload: tone(440, 600).toString('base64') } });
      send({ event: 'mark', mark: { name: 'greeting' } });
    } else if (msg.event === 'mark' && msg.mark.name === 'greeting') {
      console.log(`[${callId}] greeting played; waiting for a digit`);
    } else if (msg.event === 'dtmf' && !hangupMark) {
      console.log(`[${callId}] caller pressed ${msg.dtmf.digit}; confirming and hanging up`);
      send({ event: 'media', media: { payload: tone(660, 300).toString('base64') } });
      // Hang-up handshake: a mark after the last audio; close once it is echoed (played out).
      hangupMark = `hangup-${Date.now()}`;
      send({ event: 'mark', mark: { name: hangupMark } });
    } else if (msg.event === 'mark' && msg.mark.name === hangupMark) {
      media.close(1000);
    } else if (msg.event === 'stop') {
      console.log(`[${callId}] the caller hung up`);
      media.close(1000);
    }
  });
  media.on('error', (e) => console.error(`[${callId}] media error: ${e.message}`));
}

const control = new WebSocket(`${socketBase}/v1/accounts/${encodeURIComponent(accountId)}/agent/listen?number=${encodeURIComponent(number)}`, { headers: auth });
control.on('open', () => {
  console.log(`listening for calls to ${number}`);
  control.send(JSON.stringify({ event: 'agent.hello', sdk: { name: 'minimal-agent', version: '1.0.0', runtime: `node/${process.versions.node}`, os: `${process.platform}/${process.arch}`, capabilities: [] } }));
});
control.on('message', (data) => {
  const msg = JSON.parse(data.toString());
  if (msg.event === 'call.incoming' || msg.event === 'call.outbound_ready') {
    console.log(`[${msg.callId}] ${msg.event} from ${msg.from}`);
    if (msg.event === 'call.incoming') control.send(JSON.stringify({ event: 'call.accept', callId: msg.callId }));
    answer(msg.callId, msg.mediaUrl);
  } else if (msg.event === 'call.ended') {
    console.log(`[${msg.callId}] ended: ${msg.status}, ${msg.duration} s`);
    if (once) control.close(1000);
  }
});
control.on('unexpected-response', (_, res) => {
  console.error(`the control socket was refused: HTTP ${res.statusCode}`);
  process.exit(1);
});
control.on('close', (code) => {
  if (!once) console.log(`control socket closed (${code})`);
});
