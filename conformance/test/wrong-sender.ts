// Deliberately wrong webhook senders: an HTTP proxy between the simulator and the kit's receiver
// that gives every delivery one defect. The kit registers the proxy's URL (the receiver's public
// URL), so the signature covers what the simulator signed; defects that change fields sign
// again with the account's key, as a sender that builds the wrong payload would, so that only
// the defect shows. The kit must fail on exactly the clauses each defect breaks
// (wrong-sender.test.ts).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
// A sender signs as the simulator does (its public entry); the kit verifies with its own code.
import { computeSignature, parseFormBody } from '../../simulator/index.ts';

export type SenderDefect =
  /** The fields as a JSON body instead of a form. */
  | 'json-body'
  /** No X-Signature header. */
  | 'unsigned'
  /** An X-Signature made with another key. */
  | 'wrong-signature'
  /** callflow.ended's Status sent as a boolean (true when completed), as a truthiness-minded sender would. */
  | 'status-boolean'
  /** VariablesTruncated on every callflow.ended, whatever the size of the variables. */
  | 'truncated-always'
  /** callflow.ended without FlowId, with Direction "in", Event "callflow_ended", a Unix Timestamp and no callee. */
  | 'table-broken'
  /** callflow.ended's Variables as a form-like string instead of a JSON object. */
  | 'variables-not-json'
  /** Never sends a delivery again once the receiver answered it non-2xx. */
  | 'no-retry'
  /** A delivery of an event seen before carries a new CallId. */
  | 'call-id-changes';

export interface WrongSender {
  /** The URL the simulator sends to: give it to the kit as the receiver's public URL. */
  url: string;
  /** Where deliveries go on, once mangled: the receiver's local URL. */
  forwardTo(url: string): void;
  close(): Promise<void>;
}

type Fields = [string, string][];

const get = (f: Fields, name: string) => f.find(([k]) => k === name)?.[1];
const set = (f: Fields, name: string, value: string): Fields => (f.some(([k]) => k === name) ? f.map(([k, v]): [string, string] => [k, k === name ? value : v]) : [...f, [name, value]]);
const drop = (f: Fields, name: string): Fields => f.filter(([k]) => k !== name);

/** The fields as the defect would send them (callflow.ended defects touch only that event). */
function mangleFields(defect: SenderDefect, f: Fields, seenCallIds: Set<string>): Fields {
  const callflow = get(f, 'Event') === 'callflow.ended';
  switch (defect) {
    case 'status-boolean':
      return callflow ? set(f, 'Status', String(get(f, 'Status') === 'completed')) : f;
    case 'truncated-always':
      return callflow ? set(f, 'VariablesTruncated', 'true') : f;
    case 'table-broken': {
      if (!callflow) return f;
      const variables = JSON.parse(get(f, 'Variables') ?? '{}') as Record<string, unknown>;
      delete variables.callee;
      const t = Math.floor(Date.parse(get(f, 'Timestamp') ?? '') / 1000);
      return set(set(set(set(drop(f, 'FlowId'), 'Direction', 'in'), 'Event', 'callflow_ended'), 'Timestamp', String(t)), 'Variables', JSON.stringify(variables));
    }
    case 'variables-not-json': {
      if (!callflow) return f;
      const variables = JSON.parse(get(f, 'Variables') ?? '{}') as Record<string, string>;
      return set(f, 'Variables', new URLSearchParams(variables).toString());
    }
    case 'call-id-changes': {
      const id = get(f, 'CallId');
      if (id === undefined) return f;
      if (!seenCallIds.has(id)) {
        seenCallIds.add(id);
        return f;
      }
      return set(f, 'CallId', `${id}-again`);
    }
    default:
      return f;
  }
}

export async function wrongSender(defect: SenderDefect, keyFor: (accountId: string) => Promise<string>): Promise<WrongSender> {
  let forward = '';
  const refused = new Set<string>();
  const seenCallIds = new Set<string>();
  let publicUrl = '';
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const url = publicUrl + (req.url ?? '/');
        const key = `${req.url} ${body}`;
        if (defect === 'no-retry' && refused.has(key)) return void res.writeHead(204).end();
        const headers: Record<string, string> = {};
        for (const name of ['content-type', 'user-agent', 'x-signature']) {
          const v = req.headers[name];
          if (typeof v === 'string') headers[name] = v;
        }
        let out = body;
        if (req.method === 'POST') {
          const before = parseFormBody(body);
          const fields = mangleFields(defect, before, seenCallIds);
          if (fields !== before) {
            out = new URLSearchParams(fields).toString();
            const account = get(fields, 'AccountId');
            if (account) headers['x-signature'] = computeSignature(await keyFor(account), url, fields);
          }
          if (defect === 'json-body') {
            out = JSON.stringify(Object.fromEntries(fields));
            headers['content-type'] = 'application/json';
          }
        }
        if (defect === 'unsigned') delete headers['x-signature'];
        if (defect === 'wrong-signature') headers['x-signature'] = computeSignature('not-the-signing-key', url, parseFormBody(out));
        const answer = await request(forward + (req.url ?? '/'), { method: req.method as 'POST', headers, body: req.method === 'GET' ? undefined : out });
        const text = await answer.body.text();
        if (defect === 'no-retry' && (answer.statusCode < 200 || answer.statusCode > 299)) refused.add(key);
        res.writeHead(answer.statusCode, { 'content-type': 'text/plain' }).end(text);
      })().catch((e: unknown) => res.writeHead(502).end(String(e)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  publicUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: publicUrl,
    forwardTo: (url) => void (forward = url),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
