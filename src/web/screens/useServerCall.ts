import { useCallback, useRef, useState } from 'react';
import type { ClientApi } from '../api/client';
import { ClientApiError } from '../api/errors';
import type { PageEvent } from '../machine/pageMachine';

/** The state of a screen's call to the server. */
export interface ServerCall {
  busy: boolean;
  /** 'network' (the screen offers a retry) or 'refused' (the server said no to this input). */
  problem: 'network' | 'refused' | null;
  /** The refusal, for screens that react to a specific code. */
  refusal: ClientApiError | null;
  /** Runs a whole step (the call and what follows from its answer) so a retry redoes it all. */
  run(action: () => Promise<unknown>): Promise<void>;
  retry(): void;
}

// The server says the page is out of step with the session (another tab moved it on, say).
const OUT_OF_STEP = new Set(['node_not_current', 'session_finished']);

/**
 * Runs a screen's calls one at a time: a lost connection becomes an inline retry, a refused
 * input an inline message, a token that no longer opens the session goes to the page machine
 * (which shows the error page), and a page out of step with the session reads it again and
 * follows the server.
 *
 * @example
 * const call = useServerCall(send, api);
 * await call.run(async () => {
 *   const { position } = await api.result(node.id, 'emailEntered', { email });
 *   send({ type: 'POSITION', position });
 * });
 */
export function useServerCall(send: (event: PageEvent) => void, api: ClientApi): ServerCall {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<ServerCall['problem']>(null);
  const [refusal, setRefusal] = useState<ClientApiError | null>(null);
  const last = useRef<(() => Promise<unknown>) | null>(null);
  const running = useRef(false);

  const run = useCallback(
    async (action: () => Promise<unknown>): Promise<void> => {
      if (running.current) return;
      running.current = true;
      last.current = action;
      setBusy(true);
      setProblem(null);
      setRefusal(null);
      try {
        await action();
      } catch (error) {
        if (error instanceof ClientApiError && error.isNetwork) setProblem('network');
        else if (
          error instanceof ClientApiError &&
          (error.isAuth || error.type === 'not_found_error')
        ) {
          send({ type: 'FAILED', error });
        } else if (error instanceof ClientApiError && OUT_OF_STEP.has(error.code ?? '')) {
          try {
            const { position } = await api.session();
            send({ type: 'POSITION', position });
          } catch (again) {
            send({ type: 'FAILED', error: again });
          }
        } else {
          setProblem('refused');
          setRefusal(error instanceof ClientApiError ? error : null);
        }
      } finally {
        running.current = false;
        setBusy(false);
      }
    },
    [send, api],
  );

  const retry = useCallback(() => {
    if (last.current) void run(last.current);
  }, [run]);

  return { busy, problem, refusal, run, retry };
}
