// Path router: a trie of path segments. Static segments win over parameters at the same depth;
// `{name}` segments capture one decoded segment. Matching tells apart "no such path" (404)
// from "path exists, method does not" (405), so the HTTP layer can answer each correctly.

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

interface Node<T> {
  statics: Map<string, Node<T>>;
  param?: { name: string; node: Node<T> };
  handlers: Map<string, T>;
}

export type MatchResult<T> =
  | { kind: 'found'; value: T; params: Record<string, string> }
  | { kind: 'method-not-allowed'; allowed: string[] }
  | { kind: 'not-found' }
  | { kind: 'bad-path'; reason: string };

function newNode<T>(): Node<T> {
  return { statics: new Map(), handlers: new Map() };
}

export class Router<T> {
  private readonly root: Node<T> = newNode();

  add(method: string, pattern: string, value: T): void {
    if (!pattern.startsWith('/')) throw new Error(`route pattern must start with "/": ${pattern}`);
    let node = this.root;
    for (const seg of splitPath(pattern)) {
      const m = /^\{([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(seg);
      if (m) {
        const name = m[1]!;
        if (node.param && node.param.name !== name) {
          throw new Error(`conflicting parameter names at ${pattern}: {${node.param.name}} and {${name}}`);
        }
        node.param ??= { name, node: newNode() };
        node = node.param.node;
      } else {
        if (seg.includes('{') || seg.includes('}')) throw new Error(`bad segment "${seg}" in ${pattern}`);
        let next = node.statics.get(seg);
        if (!next) {
          next = newNode();
          node.statics.set(seg, next);
        }
        node = next;
      }
    }
    if (node.handlers.has(method)) throw new Error(`duplicate route ${method} ${pattern}`);
    node.handlers.set(method, value);
  }

  /** `path` is the raw request path (no query); segments are percent-decoded here. */
  match(method: string, path: string): MatchResult<T> {
    const params: Record<string, string> = {};
    const node = this.walk(this.root, splitPath(path), 0, params);
    if (node === 'bad') return { kind: 'bad-path', reason: 'the path has a malformed percent-encoding' };
    if (!node || node.handlers.size === 0) return { kind: 'not-found' };
    const value = node.handlers.get(method);
    if (value === undefined) return { kind: 'method-not-allowed', allowed: [...node.handlers.keys()].sort() };
    return { kind: 'found', value, params };
  }

  private walk(node: Node<T>, segs: string[], i: number, params: Record<string, string>): Node<T> | undefined | 'bad' {
    if (i === segs.length) return node;
    const seg = segs[i]!;
    const stat = node.statics.get(seg);
    if (stat) {
      const staticParams: Record<string, string> = {};
      const found = this.walk(stat, segs, i + 1, staticParams);
      if (found === 'bad') return found;
      if (found && found.handlers.size > 0) {
        Object.assign(params, staticParams);
        return found;
      }
    }
    if (node.param) {
      let decoded: string;
      try {
        decoded = decodeURIComponent(seg);
      } catch {
        return 'bad';
      }
      if (decoded === '') return undefined;
      const found = this.walk(node.param.node, segs, i + 1, params);
      if (found && found !== 'bad') params[node.param.name] = decoded;
      return found;
    }
    return undefined;
  }
}

function splitPath(path: string): string[] {
  // "/a/b/" and "/a/b" are the same path; an empty middle segment ("/a//b") stays empty
  // so that it never matches a parameter.
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  return trimmed === '/' ? [] : trimmed.slice(1).split('/');
}
