import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import type { ClientApi } from '../api/client';
import { ClientApiError } from '../api/errors';
import type { LivenessAttemptAnswer, LivenessFrameBody, LivenessStartAnswer } from '../api/types';
import type { PageEvent } from '../machine/pageMachine';
import { blobToBase64 } from './base64';
import type { CameraErrorKind } from './cameraError';
import type { CapturedFrame } from './LivenessCapture';
import {
  INITIAL_LIVENESS,
  livenessStep,
  type CaptureEnd,
  type LivenessEvent,
  type LivenessPhase,
  type LivenessProblem,
  type OpenAttempt,
} from './livenessState';
import { CALL_TIMEOUT_MS, finishAfterUploads, sendingBudgetMs, withTimeout } from './finishAttempt';
import { createUploadQueue, type UploadQueue } from './uploadQueue';

/** The page polls the attempt this often once the capture is over (docs/hosted-page.md). */
export const POLL_MS = 400;
/** Failed polls in a row (no connection, server errors) before the page says so. */
export const POLL_FAILURES_SHOWN = 5;

// The server says the page is out of step with the session (another tab moved it on, say).
const OUT_OF_STEP = new Set(['node_not_current', 'session_finished']);

/**
 * Whether another try of the same call may work: no connection, a server error, too many
 * requests. A refusal (4xx) would be refused again.
 *
 * @example
 * mayRetry(new ClientApiError(0, 'network_error', 'offline')); // true
 */
export function mayRetry(error: unknown): boolean {
  return (
    error instanceof ClientApiError &&
    (error.isNetwork || error.status >= 500 || error.status === 429)
  );
}

/**
 * A captured frame as the frame route takes it: its labels, its page time and the JPEG in base64.
 *
 * @example
 * await frameBody({ role: 'challenge', challengeIndex: 1, t: 2400, blob });
 * // { role: 'challenge', challengeIndex: 1, t: 2400, image: '/9j/…' }
 */
export async function frameBody(frame: CapturedFrame): Promise<LivenessFrameBody> {
  return {
    role: frame.role,
    ...(frame.challengeIndex === undefined ? {} : { challengeIndex: frame.challengeIndex }),
    t: frame.t,
    image: await blobToBase64(frame.blob),
  };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The attempt the start answer opened. */
const openAttempt = (a: LivenessStartAnswer): OpenAttempt => ({
  attemptId: a.attemptId,
  challenges: a.challenges,
  maxFrames: a.maxFrames,
  attempt: a.attempt,
  maxAttempts: a.maxAttempts,
});

/**
 * What a decided attempt means for the screen: another try (the node is still current), or the
 * position to follow.
 *
 * @example
 * decidedEvent('att_1', { status: 'decided', position, retry: { reason: 'tooDark', attemptsLeft: 2 } });
 * // { type: 'RETRY_OFFERED', attemptId: 'att_1', retry: { reason: 'tooDark', attemptsLeft: 2 } }
 */
export function decidedEvent(
  attemptId: string,
  answer: LivenessAttemptAnswer,
): LivenessEvent | null {
  if (answer.status !== 'decided') return null;
  if (answer.retry) return { type: 'RETRY_OFFERED', attemptId, retry: answer.retry };
  return answer.position ? { type: 'DECIDED', position: answer.position } : null;
}

export interface LivenessFlow {
  state: LivenessPhase;
  /** The upload of frames is retrying (a slow or lost connection). */
  uploadStruggling: boolean;
  retry(): void;
  /** The user asks for the next attempt after a failure another try may fix. */
  tryAgain(): void;
  onReady(): void;
  onFrame(frame: CapturedFrame, attemptId: string): void;
  onDone(ended: CaptureEnd, attemptId: string): void;
  onCameraUnavailable(kind: CameraErrorKind | 'detector'): void;
}

/**
 * The liveness node's conversation with the server: an attempt when the camera is ready, each
 * frame uploaded as it comes (in order, one request at a time, each try bounded), `finish` once
 * the frames are sent or the server stops taking them (with what arrived), then
 * the attempt polled every 400 ms until the server has decided, and the page machine told the new
 * position. No camera: `finish { cameraUnavailable: true }`.
 *
 * @example
 * const flow = useLivenessFlow(api, node.id, send);
 * <LivenessCapture onReady={flow.onReady} onFrame={flow.onFrame} … />
 */
export function useLivenessFlow(
  api: ClientApi,
  nodeId: string,
  send: (event: PageEvent) => void,
): LivenessFlow {
  const [state, dispatch] = useReducer(livenessStep, INITIAL_LIVENESS);
  const [uploadStruggling, setUploadStruggling] = useState(false);
  const uploads = useRef<{
    attemptId: string;
    queue: UploadQueue<CapturedFrame>;
    taken: number;
    maxFrames: number;
    /** The server's window for this attempt's frames, and when (page clock) it was opened. */
    window: { issuedAt: number; expiresAt: number };
    startedAt: number;
  }>(null);

  // Every failed call ends here: the page machine for a lost session, the session's position
  // for a page out of step, else a problem on the screen.
  const fail = useCallback(
    async (error: unknown, live: () => boolean): Promise<void> => {
      if (!live()) return;
      if (error instanceof ClientApiError && error.isAuth) {
        send({ type: 'FAILED', error });
        return;
      }
      if (error instanceof ClientApiError && OUT_OF_STEP.has(error.code ?? '')) {
        try {
          const { position } = await api.session();
          if (live()) dispatch({ type: 'DECIDED', position });
        } catch (again) {
          if (live()) send({ type: 'FAILED', error: again });
        }
        return;
      }
      const problem: LivenessProblem = mayRetry(error)
        ? 'network'
        : error instanceof ClientApiError && error.code === 'liveness_attempts_exhausted'
          ? 'exhausted'
          : 'unexpected';
      dispatch({ type: 'FAILED', problem });
    },
    [api, send],
  );

  const pollUntilDecided = useCallback(
    async (attemptId: string, live: () => boolean): Promise<LivenessEvent | null> => {
      let failures = 0;
      while (live()) {
        await sleep(POLL_MS);
        if (!live()) return null;
        try {
          const answer = await withTimeout(CALL_TIMEOUT_MS, (signal) =>
            api.livenessStatus(nodeId, attemptId, { signal }),
          );
          failures = 0;
          const event = decidedEvent(attemptId, answer);
          if (event) return event;
        } catch (error) {
          if (!mayRetry(error) || ++failures >= POLL_FAILURES_SHOWN) throw error;
        }
      }
      return null;
    },
    [api, nodeId],
  );

  const request =
    state.phase === 'preparing' || state.phase === 'decided' || state.phase === 'problem'
      ? 0
      : state.request;
  // Each phase that talks to the server runs its call once when entered (a retry enters it
  // again with a new request number); leaving the phase abandons the call's answer.
  useEffect(() => {
    let alive = true;
    const live = () => alive;
    const s = state;
    const work = async () => {
      switch (s.phase) {
        case 'starting': {
          const answer = await api.livenessStart(nodeId);
          if (!alive) return;
          uploads.current?.queue.stop();
          uploads.current = {
            attemptId: answer.attemptId,
            taken: 0,
            maxFrames: answer.maxFrames,
            window: { issuedAt: answer.issuedAt, expiresAt: answer.expiresAt },
            startedAt: performance.now(),
            queue: createUploadQueue<CapturedFrame>({
              send: async (frame, signal) =>
                api
                  .livenessFrame(nodeId, answer.attemptId, await frameBody(frame), { signal })
                  .catch((error: unknown) => {
                    if (error instanceof ClientApiError && error.isAuth) {
                      send({ type: 'FAILED', error });
                    }
                    throw error;
                  }),
              retryable: mayRetry,
              onProgress: (p) => setUploadStruggling(p.failing >= 2),
            }),
          };
          dispatch({ type: 'STARTED', request: s.request, attempt: openAttempt(answer) });
          return;
        }
        case 'sending': {
          const current = uploads.current;
          const { attemptId } = s.attempt;
          // Bounded: the uploads until the server stops taking frames, each finish try its
          // timeout (finishAttempt.ts).
          const mine = current?.attemptId === attemptId ? current : null;
          const answer = await finishAfterUploads({
            queue: mine?.queue ?? null,
            ...(mine
              ? { budgetMs: sendingBudgetMs(mine.window, mine.startedAt, performance.now()) }
              : {}),
            finish: (signal) =>
              api.livenessFinish(nodeId, attemptId, { ended: s.ended }, { signal }),
            retryable: mayRetry,
            live,
          });
          if (!answer || !alive) return;
          const decided = decidedEvent(s.attempt.attemptId, answer);
          if (decided) dispatch(decided);
          else
            dispatch({ type: 'FINISHED', attemptId: s.attempt.attemptId, status: answer.status });
          return;
        }
        case 'analysing': {
          const decided = await pollUntilDecided(s.attempt.attemptId, live);
          if (decided && alive) dispatch(decided);
          return;
        }
        case 'noCamera': {
          uploads.current?.queue.stop();
          let attemptId = s.attempt?.attemptId;
          if (!attemptId) {
            const answer = await api.livenessStart(nodeId);
            if (!alive) return;
            attemptId = answer.attemptId;
            dispatch({ type: 'STARTED', request: s.request, attempt: openAttempt(answer) });
          }
          const answer = await api.livenessFinish(nodeId, attemptId, { cameraUnavailable: true });
          const decided =
            decidedEvent(attemptId, answer) ?? (await pollUntilDecided(attemptId, live));
          if (decided && alive) dispatch(decided);
          return;
        }
        case 'decided':
          uploads.current?.queue.stop();
          send({ type: 'POSITION', position: s.position });
          return;
        default:
          return;
      }
    };
    work().catch((error: unknown) => fail(error, live));
    return () => {
      alive = false;
    };
    // The phase and its request number say when to run; the rest of the state rides along.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [state.phase, request, api, nodeId, send, fail, pollUntilDecided]);

  useEffect(
    () => () => {
      uploads.current?.queue.stop();
    },
    [],
  );

  const onFrame = useCallback((frame: CapturedFrame, attemptId: string) => {
    const current = uploads.current;
    // The capture plans within `maxFrames` (runBudget); a frame beyond would only be refused.
    if (!current || current.attemptId !== attemptId || current.taken >= current.maxFrames) return;
    current.taken++;
    current.queue.push(frame);
  }, []);

  return {
    state,
    uploadStruggling,
    retry: useCallback(() => dispatch({ type: 'RETRY' }), []),
    tryAgain: useCallback(() => dispatch({ type: 'TRY_AGAIN' }), []),
    onReady: useCallback(() => dispatch({ type: 'READY' }), []),
    onFrame,
    onDone: useCallback(
      (ended: CaptureEnd, attemptId: string) =>
        dispatch({ type: 'CAPTURE_DONE', attemptId, ended }),
      [],
    ),
    onCameraUnavailable: useCallback(() => dispatch({ type: 'NO_CAMERA' }), []),
  };
}
