import { useTranslation } from 'react-i18next';
export function Probe() {
  const { t } = useTranslation();
  return <p>{t('missing.key')}{t('app.title')}</p>;
}
