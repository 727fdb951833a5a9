// `agent` steps (docs/scenario-format.md "Acting as the customer's agent"): a scenario acts as a
// customer's own agent over the Agent SDK protocol against the simulator or any target that
// serves it. One action per step, on a socket the scenario named with `as`:
//   connect {as, number, account?, retiring?, hello?}   a control socket for a number
//   media {as, url}                                       a call's media socket (its mediaUrl)
//   send {…}                                              any JSON message
//   audio {tone?, ms, piece?} | mark | clear | dtmf       media messages
//   hangup                                                the handshake (mark, echo, close)
//   close {code?}                                         closes the socket
// and expectations, level `sim` (the spec does not show this protocol): `open` (true, or the HTTP
// status that refused it, with the body), `event` (the first message matching, within `within`
// wall seconds; later steps see the others) with `framesBefore` (inbound frames that had arrived
// before it: when an echo came on the media clock), `closed` (code and reason), `frames` (inbound frames
// received, every one 160 bytes with integer-string timestamps 20 ms apart). `save` reads the
// matched message (`callId`, `start.streamId`, …). Sockets close when the scenario ends.
import type { Static } from '@sinclair/typebox';
import type { AgentAction as AgentActionSchema, AgentExpectation as AgentExpectationSchema } from '../schema/agent-step.ts';
import { match, type Mismatch } from '../scenario/matchers.ts';
import type { Scope } from '../scenario/interpolate.ts';
import { ControlClient, MediaClient, type ControlTarget } from './client.ts';
import { tone, silence } from './audio.ts';
import type { Channel, OpenResult } from './channel.ts';

/** One action on a socket (the format: conformance/schema/agent-step.ts). */
export type AgentAction = Static<typeof AgentActionSchema>;
/** What an agent step expects, level sim. */
export type AgentExpectation = Static<typeof AgentExpectationSchema>;

export interface AgentOutcome {
  /** One entry per expectation judged: its part and what did not match. */
  judged: { part: string; mismatches: Mismatch[] }[];
  /** What `save` reads from: the matched message (event), or the open result. */
  subject: unknown;
  /** A short description for the report. */
  did: string;
}

type Socket = { control: ControlClient } | { media: MediaClient };

const sockets = new WeakMap<Scope, Map<string, Socket>>();

function socketsOf(scope: Scope): Map<string, Socket> {
  let m = sockets.get(scope);
  if (!m) sockets.set(scope, (m = new Map()));
  return m;
}

function channelOf(s: Socket): Channel {
  return 'control' in s ? s.control.channel : s.media.channel;
}

/** Closes every socket the scenario opened (the runner calls it when the scenario ends). */
export async function closeAgentSockets(scope: Scope): Promise<void> {
  const all = sockets.get(scope);
  if (!all) return;
  sockets.delete(scope);
  await Promise.all([...all.values()].map((s) => channelOf(s).close(1000, 'scenario ended')));
}

function openMismatches(expected: unknown, got: OpenResult): Mismatch[] {
  const actual = got.open ? true : { status: got.status, body: parse(got.body) };
  return match(expected, actual, 'open');
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * Runs one agent step: its action, then its expectations. `target` gives the socket origin and
 * the account's key (named accounts resolve through the scope).
 */
export async function runAgentAction(action: AgentAction, expect: AgentExpectation | undefined, scope: Scope, target: (account: string | undefined) => ControlTarget): Promise<AgentOutcome> {
  const all = socketsOf(scope);
  const judged: AgentOutcome['judged'] = [];
  const waitMs = (action.within ?? 5) * 1000;
  let subject: unknown;
  let did = '';
  const named = (name: string | undefined): Socket => {
    const s = name ? all.get(name) : undefined;
    if (!s) throw new Error(`no agent socket named "${name ?? ''}" (open one with connect or media and "as")`);
    return s;
  };
  if (action.connect) {
    const c = action.connect;
    const { client, open } = await ControlClient.connect(target(c.account), c.number, { retiring: c.retiring ?? false, hello: c.hello ?? ['retire'], ...(c.key === undefined ? {} : { apiKey: c.key }) });
    all.set(c.as, { control: client });
    subject = open;
    did = `connect ${c.as} for ${c.number}${c.retiring ? ' (retiring)' : ''}`;
    judged.push({ part: 'open', mismatches: openMismatches(expect?.open ?? true, open) });
  } else if (action.media) {
    const m = action.media;
    const { client, open } = await MediaClient.open(m.url, target(m.account).apiKey);
    all.set(m.as, { media: client });
    subject = open;
    did = `media ${m.as}`;
    judged.push({ part: 'open', mismatches: openMismatches(expect?.open ?? true, open) });
  } else {
    const s = named(action.on);
    const media = 'media' in s ? s.media : undefined;
    const needMedia = (what: string): MediaClient => {
      if (!media) throw new Error(`${what} needs a media socket; "${action.on}" is a control socket`);
      return media;
    };
    if (action.send) {
      channelOf(s).send(action.send);
      did = `send ${String(action.send.event ?? 'a message')}`;
    } else if (action.audio) {
      const a = action.audio;
      needMedia('audio').sendAudio(a.tone ? tone(a.tone, a.ms) : silence(a.ms), a.piece ?? 160);
      did = `audio ${a.ms} ms`;
    } else if (action.mark !== undefined) {
      needMedia('mark').mark(action.mark);
      did = `mark ${action.mark}`;
    } else if (action.clear) {
      needMedia('clear').clear();
      did = 'clear';
    } else if (action.dtmf !== undefined) {
      needMedia('dtmf').dtmf(action.dtmf);
      did = `dtmf ${action.dtmf}`;
    } else if (action.hangup) {
      const r = await needMedia('hangup').hangup(waitMs);
      subject = r;
      did = 'hang up';
      judged.push({ part: 'hangup', mismatches: r.echoed ? [] : [{ path: 'hangup', message: `the hangup mark was not echoed within ${waitMs / 1000} s` }] });
    } else if (action.close) {
      const c = action.close === true ? {} : action.close;
      await channelOf(s).close(c.code ?? 1000, c.reason ?? '');
      did = `close ${c.code ?? 1000}`;
    } else did = `on ${action.on}`;
    if (expect?.event !== undefined) {
      const got = await channelOf(s).take(expect.event, waitMs);
      if ('message' in got) subject = got.message;
      judged.push({ part: 'event', mismatches: 'message' in got ? [] : [...got.mismatches, { path: 'event', message: `no matching message within ${waitMs / 1000} s (unclaimed: ${got.seen.join(', ') || 'none'})` }] });
      if (expect.framesBefore !== undefined) {
        const before = 'message' in got ? channelOf(s).divertedBeforeOf(got.message) : undefined;
        const mismatches = before === undefined ? [{ path: 'framesBefore', message: 'no matched message to count the frames before' }] : match(expect.framesBefore, before, 'framesBefore');
        judged.push({ part: 'framesBefore', mismatches });
      }
    }
    if (expect?.frames !== undefined) {
      const m = needMedia('frames');
      await m.channel.waitUntil(() => match(expect.frames, m.frames.frames, 'frames').length === 0 || m.channel.closed !== undefined, waitMs);
      const problems = match(expect.frames, m.frames.frames, 'frames');
      if (m.frames.problem) problems.push({ path: 'frames', message: m.frames.problem });
      judged.push({ part: 'frames', mismatches: problems });
    }
    if (expect?.closed !== undefined) {
      const closed = await channelOf(s).whenClosed(waitMs);
      subject ??= closed;
      judged.push({ part: 'closed', mismatches: match(expect.closed, closed, 'closed') });
    }
  }
  return { judged, subject, did };
}
