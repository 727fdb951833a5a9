// The cache of parsed YAML between runs (yaml-cache.ts): a text kept by one process gives a later
// one the same data and positions without parsing it; what JSON cannot carry, a foreign or broken
// cache file, and a position never asked are handled by parsing as before.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { YamlCache } from '../yaml-cache.ts';
import { YamlSource } from '../yaml-source.ts';

const TEXT = 'description: two steps\nsteps:\n  - control: { advance: { seconds: 1 } }\n\n  - request: { operationId: getCall }\n';

function fileIn(): string {
  return path.join(mkdtempSync(path.join(os.tmpdir(), 'yaml-cache-')), 'yaml.json');
}

describe('the parsed-YAML cache', () => {
  it('gives a later process the data and the positions the first one asked, from the file', () => {
    const file = fileIn();
    const first = new YamlCache(() => file);
    const data = { steps: [{ a: 1 }, { b: 'x' }], n: null };
    const entry = first.keep(TEXT, data)!;
    first.notePosition(entry, '/steps/1', { line: 5, column: 5 });
    first.flush();

    const later = new YamlCache(() => file);
    const found = later.lookup(TEXT)!;
    expect(found.data).toEqual(data);
    expect(found.data).not.toBe(data); // a fresh copy each time: loaders may change it
    expect(found.entry.positions['/steps/1']).toEqual([5, 5]);
    expect(later.lookup(`${TEXT}# changed\n`)).toBeUndefined();
  });

  it('keeps nothing JSON would change, and reads a broken or foreign file as empty', () => {
    const file = fileIn();
    const cache = new YamlCache(() => file);
    expect(cache.keep('x: .inf', { x: Infinity })).toBeUndefined();
    expect(cache.keep('x: 1', { x: 1 })).toBeDefined();
    writeFileSync(file, '{ not json');
    expect(new YamlCache(() => file).lookup('x: 1')).toBeUndefined();
    writeFileSync(file, JSON.stringify({ format: -1, entries: JSON.parse(JSON.stringify({ any: { json: '1', positions: {}, used: 0 } })) }));
    expect(new YamlCache(() => file).lookup('any')).toBeUndefined();
    cache.flush();
    expect(JSON.parse(readFileSync(file, 'utf8')).format).toBeGreaterThan(0);
  });

  it('without a place for it keeps nothing', () => {
    const cache = new YamlCache(() => undefined);
    expect(cache.keep('x: 1', { x: 1 })).toBeUndefined();
    expect(cache.lookup('x: 1')).toBeUndefined();
  });

  it('a source read again from the cache tells the same lines, also of places no load asked before', () => {
    const text = `${TEXT}  # ${Math.random()}\n`; // a text no earlier run kept
    const a = YamlSource.parse(text, 'a.yaml');
    const lines = ['/steps/0', '/steps/1', '/steps/1/request/operationId', '/nowhere'].map((p) => a.position(p));
    expect(lines[0]!.line).toBe(3);
    expect(lines[1]!.line).toBe(5);
    const b = YamlSource.parse(text, 'b.yaml');
    expect(b.data).toEqual(a.data);
    expect(['/steps/0', '/steps/1', '/steps/1/request/operationId', '/nowhere', '/description'].map((p) => b.position(p))).toEqual([...lines, { line: 1, column: 14 }]);
  });
});
