import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { CallProblem } from '../../components/Notice';
import { StepHeading } from '../../components/StepHeading';
import { useCaptureFeedback } from '../../camera/captureFeedback';
import { captureState } from '../../camera/captureProps';
import { CaptureStatus } from '../../camera/CaptureStatus';
import { LivenessCapture } from '../../camera/LivenessCapture';
import { cameraOn } from '../../camera/livenessState';
import { recordSessionFrom, releaseRecordingCamera } from '../../camera/sessionRecorder';
import { useCaptureStrings } from '../../camera/useCaptureStrings';
import { useLivenessFlow } from '../../camera/useLivenessFlow';
import { useSayRetry } from '../../camera/useSayRetry';
import type { ScreenProps } from '../../screens/types';
import { spokenText } from '../../screens/spokenText';
import { useServerCall } from '../../screens/useServerCall';

/**
 * The face_scan node: the liveness screen's capture (oval, hints, and the challenges when the
 * server gives some) over the same attempt routes; the server compares the best frame with the
 * reference and decides, giving another attempt with its reason when the capture failed in a way
 * another may fix. `captureInstructions` are shown and spoken; Cancel ends the node
 * `cancelled` (docs/hosted-page.md, "Face scan"). A tone and a vibration mark the capture unless
 * the node turns them off (`enableSound`, `enableHaptics`).
 */
export default function FaceScanScreen({ node, session, api, send }: ScreenProps<'face_scan'>) {
  const { t } = useTranslation();
  const flow = useLivenessFlow(api, node.id, send);
  const { state } = flow;
  const strings = useCaptureStrings();
  const cancel = useServerCall(send, api);
  const instructions = spokenText(node.captureInstructions);

  // Spoken once per node (a ref survives React's second effect run in development).
  const said = useRef(false);
  useEffect(() => {
    if (!instructions || said.current) return;
    said.current = true;
    send({ type: 'SAY', text: instructions });
  }, [instructions, send]);

  useSayRetry(state, strings, send);
  useCaptureFeedback(state.phase, {
    sound: node.enableSound !== false,
    haptics: node.enableHaptics !== false,
  });
  const attempt = state.phase === 'capturing' ? state.attempt : null;
  const comparing = t('faceScan.comparing');
  const sending = t('liveness.sending');
  const capture = captureState(flow, { sending, analysing: comparing });
  const camera = cameraOn(state);
  // Once the frames are sent the decision is moments away: no cancelling across it.
  const canCancel =
    state.phase !== 'sending' && state.phase !== 'analysing' && state.phase !== 'decided';

  const onCancel = () =>
    void cancel.run(async () => {
      const { position } = await api.result(node.id, 'cancelled');
      send({ type: 'POSITION', position });
    });

  return (
    <section
      className={`card${camera ? ' capture-view' : ''}`}
      aria-labelledby="face-scan-title"
      data-testid="face-scan-screen"
      data-phase={state.phase}
      data-attempt={'attempt' in state ? state.attempt?.attemptId : undefined}
      data-challenges={attempt ? attempt.challenges.length : undefined}
    >
      <p className="eyebrow">{t('nodes.face_scan')}</p>
      <StepHeading id="face-scan-title">{t('faceScan.heading')}</StepHeading>
      <p className="capture-intro">{t('faceScan.intro')}</p>
      {instructions && (
        <p className="notice" data-testid="face-scan-instructions">
          {instructions}
        </p>
      )}
      {camera && (
        <LivenessCapture
          {...capture}
          strings={strings}
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
        testIdPrefix="face-scan"
        analysing={comparing}
      />
      <CallProblem
        problem={cancel.problem}
        message={t('faceScan.cancelFailed')}
        onRetry={cancel.retry}
      />
      {canCancel && (
        <div className="actions">
          <button
            type="button"
            className="button button-secondary"
            data-testid="face-scan-cancel"
            disabled={cancel.busy}
            onClick={onCancel}
          >
            {t('faceScan.cancel')}
          </button>
        </div>
      )}
    </section>
  );
}
