import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { isRecording, subscribeRecording } from './recordingState';

/**
 * "Recording" with a red dot, shown for as long as the session's video is recorded (from the
 * first camera until no camera node remains), so the user is never filmed without a sign of it.
 *
 * @example
 * <RecordingNotice />
 */
export function RecordingNotice() {
  const { t } = useTranslation();
  const recording = useSyncExternalStore(subscribeRecording, isRecording, () => false);
  if (!recording) return null;
  return (
    <p className="recording-notice" role="status" data-testid="recording-notice">
      <span className="recording-dot" aria-hidden="true" />
      {t('recording.notice')}
    </p>
  );
}
