// The `agent` step of the scenario format (docs/scenario-format.md "Acting as the customer's
// agent"), described once: one action on a socket the scenario names, and what it expects, level
// sim (the spec does not show the Agent SDK protocol). conformance/agent/steps.ts runs it with
// these types; the scenario schema and the doc's two agent tables are generated from it.
import { Type } from '@sinclair/typebox';
import { AnyObject, Opt, Strict } from './build.ts';

const SocketName = (description: string) => Type.String({ minLength: 1, description });

export const AgentAction = Strict(
  {
    on: Opt(SocketName('The socket this step acts on or expects from (a name given with `as`).')),
    connect: Opt(
      Strict(
        {
          as: SocketName('The name the socket is kept under.'),
          number: Type.String({ minLength: 1, description: 'The number whose agent this is.' }),
          account: Opt(Type.String({ minLength: 1, description: '`main` (default), `alt`, or a `createAccount` name.' })),
          retiring: Opt(Type.Boolean({ description: 'Adds `&role=retiring`.' })),
          hello: Opt(
            Type.Union([Type.Array(Type.String()), Type.Literal(false)], {
              description: 'The hello\'s capabilities (default `[retire]`); `false`: no hello.',
            }),
          ),
          key: Opt(Type.String({ description: 'An API key sent instead of the account\'s (a wrong key, to see the refusal).' })),
        },
        {
          description:
            '`{ as, number, account?, retiring?, hello?, key? }`: opens a control socket for the number with the account\'s key (`main` by default, `alt`, or a `createAccount` name; `key` sends that key instead, to see a refusal) and sends `agent.hello` with `hello` as its capabilities (default `[retire]`; `false`: none); `retiring: true` adds `&role=retiring`.',
        },
      ),
    ),
    media: Opt(
      Strict(
        {
          as: SocketName('The name the socket is kept under.'),
          url: Type.String({ minLength: 1, description: 'The call\'s `mediaUrl`.' }),
          account: Opt(Type.String({ minLength: 1, description: 'Whose key is sent beside the token (default `main`).' })),
        },
        { description: '`{ as, url, account? }`: opens a call\'s media socket (`url`: the saved `mediaUrl`).' },
      ),
    ),
    send: Opt(AnyObject({ description: '`{…}`: sends any JSON message on the socket `on`.' })),
    audio: Opt(
      Strict(
        {
          tone: Opt(Type.Number({ description: 'Hz; absent: silence.' })),
          ms: Type.Number({ minimum: 1, maximum: 600000, description: 'How much audio.' }),
          piece: Opt(Type.Integer({ minimum: 1, description: 'Bytes per media message (default 160).' })),
        },
        { description: '`{ tone?, ms, piece? }`: sends `ms` of μ-law audio (a sine at `tone` Hz, or silence) in `media` messages of `piece` bytes (default 160), at once.' },
      ),
    ),
    mark: Opt(Type.String({ description: '`name`: sends a `mark` with this name.' })),
    clear: Opt(Type.Literal(true, { description: '`true`: sends `clear`.' })),
    dtmf: Opt(Type.String({ pattern: '^[0-9*#]+$', description: 'Digits (`"12#"`): sends one `dtmf` message per digit.' })),
    hangup: Opt(Type.Literal(true, { description: '`true`: the hang-up handshake: mark `hangup-<n>`, wait for its echo (judged), close with 1000.' })),
    close: Opt(
      Type.Union([Type.Literal(true), Strict({ code: Opt(Type.Integer()), reason: Opt(Type.String()) })], {
        description: 'Closes the socket: `true`, or `{ code, reason }`.',
      }),
    ),
    within: Opt(Type.Number({ exclusiveMinimum: 0, maximum: 600, description: 'Wall seconds an expectation waits (default 5).' })),
  },
  {
    description:
      'One action on an agent socket: `connect` or `media` opens a socket named by `as`; the others act on the socket named by `on`.',
  },
);

export const AgentExpectation = Strict(
  {
    open: Opt(Type.Unknown({ description: 'After `connect`/`media`: `true` (default), or the refusal `{ status, body }`.' })),
    event: Opt(Type.Unknown({ description: 'The first message on the socket matching (partial match, matchers); later steps still see the others.' })),
    framesBefore: Opt(
      Type.Unknown({
        description: 'With `event`: how many inbound `media` frames had arrived when the matched message arrived (a count or a matcher): when an echo came on the media clock, e.g. a mark after 1 s of audio `{ $gte: 45 }`.',
      }),
    ),
    closed: Opt(Type.Unknown({ description: 'The socket closed: `{ code, reason }` (partial match).' })),
    frames: Opt(
      Type.Unknown({
        description: 'Inbound `media` frames so far (a count or a matcher); every frame must carry 160 bytes and a `timestamp` that is an integer string, 20 ms apart from `"0"`.',
      }),
    ),
  },
  { description: 'Expectations at level **sim** (the spec does not show this protocol).' },
);
