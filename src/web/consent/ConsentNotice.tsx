import { useTranslation } from 'react-i18next';
import type { PublicSession } from '../api/types';
import { canRecognizeSpeech } from '../screens/speechInput';
import { capturesOf, consentSettingsOf } from './consent';

/**
 * The disclosure shown before the camera starts: what is captured, why, how long it is kept and
 * for whom (with the integrator's privacy link), and that going on means agreeing.
 *
 * @example
 * <ConsentNotice session={session} />
 */
export function ConsentNotice({ session }: { session: PublicSession }) {
  const { t } = useTranslation();
  const settings = consentSettingsOf(session);
  const org = settings.organizationName ?? t('consent.defaultOrg');
  const captures = capturesOf(session.flow, { speechRecognition: canRecognizeSpeech() });
  return (
    <div className="consent" data-testid="consent">
      <h2 className="consent-heading">{t('consent.heading')}</h2>
      <p>{t('consent.intro', { org })}</p>
      <ul className="device-list">
        {captures.face && <li>{t('consent.face')}</li>}
        {captures.video && <li>{t('consent.video')}</li>}
        {captures.document && <li>{t('consent.document')}</li>}
        {captures.voice && <li>{t('consent.voice')}</li>}
      </ul>
      <p>{t('consent.why')}</p>
      <p>
        {settings.retentionDays
          ? t('consent.keptDays', { count: settings.retentionDays })
          : t('consent.keptNotice')}
      </p>
      {settings.privacyUrl && (
        <p>
          <a href={settings.privacyUrl} target="_blank" rel="noopener noreferrer">
            {t('consent.privacy')}
          </a>
        </p>
      )}
      <p className="muted">{t('consent.agreeNote')}</p>
    </div>
  );
}
