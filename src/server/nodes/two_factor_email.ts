/**
 * `two_factor_email`: a code sent by email to the address the session knows (an earlier
 * enter_email node, else `providedData.email`) or the page typed, then checked.
 */
import { otpRoutes, type OtpDeps } from './otp';
import type { ServerNode } from './types';

export const twoFactorEmail: ServerNode<'two_factor_email', OtpDeps> = { routes: [otpRoutes] };
