import { useTranslation } from 'react-i18next';
import { ServerCheck } from '../../screens/ServerCheck';
import type { ScreenProps } from '../../screens/types';

/**
 * The external_call node: the server calls the integrator's endpoint with values from the session
 * and moves on whatever the answer; the page shows that it is checking meanwhile.
 */
export default function ExternalCallScreen(props: ScreenProps<'external_call'>) {
  const { t } = useTranslation();
  return (
    <ServerCheck
      {...props}
      testId="external-call-screen"
      heading={t('externalCall.heading')}
      checking={t('externalCall.checking')}
    />
  );
}
