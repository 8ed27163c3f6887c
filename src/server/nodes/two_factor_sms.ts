/**
 * `two_factor_sms`: a code sent by SMS to `providedData.phone` or the number the page typed,
 * then checked.
 */
import { otpRoutes, type OtpDeps } from './otp';
import type { ServerNode } from './types';

export const twoFactorSms: ServerNode<'two_factor_sms', OtpDeps> = { routes: [otpRoutes] };
