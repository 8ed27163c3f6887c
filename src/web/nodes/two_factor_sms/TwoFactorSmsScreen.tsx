import { OtpStep } from '../../components/OtpStep';
import type { ScreenProps } from '../../screens/types';

/** The two_factor_sms node: a code sent by text message (see `OtpStep`). */
export default function TwoFactorSmsScreen(props: ScreenProps<'two_factor_sms'>) {
  return <OtpStep {...props} channel="sms" />;
}
