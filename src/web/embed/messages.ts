import type { NodeType } from '../api/types';

/** Marks our messages so a parent listening to many frames can tell them apart. */
export const MESSAGE_SOURCE = 'idv-hosted-page';

/** The events the page posts to the window that embeds it (docs/hosted-page.md lists them). */
export type PageMessage =
  | { source: typeof MESSAGE_SOURCE; type: 'ready'; sessionId: string; lang: string }
  | {
      source: typeof MESSAGE_SOURCE;
      type: 'step';
      sessionId: string;
      nodeId: string;
      nodeType: NodeType;
      /** 1 for the first node the user meets, then 2, 3… */
      index: number;
    }
  | { source: typeof MESSAGE_SOURCE; type: 'complete'; sessionId: string }
  | { source: typeof MESSAGE_SOURCE; type: 'incomplete'; sessionId: string; reason: string }
  | { source: typeof MESSAGE_SOURCE; type: 'error'; sessionId: string; code: string };

/**
 * The canonical form of an origin (`scheme://host[:port]`, lower-case, default port dropped), or
 * null for anything that is not an http(s) origin. `*`, paths and `null` are refused.
 *
 * @example
 * normalizeOrigin('HTTPS://Shop.Example:443/'); // 'https://shop.example'
 * normalizeOrigin('*'); // null
 */
export function normalizeOrigin(value: string): string | null {
  if (!value || value.includes('*')) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (url.username || url.password || url.search || url.hash) return null;
  if (url.pathname !== '/' && url.pathname !== '') return null;
  return url.origin;
}

/**
 * The origins a message may be posted to: the allowed embedding origins, narrowed to the actual
 * parent when the browser says who it is (`location.ancestorOrigins`). Posting to each allowed
 * origin is safe where the parent is unknown: the browser delivers only to the one that matches.
 * Never `*`.
 *
 * @example
 * targetOrigins(['https://a.test', 'https://b.test'], 'https://b.test'); // ['https://b.test']
 * targetOrigins(['https://a.test'], 'https://evil.test'); // []
 * targetOrigins(['https://a.test'], undefined); // ['https://a.test']
 */
export function targetOrigins(
  embedOrigins: readonly string[],
  parentOrigin: string | undefined,
): string[] {
  const allowed = [...new Set(embedOrigins.map(normalizeOrigin).filter((o): o is string => !!o))];
  if (parentOrigin === undefined) return allowed;
  const parent = normalizeOrigin(parentOrigin);
  return parent && allowed.includes(parent) ? [parent] : [];
}
