import { useTranslation } from 'react-i18next';
import { Busy, CallProblem } from '../components/Notice';
import type { LivenessPhase } from './livenessState';

/**
 * What the screen says around the capture of an attempt: no camera, the decision being followed,
 * a slow upload, and the problems with their retry (sending and the server's analysis are said
 * over the preview, which stays on meanwhile). Shared by the liveness and face scan screens;
 * `testIdPrefix` keeps each screen's test ids its own.
 *
 * @example
 * <CaptureStatus state={flow.state} uploadStruggling={flow.uploadStruggling}
 *   onRetry={flow.retry} testIdPrefix="liveness" analysing={t('liveness.analysing')} />
 */
export function CaptureStatus({
  state,
  uploadStruggling,
  onRetry,
  testIdPrefix,
  analysing,
}: {
  state: LivenessPhase;
  uploadStruggling: boolean;
  onRetry(): void;
  testIdPrefix: string;
  /** What the wait for the server's decision is called on this screen. */
  analysing: string;
}) {
  const { t } = useTranslation();
  const waiting =
    state.phase === 'decided'
      ? analysing
      : state.phase === 'noCamera'
        ? t('liveness.noCamera')
        : null;
  return (
    <>
      {waiting && <Busy label={waiting} />}
      {uploadStruggling && (state.phase === 'capturing' || state.phase === 'sending') && (
        <p className="notice" role="status" data-testid={`${testIdPrefix}-upload-slow`}>
          {t('liveness.uploadSlow')}
        </p>
      )}
      {state.phase === 'problem' && state.problem === 'network' && (
        <CallProblem problem="network" onRetry={onRetry} />
      )}
      {state.phase === 'problem' && state.problem === 'unexpected' && (
        <div className="notice notice-error" role="alert">
          <p>{t('liveness.failed')}</p>
          <button type="button" className="button button-secondary" onClick={onRetry}>
            {t('app.retry')}
          </button>
        </div>
      )}
      {state.phase === 'problem' && state.problem === 'exhausted' && (
        <p className="notice notice-error" role="alert">
          {t('liveness.exhausted', { leave: t('exit.button') })}
        </p>
      )}
    </>
  );
}
