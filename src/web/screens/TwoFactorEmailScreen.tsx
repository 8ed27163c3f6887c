import { OtpStep } from '../components/OtpStep';
import type { ScreenProps } from './types';

/** The two_factor_email node: a code sent by email (see `OtpStep`). */
export default function TwoFactorEmailScreen(props: ScreenProps) {
  return <OtpStep {...props} channel="email" />;
}
