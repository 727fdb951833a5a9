// Sends the document's request examples in document order to one simulator, as an example-driven
// tool (Dredd, a Postman collection run) would, and returns each answer. A value an example
// takes from an earlier answer (resources/example-refs.ts) is read off that answer here, so the
// examples run even when the literals the document shows are stale; `resolved` tells the caller
// what each literal should be. A few examples need what no example can do: the virtual clock to
// move, a person to act on a page, a control-plane registration. STEPS_BEFORE does it, as a
// tool's hook would, and says why.
import type { Simulator } from '../../index.ts';
import type { SimRequest } from '../../core/operation.ts';
import { exampleRefs } from '../../resources/example-refs.ts';
import { ACME } from '../helpers.ts';
import { examplesOf, type DocExample } from './examples.ts';
import type { DocOperation } from './operations.ts';
import { toWire } from './requests.ts';

type Resolve = (key: string) => Promise<string>;

const json = (body: unknown): Pick<SimRequest, 'headers' | 'body'> => ({ headers: { 'content-type': 'application/json', authorization: `Bearer ${ACME.key}` }, body: JSON.stringify(body) });
const advance = (seconds: number): SimRequest => ({ method: 'POST', url: '/_sim/clock/advance', ...json({ seconds }) });

/** Requests sent before the first example of an operation, with the reason. */
export const STEPS_BEFORE: Readonly<Record<string, { why: string; steps: (resolve: Resolve, sim: Simulator, authorize: (header: string) => void) => Promise<SimRequest[]> }>> = {
  createKakaoChannel: {
    why: 'the token comes to the manager\'s phone after requestKakaoChannelToken, which the document lists later',
    steps: async () => [{ method: 'POST', url: `/v1/accounts/${ACME.accountId}/kakao/channels/token`, ...json({ searchId: 'acmelogistics', phoneNumber: '010-7777-0001' }) }],
  },
  checkVerification: { why: 'the code reaches the phone a few seconds after the send', steps: async () => [advance(5)] },
  playIntoCall: { why: 'the call must have been put through to the front desk', steps: async () => [advance(20)] },
  resumeAssignmentSessionIdentityVerification: {
    why: 'the person finishes on the identity provider\'s page first',
    steps: async (resolve) => [
      {
        method: 'POST',
        url: `/identity/${await resolve('startAssignmentSessionIdentityVerification.start.identityVerificationId')}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'action=verify&name=%EA%B9%80%EB%AF%BC%EC%A7%80&birthDate=1990-01-01',
      },
    ],
  },
  testMcpConnection: {
    why: 'the connection must point at an MCP server: the simulator starts a fake one on a free port',
    steps: async (_resolve, sim) => {
      const server = JSON.parse((await sim.handle({ method: 'POST', url: '/_sim/mcp/servers', ...json({}) })).body) as { url: string };
      return [{ method: 'PATCH', url: `/v1/accounts/${ACME.accountId}/mcp-connections/${await _resolve('createMcpConnection.crm.connectionId')}`, ...json({ url: server.url, enabled: true }) }];
    },
  },
  getRecording: { why: 'the calls must have ended', steps: async () => [advance(120)] },
  mcpServer: {
    why: 'its bearer is the token of an app, which only the control plane registers',
    steps: async (_resolve, sim, authorize) => {
      const app = JSON.parse((await sim.handle({ method: 'POST', url: `/_sim/accounts/${ACME.accountId}/mcp-apps`, ...json({ permissions: ['read:usage'] }) })).body) as { token: string };
      authorize(`Bearer ${app.token}`);
      return [];
    },
  },
};

export interface ExampleAnswer {
  example: DocExample;
  status: number;
  body: string;
}

export interface ExampleRun {
  answers: ExampleAnswer[];
  /** Each ref key the examples used, with the value it has in this run. */
  resolved: Map<string, string>;
}

function at(value: unknown, path: string[]): unknown {
  return path.reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), value);
}

/** `value` with every ref literal in it replaced by what `resolve` gives. */
async function substitute(value: unknown, resolve: Resolve): Promise<unknown> {
  const refs = exampleRefs();
  if (typeof value === 'string') {
    const key = refs.get(value);
    return key ? resolve(key) : value;
  }
  if (Array.isArray(value)) return Promise.all(value.map((v) => substitute(v, resolve)));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = await substitute(v, resolve);
    return out;
  }
  return value;
}

export async function runExamples(sim: Simulator, ops: DocOperation[], auth: (op: DocOperation) => string | undefined = (op) => (op.control ? undefined : `Bearer ${ACME.key}`)): Promise<ExampleRun> {
  const answers: ExampleAnswer[] = [];
  const parsed = new Map<string, unknown>();
  const resolved = new Map<string, string>();
  const control = async (url: string) => JSON.parse((await sim.handle({ method: 'GET', url })).body);
  const resolve: Resolve = async (key) => {
    let value: unknown;
    if (key.startsWith('code:')) value = (await control(`/_sim/carrier/phones/${key.slice(5)}`)).messages.filter((m: { code?: string }) => m.code).at(-1)?.code;
    else if (key.startsWith('kakaoToken:')) value = (await control(`/_sim/messenger/tokens/${key.slice(11)}`)).tokens.at(-1)?.token;
    else {
      // `field#claim`: a claim of the JSON Web Token in that field (a token's jti).
      const [dotted, claim] = key.split('#');
      const [opId, name, ...path] = dotted!.split('.');
      value = at(parsed.get(`${opId}.${name}`), path);
      if (claim && typeof value === 'string') value = (JSON.parse(Buffer.from(value.split('.')[1] ?? '', 'base64url').toString()) as Record<string, unknown>)[claim];
    }
    // Unresolvable (the answer it comes from failed): the example is sent with the placeholder and fails visibly.
    if (typeof value !== 'string' && typeof value !== 'number') return `{{${key}}}`;
    resolved.set(key, String(value));
    return String(value);
  };
  const before = new Set<string>();
  const authorization = new Map<string, string>();
  for (const example of examplesOf(ops)) {
    const { op } = example;
    const hook = STEPS_BEFORE[op.operationId];
    if (hook && !before.has(op.operationId)) {
      before.add(op.operationId);
      for (const step of await hook.steps(resolve, sim, (h) => authorization.set(op.operationId, h))) await sim.handle(step);
    }
    const request = (await substitute(example.request, resolve)) as DocExample['request'];
    const res = await sim.handle(await toWire(op, request, authorization.get(op.operationId) ?? auth(op)));
    try {
      parsed.set(`${op.operationId}.${example.name}`, JSON.parse(res.body));
    } catch {
      // HTML pages and binary answers are not read by later examples.
    }
    answers.push({ example, status: res.status, body: res.body });
  }
  return { answers, resolved };
}
