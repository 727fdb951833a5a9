// The OpenAPI 3.1 document: lints clean with Redocly, every operation is identified and marked,
// the reference's operations keep their wire identity, and real answers match their schemas.
import { describe, expect, it } from 'vitest';
import { Kind } from '@sinclair/typebox';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openApiJson } from '../operations.ts';
import { allOperations } from '../operations.ts';
import { router } from '../app.ts';
import { harness } from './helpers.ts';
import { expectDocumentedAnswer } from './documented.ts';

const doc = JSON.parse(openApiJson());
const REDOCLY = fileURLToPath(new URL('../../node_modules/@redocly/cli/bin/cli.js', import.meta.url));

describe('OpenAPI document', () => {
  it('lints clean with @redocly/cli (recommended rules)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'oas-'));
    const file = join(dir, 'openapi.json');
    writeFileSync(file, openApiJson());
    let out: string;
    try {
      // The linter's own bin, not through npx (npm's start-up adds about half a second of CPU).
      out = execFileSync(process.execPath, [REDOCLY, 'lint', file, '--format=json'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    } catch (e) {
      out = (e as { stdout: string }).stdout;
    }
    const report = JSON.parse(out.slice(out.indexOf('{')));
    // GET /openapi.json and the inspector's page (GET /_sim/ui) cannot fail with a 4xx; those
    // warnings are expected and nothing else.
    const cannotFail = ['#/paths/~1openapi.json/get/responses', '#/paths/~1_sim~1ui/get/responses'];
    const unexpected = report.problems.filter((p: any) => !(p.ruleId === 'operation-4xx-response' && cannotFail.includes(p.location[0].pointer)));
    expect(unexpected).toEqual([]);
    expect(report.totals.errors).toBe(0);
  }, 60_000);

  it('is OpenAPI 3.1 with a unique operationId and an x-origin on every operation', () => {
    expect(doc.openapi).toBe('3.1.0');
    const ids: string[] = [];
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        expect(op.operationId, `${method} ${path}`).toMatch(/^[a-z][A-Za-z0-9]+$/);
        expect(['spec', 'reference', 'simulator']).toContain(op['x-origin']);
        ids.push(op.operationId);
      }
    }
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe(allOperations().length);
  });

  it('keeps the public API document\'s path, method and success status for the operations it has', () => {
    // Facts from the public API reference (operationId -> method, path, success status).
    const reference: [string, string, string, string][] = [
      ['listBlockedRecipients', 'get', '/v1/accounts/{accountId}/blocked-recipients', '200'],
      ['createBlockedRecipient', 'post', '/v1/accounts/{accountId}/blocked-recipients', '201'],
      ['getBlockedRecipient', 'get', '/v1/accounts/{accountId}/blocked-recipients/{blockId}', '200'],
      ['updateBlockedRecipient', 'patch', '/v1/accounts/{accountId}/blocked-recipients/{blockId}', '200'],
      ['releaseBlockedRecipient', 'delete', '/v1/accounts/{accountId}/blocked-recipients/{blockId}', '200'],
      ['listNumbers', 'get', '/v1/accounts/{accountId}/numbers', '200'],
      ['registerNumber', 'post', '/v1/accounts/{accountId}/numbers', '201'],
      ['updateNumber', 'put', '/v1/accounts/{accountId}/numbers/{number}', '200'],
      ['deleteNumber', 'delete', '/v1/accounts/{accountId}/numbers/{number}', '204'],
      ['createWebhook', 'post', '/v1/accounts/{accountId}/webhooks', '201'],
      ['listWebhooks', 'get', '/v1/accounts/{accountId}/webhooks', '200'],
      ['updateWebhook', 'put', '/v1/accounts/{accountId}/webhooks/{webhookId}', '200'],
      ['deleteWebhook', 'delete', '/v1/accounts/{accountId}/webhooks/{webhookId}', '204'],
      ['listWebhookLogs', 'get', '/v1/accounts/{accountId}/webhooks/{webhookId}/logs', '200'],
      ['testWebhook', 'post', '/v1/accounts/{accountId}/webhooks/{webhookId}/test', '200'],
    ];
    for (const [id, method, path, status] of reference) {
      const op = doc.paths[path]?.[method];
      expect(op?.operationId, `${method} ${path}`).toBe(id);
      expect(Object.keys(op.responses)).toContain(status);
    }
    const spec = ['listBlockedCallers', 'getBlockedCaller'];
    for (const op of allOperations().filter((o) => spec.includes(o.operationId))) expect(op.origin).toBe('spec');
  });

  it('documents, on each operation, every code its schemas name in x-error-code', () => {
    const codesIn = (node: unknown, seen = new Set<string>()): string[] => {
      if (Array.isArray(node)) return node.flatMap((n) => codesIn(n, seen));
      if (!node || typeof node !== 'object') return [];
      const n = node as Record<string, unknown>;
      if (typeof n.$ref === 'string') {
        if (seen.has(n.$ref)) return [];
        seen.add(n.$ref);
        return codesIn(doc.components.schemas[n.$ref.split('/').pop()!], seen);
      }
      return Object.entries(n).flatMap(([k, v]) => (k === 'x-error-code' ? [v as string] : codesIn(v, seen)));
    };
    const missing: string[] = [];
    for (const item of Object.values<any>(doc.paths)) {
      for (const op of Object.values<any>(item)) {
        const documented = Object.values<any>(op.responses).flatMap((r) => r['x-error-codes'] ?? []);
        for (const code of codesIn([op.parameters, op.requestBody])) if (!documented.includes(code)) missing.push(`${op.operationId}: ${code}`);
      }
    }
    expect([...new Set(missing)]).toEqual([]);
  });

  it('enforces every enum a request schema declares (StringEnum), unless the handler answers its own code', () => {
    const unenforced: string[] = [];
    const walk = (node: unknown, where: string): void => {
      if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${where}[${i}]`));
      if (!node || typeof node !== 'object') return;
      const n = node as Record<string | symbol, unknown>;
      if (Array.isArray(n.enum) && n.type === 'string' && n[Kind] !== 'StringEnum' && !('x-error-code' in n)) unenforced.push(where);
      for (const [k, v] of Object.entries(n)) walk(v, `${where}.${k}`);
    };
    for (const op of allOperations()) walk([op.params, op.query, op.body], op.operationId);
    expect(unenforced).toEqual([]);
  });

  it('routes every documented operation', () => {
    for (const op of allOperations()) {
      const concrete = op.path.replace(/\{[^}]+\}/g, 'x1');
      const m = router().match(op.method, concrete);
      expect(m.kind, op.operationId).toBe('found');
    }
  });
});

describe('answers match the documented schemas and statuses', () => {
  it('for a tour of every operation, including refusals', async () => {
    const h = harness();
    const a = (p: string) => h.acme(p);
    const rec = (await h.call('POST', a('/blocked-recipients'), { number: '010-1111-2222', channel: 'call' })).json;
    const cal = (await h.call('POST', a('/blocked-callers'), { number: '02-111-2222' })).json;
    // Nothing listens on port 9 of loopback: webhook attempts fail fast and are retried.
    const hook = (await h.call('POST', a('/webhooks'), { url: 'http://127.0.0.1:9/hook', events: ['message.sent'] })).json;
    const tour: [string, string, unknown?, string?][] = [
      ['GET', a('/blocked-callers')],
      ['GET', a('/blocked-callers?status=all&number=02-111-2222')],
      ['GET', a(`/blocked-callers/${cal.id}`)],
      ['POST', a('/blocked-callers'), { number: '02-111-2222' }],
      ['POST', a('/blocked-callers'), { number: 'x' }],
      ['DELETE', a(`/blocked-callers/${cal.id}`), { note: 'done' }],
      ['GET', a('/blocked-callers/none')],
      ['GET', a('/blocked-recipients?channel=call')],
      ['GET', a(`/blocked-recipients/${rec.id}`)],
      ['PATCH', a(`/blocked-recipients/${rec.id}`), { note: 'n' }],
      ['PATCH', a(`/blocked-recipients/${rec.id}`), { channel: 'message' }],
      ['DELETE', a(`/blocked-recipients/${rec.id}`)],
      ['POST', a('/blocked-recipients'), { number: '+1 212 555 0100', channel: 'call' }],
      ['GET', a('/numbers')],
      ['POST', a('/numbers'), {}],
      ['PUT', a('/numbers/07012340001'), { webhookUrl: 'https://x.example/' }],
      ['PUT', a('/numbers/07012340001'), { routingType: 'callflow' }],
      ['DELETE', a('/numbers/07040000000')],
      ['GET', a('/numbers?pageSize=x')],
      ['GET', '/v1/accounts/AC5e6f7a8b/numbers'],
      ['GET', a('/webhooks')],
      ['POST', a('/webhooks'), { url: 'https://x.example/h', events: ['nope'] }],
      ['POST', a('/webhooks'), { url: 'nope', events: ['message.sent'] }],
      ['PUT', a(`/webhooks/${hook.id}`), { events: ['callflow.ended', 'message.sent'] }],
      ['PUT', a(`/webhooks/${hook.id}`), {}],
      ['POST', a(`/webhooks/${hook.id}/test`)],
      ['GET', a(`/webhooks/${hook.id}/logs`)],
      ['GET', a('/webhooks/WHnone/logs')],
      ['POST', '/_sim/webhooks/events', { accountId: 'AC1a2b3c4d', type: 'message.sent', payload: { MessageId: 'MG1' } }],
      ['POST', '/_sim/webhooks/events', { accountId: 'ACnone', type: 'message.sent', payload: {} }],
      ['POST', '/_sim/webhooks/settle'],
      ['GET', '/_sim/webhooks/journal?event=message.sent'],
      ['GET', '/_sim/webhooks/deliveries?status=pending'],
      ['POST', '/_sim/webhooks/duplicates', { resourceId: 'MG1' }],
      ['POST', '/_sim/webhooks/duplicates', { resourceId: 'MG404' }],
      ['DELETE', '/_sim/webhooks/journal'],
      ['GET', '/_sim/accounts/AC1a2b3c4d/signing-key'],
      ['PUT', '/_sim/accounts/AC1a2b3c4d/signing-key', {}],
      ['GET', '/_sim/accounts/ACnone/signing-key'],
      ['DELETE', a(`/webhooks/${hook.id}`)],
      ['GET', '/_sim/health'],
      ['GET', '/_sim/clock'],
      ['POST', '/_sim/clock/advance', { seconds: 1 }],
      ['POST', '/_sim/accounts', {}],
      ['GET', '/_sim/accounts'],
      ['GET', '/_sim/accounts/AC1a2b3c4d'],
      ['PATCH', '/_sim/accounts/AC1a2b3c4d', { addons: ['external_assignment'] }],
      ['GET', '/_sim/geoip'],
      ['POST', '/_sim/geoip/foreign', { ip: '192.0.2.1' }],
      ['GET', '/_sim/state'],
      ['POST', '/_sim/reset', {}],
      ['GET', '/openapi.json'],
    ];
    for (const [method, url, body] of tour) expectDocumentedAnswer(method, url, await h.call(method, url, body));
  });
});
