import { fromCallback } from 'xstate';
import type { HandoffStatus } from '../api/types';
import type { PageEvent } from '../machine/pageMachine';

/**
 * The page machine's `watchPhone` actor: reads where the session stands every `everyMs` (one
 * request at a time) and sends `PHONE_AT`. A failed read is tried again at the next turn: a
 * computer that lost its connection for a moment catches up.
 *
 * @example
 * pageMachine.provide({ actors: { watchPhone: watchPhone(() => api.handoffStatus()) } });
 */
export function watchPhone(status: () => Promise<HandoffStatus>, everyMs = 1500) {
  return fromCallback<PageEvent>(({ sendBack }) => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const turn = async () => {
      try {
        const answer = await status();
        if (!stopped) sendBack({ type: 'PHONE_AT', position: answer.position });
      } catch {
        // Read again at the next turn.
      }
      if (!stopped) timer = setTimeout(() => void turn(), everyMs);
    };
    void turn();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  });
}
