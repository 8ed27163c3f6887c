import type { PageKind } from '../kind';

/** A two_factor_sms node: a code sent by SMS. */
export const twoFactorSmsPage = {
  type: 'two_factor_sms',
  screen: () => import('./TwoFactorSmsScreen'),
} satisfies PageKind<'two_factor_sms'>;
