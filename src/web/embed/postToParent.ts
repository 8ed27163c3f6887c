import { MESSAGE_SOURCE, targetOrigins, type PageMessage } from './messages';

type Body<T> = T extends unknown ? Omit<T, 'source'> : never;

/**
 * Posts an event to the embedding window, only to the origins the integrator allowed. Does
 * nothing when the page is not in a frame or no origin is allowed.
 *
 * @example
 * postToParent(['https://shop.example'], { type: 'complete', sessionId: 'ses_1' });
 */
export function postToParent(embedOrigins: readonly string[], body: Body<PageMessage>): void {
  if (window.parent === window) return;
  const ancestors = window.location.ancestorOrigins;
  const parentOrigin = ancestors && ancestors.length > 0 ? ancestors[0] : undefined;
  const message = { source: MESSAGE_SOURCE, ...body } as PageMessage;
  for (const origin of targetOrigins(embedOrigins, parentOrigin)) {
    try {
      window.parent.postMessage(message, origin);
    } catch {
      // A parent that navigated away mid-flow: nobody is left to tell.
    }
  }
}

/** True when the page runs inside a frame (so the end screen does not offer a redirect). */
export function isEmbedded(): boolean {
  try {
    return window.self !== window.top;
  } catch {
    return true;
  }
}
