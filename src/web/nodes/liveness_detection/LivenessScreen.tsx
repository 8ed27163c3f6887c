import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { StepHeading } from '../../components/StepHeading';
import { CaptureStatus } from '../../camera/CaptureStatus';
import { LivenessCapture } from '../../camera/LivenessCapture';
import { cameraOn, runBudget } from '../../camera/livenessState';
import { recordSessionFrom, releaseRecordingCamera } from '../../camera/sessionRecorder';
import { useCaptureStrings } from '../../camera/useCaptureStrings';
import { useLivenessFlow } from '../../camera/useLivenessFlow';
import type { ScreenProps } from '../../screens/types';
import { useNodePrompt } from '../../screens/useNodePrompt';

/**
 * The liveness_detection node: the camera with the oval and the server's challenges; the frames
 * go to the server as they are taken, and the server decides (docs/hosted-page.md, "Liveness").
 * This screen and everything camera-related are their own chunk, loaded when the node comes near.
 */
export default function LivenessScreen({
  node,
  session,
  api,
  send,
}: ScreenProps<'liveness_detection'>) {
  const { t } = useTranslation();
  useNodePrompt(api, node, send);
  const flow = useLivenessFlow(api, node.id, send);
  const { state } = flow;
  const timeoutSeconds = node.timeoutSeconds;
  const strings = useCaptureStrings();

  const attempt = state.phase === 'capturing' ? state.attempt : null;
  const runOptions = useMemo(
    () => (attempt ? runBudget(attempt.maxFrames, attempt.challenges.length) : undefined),
    [attempt],
  );

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
          onStream={(stream) => recordSessionFrom(stream, api, session)}
          onSwitchCamera={releaseRecordingCamera}
        />
      )}
      <CaptureStatus
        state={state}
        uploadStruggling={flow.uploadStruggling}
        onRetry={flow.retry}
        testIdPrefix="liveness"
        analysing={t('liveness.analysing')}
      />
    </section>
  );
}
