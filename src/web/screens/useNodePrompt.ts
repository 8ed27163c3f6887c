import { useEffect } from 'react';
import type { ClientApi } from '../api/client';
import { ClientApiError } from '../api/errors';
import type { FlowNode } from '../api/types';
import type { PageEvent } from '../machine/pageMachine';

/**
 * Has the guide say a node's `prompt` (permissions, enter_email): the server renders it in the
 * session's language (a `Say:` prompt word for word) and records it in the transcript. The words
 * are a courtesy here, so only a lost session stops the page; other failures leave the screen as
 * it is.
 *
 * @example
 * useNodePrompt(api, node, send);
 */
export function useNodePrompt(
  api: ClientApi,
  node: FlowNode,
  send: (e: PageEvent) => void,
  enabled = true,
): void {
  const prompt = 'prompt' in node ? node.prompt : undefined;
  const has = enabled && typeof prompt === 'string' && prompt.trim() !== '';
  useEffect(() => {
    if (!has) return;
    let live = true;
    api.prompt(node.id).then(
      ({ text }) => {
        if (live && text) send({ type: 'SAY', text });
      },
      (error: unknown) => {
        if (live && error instanceof ClientApiError && error.isAuth)
          send({ type: 'FAILED', error });
      },
    );
    return () => {
      live = false;
    };
  }, [api, node.id, has, send]);
}
