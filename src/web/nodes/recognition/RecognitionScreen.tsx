import { useTranslation } from 'react-i18next';
import { ServerCheck } from '../../screens/ServerCheck';
import type { ScreenProps } from '../../screens/types';

/**
 * The recognition node: the server looks for the session's face among the account's earlier
 * verified sessions and decides at once; the page shows that it is checking.
 */
export default function RecognitionScreen(props: ScreenProps<'recognition'>) {
  const { t } = useTranslation();
  return (
    <ServerCheck
      {...props}
      testId="recognition-screen"
      heading={t('recognition.heading')}
      checking={t('recognition.checking')}
    />
  );
}
