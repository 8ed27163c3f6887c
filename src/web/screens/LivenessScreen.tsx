import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Busy, CallProblem } from '../components/Notice';
import { StepHeading } from '../components/StepHeading';
import { LivenessCapture, type LivenessStrings } from '../camera/LivenessCapture';
import { cameraOn, runBudget } from '../camera/livenessState';
import { useLivenessFlow } from '../camera/useLivenessFlow';
import type { ScreenProps } from './types';
import { useNodePrompt } from './useNodePrompt';

/**
 * The liveness_detection node: the camera with the oval and the server's challenges; the frames
 * go to the server as they are taken, and the server decides (docs/hosted-page.md, "Liveness").
 * This screen and everything camera-related are their own chunk, loaded when the node comes near.
 */
export default function LivenessScreen({ node, api, send }: ScreenProps) {
  const { t } = useTranslation();
  useNodePrompt(api, node, send);
  const flow = useLivenessFlow(api, node.id, send);
  const { state } = flow;
  const timeoutSeconds = node.type === 'liveness_detection' ? node.timeoutSeconds : undefined;

  const strings = useMemo<LivenessStrings>(
    () => ({
      loading: t('liveness.loading'),
      holdStill: t('liveness.holdStill'),
      done: t('liveness.done'),
      switchCamera: t('liveness.switchCamera'),
      retry: t('app.retry'),
      progress: (current, total) => t('liveness.progress', { current, total }),
      hints: {
        noFace: t('liveness.hints.noFace'),
        onePerson: t('liveness.hints.onePerson'),
        moreLight: t('liveness.hints.moreLight'),
        moveCloser: t('liveness.hints.moveCloser'),
        moveFarther: t('liveness.hints.moveFarther'),
        center: t('liveness.hints.center'),
      },
      challenges: {
        turnLeft: t('liveness.challenges.turnLeft'),
        turnRight: t('liveness.challenges.turnRight'),
        lookUp: t('liveness.challenges.lookUp'),
        comeCloser: t('liveness.challenges.comeCloser'),
      },
      cameraErrors: {
        denied: t('liveness.cameraErrors.denied'),
        busy: t('liveness.cameraErrors.busy'),
        missing: t('liveness.cameraErrors.missing'),
        other: t('liveness.cameraErrors.other'),
      },
    }),
    [t],
  );

  const attempt = state.phase === 'capturing' ? state.attempt : null;
  const runOptions = useMemo(
    () => (attempt ? runBudget(attempt.maxFrames, attempt.challenges.length) : undefined),
    [attempt],
  );
  const waiting =
    state.phase === 'sending'
      ? t('liveness.sending')
      : state.phase === 'analysing' || state.phase === 'decided'
        ? t('liveness.analysing')
        : state.phase === 'noCamera'
          ? t('liveness.noCamera')
          : null;

  return (
    <section
      className="card"
      aria-labelledby="liveness-title"
      data-testid="liveness-screen"
      data-phase={state.phase}
      data-attempt={'attempt' in state ? state.attempt?.attemptId : undefined}
    >
      <p className="eyebrow">{t('nodes.liveness_detection')}</p>
      <StepHeading id="liveness-title">{t('liveness.heading')}</StepHeading>
      <p>{t('liveness.intro')}</p>
      {cameraOn(state) && (
        <LivenessCapture
          challenges={attempt?.challenges ?? null}
          attemptKey={attempt?.attemptId ?? null}
          strings={strings}
          {...(timeoutSeconds ? { timeoutSeconds } : {})}
          {...(runOptions ? { runOptions } : {})}
          onReady={flow.onReady}
          onFrame={flow.onFrame}
          onDone={flow.onDone}
          onCameraUnavailable={flow.onCameraUnavailable}
        />
      )}
      {waiting && <Busy label={waiting} />}
      {flow.uploadStruggling && (state.phase === 'capturing' || state.phase === 'sending') && (
        <p className="notice" role="status" data-testid="liveness-upload-slow">
          {t('liveness.uploadSlow')}
        </p>
      )}
      {state.phase === 'problem' && state.problem === 'network' && (
        <CallProblem problem="network" onRetry={flow.retry} />
      )}
      {state.phase === 'problem' && state.problem === 'unexpected' && (
        <div className="notice notice-error" role="alert">
          <p>{t('liveness.failed')}</p>
          <button type="button" className="button button-secondary" onClick={flow.retry}>
            {t('app.retry')}
          </button>
        </div>
      )}
      {state.phase === 'problem' && state.problem === 'exhausted' && (
        <p className="notice notice-error" role="alert">
          {t('liveness.exhausted', { leave: t('exit.button') })}
        </p>
      )}
    </section>
  );
}
