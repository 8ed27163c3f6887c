import { useTranslation } from 'react-i18next';
import { ServerCheck } from '../../screens/ServerCheck';
import type { ScreenProps } from '../../screens/types';

/**
 * The face_compare node: the server compares two faces the session already holds (the face scan
 * and the document photo by default) and decides at once; the page shows that it is checking.
 */
export default function FaceCompareScreen(props: ScreenProps<'face_compare'>) {
  const { t } = useTranslation();
  return (
    <ServerCheck
      {...props}
      testId="face-compare-screen"
      heading={t('faceCompare.heading')}
      checking={t('faceCompare.checking')}
    />
  );
}
