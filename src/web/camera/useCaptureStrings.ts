import type { TFunction } from 'i18next';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { AttemptRetry } from '../../core/api/liveness';
import { denialHelpKey } from './browserFamily';
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
      blink: t('liveness.blink'),
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
      denialHelp: denialHelpText(t),
      retryHeading: t('capture.retryHeading'),
      attemptsLeft: (left) => t('capture.attemptsLeft', { left }),
      reasons: {
        challengeFailed: t('capture.reasons.challengeFailed'),
        tooDark: t('capture.reasons.tooDark'),
        faceTooSmall: t('capture.reasons.faceTooSmall'),
        faceOffCentre: t('capture.reasons.faceOffCentre'),
        multipleFaces: t('capture.reasons.multipleFaces'),
        noFace: t('capture.reasons.noFace'),
        blur: t('capture.reasons.blur'),
        cameraLost: t('capture.reasons.cameraLost'),
        timeout: t('capture.reasons.timeout'),
        personChanged: t('capture.reasons.personChanged'),
        poorQuality: t('capture.reasons.poorQuality'),
        noBlink: t('capture.reasons.noBlink'),
      },
      missed: {
        turnLeft: t('capture.missed.turnLeft'),
        turnRight: t('capture.missed.turnRight'),
        lookUp: t('capture.missed.lookUp'),
        comeCloser: t('capture.missed.comeCloser'),
      },
    }),
    [t],
  );
}

/**
 * Why an attempt failed, in the session's language: the movement the server did not see when it
 * names one, else the reason.
 *
 * @example
 * retryText(strings, { reason: 'challengeFailed', challenge: 'lookUp', attemptsLeft: 2 });
 * // 'We did not see you look up. …'
 */
export function retryText(
  strings: Pick<LivenessStrings, 'reasons' | 'missed'>,
  retry: Pick<AttemptRetry, 'reason' | 'challenge'>,
): string {
  return retry.reason === 'challengeFailed' && retry.challenge
    ? strings.missed[retry.challenge]
    : strings.reasons[retry.reason];
}

/**
 * The steps to allow a blocked camera or microphone again in this browser, in the session's
 * language; undefined for a browser the page has no steps for.
 *
 * @example
 * denialHelpText(t); // 'In Chrome or Edge: click the icon …' in desktop Chrome
 */
export function denialHelpText(t: TFunction, userAgent = navigator.userAgent): string | undefined {
  const key = denialHelpKey(userAgent);
  return key ? t(key) : undefined;
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
