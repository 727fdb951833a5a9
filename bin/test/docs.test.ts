// The documents a customer follows without reading source: every relative link in README.md and
// docs/*.md reaches a file that exists (and a heading, when it names one); the README's send
// example uses the demo account's real key, account and numbers; docs/webhooks.md's plain-JS
// verifier accepts what the simulator signs and refuses a tampered body.
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSimulator } from '../../simulator/index.ts';
import { computeSignature, parseFormBody } from '../../simulator/core/signing.ts';
import { loadFixtureFile, DEFAULT_FIXTURE_PATH } from '../../simulator/fixtures.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const documents = ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[`*_]/g, '')
    .replace(/[^\p{L}\p{N} -]/gu, '')
    .replace(/ /g, '-');
}

function anchors(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1]!)));
}

function links(text: string): string[] {
  const prose = text.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\[[^\]]*\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
}

describe('documents', () => {
  for (const doc of documents) {
    it(`${doc}: every relative link reaches an existing file and heading`, () => {
      const file = join(root, doc);
      const broken: string[] = [];
      for (const target of links(readFileSync(file, 'utf8'))) {
        if (/^[a-z]+:/i.test(target)) continue; // http:, https:, mailto:
        const [path, anchor] = target.split('#') as [string, string | undefined];
        const resolved = path === '' ? file : join(dirname(file), decodeURIComponent(path));
        if (!resolved.startsWith(root) || !existsSync(resolved)) broken.push(`${target} (no file ${relative(root, resolved)})`);
        else if (anchor && resolved.endsWith('.md') && !anchors(resolved).has(anchor)) broken.push(`${target} (no heading #${anchor})`);
      }
      expect(broken).toEqual([]);
    });
  }

  it('docs/control-plane.md links its neighbours rather than naming files in prose', () => {
    const text = readFileSync(join(root, 'docs/control-plane.md'), 'utf8');
    expect(links(text).length).toBeGreaterThan(0);
    // A bare `something.md` outside a link is a reference a reader cannot follow.
    const prose = text.replace(/```[\s\S]*?```/g, '').replace(/\[[^\]]*\]\([^)]*\)/g, '');
    expect(prose.match(/\b[\w./-]+\.md\b/g) ?? []).toEqual([]);
  });

  it("README's sendMessage example uses the demo account's key, account and numbers, and works after the steps before it, answering fields in the order shown", async () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const example = /<!-- send-example -->\s*```sh\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(example, 'README.md has a curl example after <!-- send-example -->').toBeDefined();
    const fixture = loadFixtureFile(DEFAULT_FIXTURE_PATH);
    const acme = fixture.accounts[0]!;
    expect(example).toContain(acme.apiKeys[0]);
    const path = /(\/v1\/accounts\/[^/\s]+\/messages)\b/.exec(example!)?.[1];
    expect(path).toBe(`/v1/accounts/${acme.accountId}/messages`);
    const body = /-d '([^']+)'/.exec(example!)?.[1];
    const sim = createSimulator();
    try {
      const headers = { authorization: `Bearer ${acme.apiKeys[0]}`, 'content-type': 'application/json' };
      // A reader follows the README in order: the opt-out of the block before must not hit the send.
      const before = readme.slice(readme.indexOf('Then:'), readme.indexOf('<!-- send-example -->'));
      const optOut = /-d '([^']+)' \\\n\s*\S+(\/v1\/accounts\/[^/\s]+\/blocked-recipients)/.exec(before);
      expect(optOut, 'the block before the send example opts a number out').not.toBeNull();
      expect((await sim.fetch(optOut![2]!, { method: 'POST', headers, body: optOut![1] })).status).toBe(201);
      const res = await sim.fetch(path!, { method: 'POST', headers, body });
      const sent = (await res.json()) as Record<string, unknown>;
      expect(res.status).toBe(201);
      expect((acme.numbers ?? []).map((n) => (typeof n === 'string' ? n : n.number))).toContain(sent.from);
      // The sample answer names the first fields in the order the simulator sends them.
      const shown = [...(/# 201 (\{.*)$/m.exec(example!)?.[1] ?? '').matchAll(/"(\w+)":/g)].map((m) => m[1]);
      expect(shown.length).toBeGreaterThan(3);
      expect(Object.keys(sent).slice(0, shown.length)).toEqual(shown);
    } finally {
      await sim.close();
    }
  });

  it("docs/webhooks.md's plain-JS verifier accepts the simulator's signature and refuses a tampered request", async () => {
    const text = readFileSync(join(root, 'docs/webhooks.md'), 'utf8');
    const code = /<!-- verifier -->\s*```js\n([\s\S]*?)```/.exec(text)?.[1];
    expect(code, 'docs/webhooks.md has a js block after <!-- verifier -->').toBeDefined();
    expect(code!.trim().split('\n').length).toBeLessThanOrEqual(12);
    const { createHmac, timingSafeEqual } = await import('node:crypto');
    const mod = { exports: {} as Record<string, unknown> };
    // The block is plain JavaScript with `require`; run it as a CommonJS module would.
    new Function('require', 'module', 'exports', code!)((name: string) => (name === 'node:crypto' ? { createHmac, timingSafeEqual } : undefined), mod, mod.exports);
    const verify = (mod.exports.verifySignature ?? (mod.exports as unknown)) as (key: string, url: string, body: string, signature: string) => boolean;
    const key = 'whsec_docs';
    const url = 'http://127.0.0.1:3000/webhooks?x=1';
    const body = 'MessageId=MG1&Status=sent&Body=caf%C3%A9+%26+more';
    const signature = computeSignature(key, url, parseFormBody(body));
    expect(verify(key, url, body, signature)).toBe(true);
    expect(verify(key, url, body.replace('sent', 'failed'), signature)).toBe(false);
    expect(verify(key, url.replace('3000', '3001'), body, signature)).toBe(false);
    expect(verify(key, url, body, '')).toBe(false);
  });
});
