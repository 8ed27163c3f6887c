import { useTranslation } from 'react-i18next';
import { StepHeading } from '../../components/StepHeading';
import { captureState } from '../../camera/captureProps';
import { CaptureStatus } from '../../camera/CaptureStatus';
import { LivenessCapture } from '../../camera/LivenessCapture';
import { cameraOn } from '../../camera/livenessState';
import { recordSessionFrom, releaseRecordingCamera } from '../../camera/sessionRecorder';
import { useCaptureStrings } from '../../camera/useCaptureStrings';
import { useLivenessFlow } from '../../camera/useLivenessFlow';
import { useSayRetry } from '../../camera/useSayRetry';
import type { ScreenProps } from '../../screens/types';
import { useNodePrompt } from '../../screens/useNodePrompt';

/**
 * The liveness_detection node: the camera with the oval and the server's challenges; the frames
 * go to the server as they are taken, and the server decides, giving another attempt with its
 * reason while the node has some (docs/hosted-page.md, "Liveness"). This screen and everything
 * camera-related are their own chunk, loaded when the node comes near.
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
  useSayRetry(state, strings, send);
  const analysing = t('liveness.analysing');
  const sending = t('liveness.sending');
  const capture = captureState(flow, { sending, analysing });
  const camera = cameraOn(state);

  return (
    <section
      className={`card${camera ? ' capture-view' : ''}`}
      aria-labelledby="liveness-title"
      data-testid="liveness-screen"
      data-phase={state.phase}
      data-attempt={'attempt' in state ? state.attempt?.attemptId : undefined}
    >
      <p className="eyebrow">{t('nodes.liveness_detection')}</p>
      <StepHeading id="liveness-title">{t('liveness.heading')}</StepHeading>
      <p className="capture-intro">{t('liveness.intro')}</p>
      {camera && (
        <LivenessCapture
          {...capture}
          strings={strings}
          {...(timeoutSeconds ? { timeoutSeconds } : {})}
          onReady={flow.onReady}
          onFrame={flow.onFrame}
          onDone={flow.onDone}
          onCameraUnavailable={flow.onCameraUnavailable}
          onSay={(text) => send({ type: 'SAY', text })}
          onStream={(stream) => recordSessionFrom(stream, api, session)}
          onSwitchCamera={releaseRecordingCamera}
        />
      )}
      <CaptureStatus
        state={state}
        uploadStruggling={flow.uploadStruggling}
        onRetry={flow.retry}
        testIdPrefix="liveness"
        analysing={analysing}
      />
    </section>
  );
}
