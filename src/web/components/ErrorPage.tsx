import { useTranslation } from 'react-i18next';
import type { PageErrorKind } from '../machine/pageError';
import { StepHeading } from './StepHeading';

const TEXTS = {
  secret_expired: ['errors.expiredTitle', 'errors.expiredBody'],
  secret_used: ['errors.usedTitle', 'errors.usedBody'],
  secret_invalid: ['errors.invalidTitle', 'errors.invalidBody'],
  secret_missing: ['errors.missingTitle', 'errors.missingBody'],
  session_gone: ['errors.sessionGoneTitle', 'errors.sessionGoneBody'],
  handoff_used: ['errors.usedTitle', 'errors.handoffUsedBody'],
  handoff_expired: ['errors.expiredTitle', 'errors.handoffExpiredBody'],
  handoff_invalid: ['errors.invalidTitle', 'errors.handoffInvalidBody'],
  network: ['app.title', 'app.networkError'],
  unexpected: ['app.title', 'app.unexpectedError'],
} as const satisfies Record<PageErrorKind, readonly [string, string]>;

/**
 * The page for a link that cannot be used (expired, used, unknown, missing), a session that is
 * gone, or a service that cannot be reached (with a retry).
 *
 * @example
 * <ErrorPage kind="secret_used" />
 */
export function ErrorPage({ kind, onRetry }: { kind: PageErrorKind; onRetry?: () => void }) {
  const { t } = useTranslation();
  const [title, body] = TEXTS[kind];
  return (
    <section className="card error-page" aria-labelledby="error-title" data-error={kind}>
      <div className="error-icon" aria-hidden="true">
        !
      </div>
      <StepHeading id="error-title">{t(title)}</StepHeading>
      <p>{t(body)}</p>
      {onRetry && (
        <button type="button" className="button" onClick={onRetry}>
          {t('app.retry')}
        </button>
      )}
    </section>
  );
}
