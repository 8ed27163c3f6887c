import { useTranslation } from 'react-i18next';

/**
 * The banner of a test session (made with an `sk_test_` key): nothing is delivered, codes are
 * 000000, and the outcome panel decides the steps.
 *
 * @example
 * {session.testMode && <TestBanner />}
 */
export function TestBanner() {
  const { t } = useTranslation();
  return (
    <div className="test-banner" role="note">
      {t('testMode.banner')}
    </div>
  );
}
