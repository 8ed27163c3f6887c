import type { TFunction } from 'i18next';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { CameraErrorKind } from './cameraError';
import type { LivenessStrings } from './LivenessCapture';

/**
 * The words of the capture (hints, challenges, camera errors) in the session's language: the same
 * for every screen that shows the oval (liveness_detection, face_scan).
 *
 * @example
 * const strings = useCaptureStrings();
 * <LivenessCapture strings={strings} … />
 */
export function useCaptureStrings(): LivenessStrings {
  const { t } = useTranslation();
  return useMemo<LivenessStrings>(
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
        lookStraight: t('liveness.hints.lookStraight'),
      },
      challenges: {
        turnLeft: t('liveness.challenges.turnLeft'),
        turnRight: t('liveness.challenges.turnRight'),
        lookUp: t('liveness.challenges.lookUp'),
        comeCloser: t('liveness.challenges.comeCloser'),
      },
      cameraErrors: cameraErrorMessages(t),
    }),
    [t],
  );
}

/**
 * Why a camera could not open, in the session's language: shared by every camera screen.
 *
 * @example
 * const { t } = useTranslation();
 * cameraErrorMessages(t).denied;
 */
export function cameraErrorMessages(t: TFunction): Record<CameraErrorKind, string> {
  return {
    denied: t('liveness.cameraErrors.denied'),
    busy: t('liveness.cameraErrors.busy'),
    missing: t('liveness.cameraErrors.missing'),
    other: t('liveness.cameraErrors.other'),
  };
}
