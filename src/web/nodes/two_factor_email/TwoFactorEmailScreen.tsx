import { OtpStep } from '../../components/OtpStep';
import type { ScreenProps } from '../../screens/types';

/** The two_factor_email node: a code sent by email (see `OtpStep`). */
export default function TwoFactorEmailScreen(props: ScreenProps<'two_factor_email'>) {
  return <OtpStep {...props} channel="email" />;
}
