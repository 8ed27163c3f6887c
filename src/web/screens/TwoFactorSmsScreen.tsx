import { OtpStep } from '../components/OtpStep';
import type { ScreenProps } from './types';

/** The two_factor_sms node: a code sent by text message (see `OtpStep`). */
export default function TwoFactorSmsScreen(props: ScreenProps) {
  return <OtpStep {...props} channel="sms" />;
}
