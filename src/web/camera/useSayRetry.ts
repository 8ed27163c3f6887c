import { useEffect } from 'react';
import type { PageEvent } from '../machine/pageMachine';
import type { LivenessStrings } from './LivenessCapture';
import type { LivenessPhase } from './livenessState';
import { retryText } from './useCaptureStrings';

/**
 * Has the guide say why an attempt failed, once per failed attempt, when the screen offers
 * another (the words are also over the preview).
 *
 * @example
 * useSayRetry(flow.state, strings, send);
 */
export function useSayRetry(
  state: LivenessPhase,
  strings: LivenessStrings,
  send: (event: PageEvent) => void,
): void {
  const retry = state.phase === 'retry' ? state : null;
  const attemptId = retry?.attempt.attemptId;
  const text = retry ? retryText(strings, retry.retry) : null;
  useEffect(() => {
    if (attemptId && text) send({ type: 'SAY', text });
    // Once per failed attempt: a new language's words need not be said again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [attemptId, send]);
}
