import type { LivenessCaptureProps } from './LivenessCapture';
import { runBudget, type LivenessPhase } from './livenessState';
import type { LivenessFlow } from './useLivenessFlow';

/**
 * What the capture shows for the screen's state, the same on every camera screen: the attempt
 * being captured (planned within its frame budget), what the server is doing meanwhile, and after
 * a failed attempt its reason with "Try again".
 *
 * @example
 * <LivenessCapture {...captureState(flow, { sending: t('liveness.sending'), analysing })} … />
 */
export function captureState(
  flow: Pick<LivenessFlow, 'state' | 'tryAgain'>,
  words: { sending: string; analysing: string },
): Pick<LivenessCaptureProps, 'challenges' | 'attemptKey' | 'waiting' | 'retry' | 'runOptions'> {
  const state: LivenessPhase = flow.state;
  const attempt = state.phase === 'capturing' ? state.attempt : null;
  return {
    challenges: attempt?.challenges ?? null,
    attemptKey: attempt?.attemptId ?? null,
    ...(state.phase === 'sending' ? { waiting: words.sending } : {}),
    ...(state.phase === 'analysing' ? { waiting: words.analysing } : {}),
    retry: state.phase === 'retry' ? { ...state.retry, onTryAgain: flow.tryAgain } : null,
    ...(attempt ? { runOptions: runBudget(attempt.maxFrames, attempt.challenges.length) } : {}),
  };
}
