import { useTranslation } from 'react-i18next';

/**
 * An inline message about the last call: a lost connection with a retry button, or a refusal.
 *
 * @example
 * <CallProblem problem="network" onRetry={retry} />
 */
export function CallProblem({
  problem,
  message,
  onRetry,
}: {
  problem: 'network' | 'refused' | null;
  message?: string;
  onRetry?: () => void;
}) {
  const { t } = useTranslation();
  if (!problem) return null;
  return (
    <div className="notice notice-error" role="alert">
      <p>{problem === 'network' ? t('app.networkError') : (message ?? t('app.unexpectedError'))}</p>
      {problem === 'network' && onRetry && (
        <button type="button" className="button button-secondary" onClick={onRetry}>
          {t('app.retry')}
        </button>
      )}
    </div>
  );
}

/**
 * A polite "please wait" for screen readers and a spinner for the eyes.
 *
 * @example
 * <Busy />
 */
export function Busy({ label }: { label?: string }) {
  const { t } = useTranslation();
  return (
    <p className="busy" role="status">
      <span className="spinner" aria-hidden="true" />
      {label ?? t('app.working')}
    </p>
  );
}
